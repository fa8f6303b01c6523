/// Raw HTML being typed (docs/markdown.md): cmark-gfm reads `<!-- @jo` and `<a href="@jo`
/// as text until the comment or the tag is closed, and then as HTML, where GitHub makes
/// no mention. While it is typed, a trigger on the same line after an unclosed `<!--`, or
/// inside a tag that can still become one, starts no search.
///
/// A tag is CommonMark's: `<` or `</`, a name (a letter, then letters, digits and `-`),
/// attributes (`name`, `name=value`, `name="…"`, `name='…'`) separated by blanks, an
/// optional `/`, and `>`. `x < y @jo` is no tag, nor is `<b then @jo` (`@` cannot start an
/// attribute's name): a search starts there.
enum MarkdownHTMLTyping {
    /// Whether the trigger at byte `offset` of `bytes` (a Markdown window that `syntax`
    /// parsed) is inside a comment or a tag being typed on its line: after a `<` of prose
    /// (not code, not HTML already) that is not escaped.
    static func isInside(_ bytes: [UInt8], at offset: Int, syntax: MarkdownSyntax) -> Bool {
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
        var i = lineStart
        while i < offset {
            guard bytes[i] == UInt8(ascii: "<"), i == 0 || bytes[i - 1] != UInt8(ascii: "\\"),
                  syntax.proseRun(containing: i) != nil else {
                i += 1
                continue
            }
            if starts(bytes, at: i + 1, with: "!--") {
                guard let close = find(bytes, "-->", from: i + 4, before: offset) else { return true }
                i = close
                continue
            }
            switch tag(bytes, from: i + 1, to: offset) {
            case .open: return true
            case let .closed(end): i = end
            case .none: i += 1
            }
        }
        return false
    }

    /// How a tag starting after `<` at `from` stands at `end`, the trigger's byte (the
    /// trigger taken as typed into it).
    private enum Scan {
        /// Still a tag, the trigger inside it.
        case open
        /// Closed by the `>` before `end` (the byte after it).
        case closed(Int)
    }

    /// The states of a tag being read.
    private enum State {
        case name, closingName, afterClosingName, beforeAttribute, attribute, afterAttribute, beforeValue, unquoted,
             quoted(UInt8), afterQuoted, slash
    }

    /// Reads the tag after a `<` from `from`, up to and including the byte at `end`; nil
    /// when it is no tag.
    private static func tag(_ bytes: [UInt8], from: Int, to end: Int) -> Scan? {
        guard from < bytes.count else { return nil }
        var state: State
        var i = from
        if bytes[i] == UInt8(ascii: "/") {
            i += 1
            state = .closingName
        } else {
            state = .name
        }
        guard i < end, i < bytes.count, isLetter(bytes[i]) else { return nil }
        i += 1
        while i <= end, i < bytes.count {
            let b = bytes[i]
            let blank = b == 0x20 || b == 0x09
            if b == UInt8(ascii: ">") {
                switch state {
                case .quoted, .beforeValue: break
                default:
                    return i < end ? .closed(i + 1) : nil
                }
            }
            switch state {
            case .name:
                if isLetter(b) || isDigit(b) || b == UInt8(ascii: "-") { break }
                if blank { state = .beforeAttribute } else if b == UInt8(ascii: "/") { state = .slash } else { return nil }
            case .closingName:
                if isLetter(b) || isDigit(b) || b == UInt8(ascii: "-") { break }
                guard blank else { return nil }
                state = .afterClosingName
            case .afterClosingName:
                guard blank else { return nil }
            case .beforeAttribute:
                if blank { break }
                if startsAttribute(b) { state = .attribute } else if b == UInt8(ascii: "/") { state = .slash } else { return nil }
            case .attribute:
                if startsAttribute(b) || isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") { break }
                if blank { state = .afterAttribute } else if b == UInt8(ascii: "=") { state = .beforeValue }
                else if b == UInt8(ascii: "/") { state = .slash } else { return nil }
            case .afterAttribute:
                if blank { break }
                if b == UInt8(ascii: "=") { state = .beforeValue } else if startsAttribute(b) { state = .attribute }
                else if b == UInt8(ascii: "/") { state = .slash } else { return nil }
            case .beforeValue:
                if blank { break }
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { state = .quoted(b) }
                else if inUnquotedValue(b) { state = .unquoted } else { return nil }
            case .unquoted:
                if inUnquotedValue(b) { break }
                guard blank else { return nil }
                state = .beforeAttribute
            case let .quoted(quote):
                if b == quote { state = .afterQuoted }
            case .afterQuoted:
                if blank { state = .beforeAttribute } else if b == UInt8(ascii: "/") { state = .slash } else { return nil }
            case .slash:
                return nil
            }
            i += 1
        }
        return i > end ? .open : nil
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(b)
    }

    private static func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(b) }

    /// A byte that may start an attribute's name: a letter, `_` or `:`.
    private static func startsAttribute(_ b: UInt8) -> Bool {
        isLetter(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
    }

    /// A byte of an unquoted attribute value: anything but blanks, quotes, `=`, `<`, `>`
    /// and the backtick.
    private static func inUnquotedValue(_ b: UInt8) -> Bool {
        !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B || b == UInt8(ascii: "\"")
            || b == UInt8(ascii: "'") || b == UInt8(ascii: "=") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
            || b == UInt8(ascii: "`"))
    }

    private static func starts(_ bytes: [UInt8], at i: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[i ..< i + count].elementsEqual($0) }
    }

    /// The byte after the first `text` found from `from` that ends before `end`.
    private static func find(_ bytes: [UInt8], _ text: StaticString, from: Int, before end: Int) -> Int? {
        let count = text.utf8CodeUnitCount
        var i = from
        while i + count <= end {
            if starts(bytes, at: i, with: text) { return i + count }
            i += 1
        }
        return nil
    }
}
