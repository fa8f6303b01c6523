/// The atpad markup codec (SPEC §7): a document's text with each mention written as
/// `@[John Doe](u42)` — trigger, name in brackets, id in parentheses.
///
/// Everything works on Unicode scalars, the unit `Mention.range` counts in, so a round trip
/// is exact scalar for scalar (a combining mark right after `]` or `)` stays where it was).
///
/// Escapes, and why each exists:
/// - In a name, `\`, `[` and `]` are always written `\\`, `\[`, `\]`; in an id, `\`, `(` and
///   `)` are always written `\\`, `\(`, `\)`. Inside a mention the brackets end fields, so
///   the writer escapes them whether or not a reader would have been confused.
/// - In plain text only two things need an escape, because only they would otherwise read
///   as something else: a trigger followed by `[` (which would start a mention) is written
///   `\@[`, and a backslash is written `\\` only when the next written character would
///   otherwise pair with it as an escape (the next is a backslash, or the next two are a
///   trigger and `[`). Every other backslash is written as itself, so `C:\path` and `\o/`
///   stay readable in a saved file.
///
/// Reading is lenient and never fails: a backslash that escapes nothing is a literal
/// backslash, and a trigger followed by `[` that does not go on to form a complete mention
/// (`]` right before `(`, `)` at the end, name and id non-empty, no unescaped `[` in the
/// name nor `(` in the id) is plain text from that trigger on.
public enum AtpadMarkup {
    /// The characters read as triggers in markup, whatever the configuration, so that a
    /// file always reads the same.
    public static let triggers: [Unicode.Scalar] = ["@", "#", "$", "%", "+", "~", ":"]

    /// Whether `scalar` is one of the markup triggers (`@ # $ % + ~ :`).
    public static func isTrigger(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "@", "#", "$", "%", "+", "~", ":": return true
        default: return false
        }
    }

    // MARK: - Writing

    /// Writes `doc` as atpad markup, escaping as little as `decode` needs to get `doc` back.
    ///
    /// A mention that breaks the document's invariants (out of order, overlapping, out of
    /// range, its text not equal to trigger + name, an empty name or id, or a trigger that
    /// markup cannot spell) is written as the plain text it covers: the text always
    /// survives, only that mention's id is lost.
    public static func encode(_ doc: MarkedText) -> String {
        let scalars = Array(doc.text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var position = 0
        for mention in writableMentions(of: doc, scalars: scalars) {
            writePlain(scalars, from: position, to: mention.range.lowerBound, mentionFollows: true, into: &out)
            writeMention(mention, into: &out)
            position = mention.range.upperBound
        }
        writePlain(scalars, from: position, to: scalars.count, mentionFollows: false, into: &out)
        return String(out)
    }

    /// The mentions of `doc` that can be written as markup and read back unchanged.
    private static func writableMentions(of doc: MarkedText, scalars: [Unicode.Scalar]) -> [Mention] {
        var result: [Mention] = []
        result.reserveCapacity(doc.mentions.count)
        var end = 0
        for mention in doc.mentions {
            let range = mention.range
            guard range.lowerBound >= end, range.upperBound <= scalars.count,
                  isTrigger(mention.trigger), !mention.name.isEmpty, !mention.id.isEmpty,
                  scalars[range.lowerBound] == mention.trigger,
                  scalars[range.lowerBound + 1 ..< range.upperBound].elementsEqual(mention.name.unicodeScalars)
            else { continue }
            result.append(mention)
            end = range.upperBound
        }
        return result
    }

    /// Writes the plain scalars `lower ..< upper`; `mentionFollows` tells whether a mention
    /// (whose markup starts with a trigger and `[`) is written right after them.
    private static func writePlain(
        _ scalars: [Unicode.Scalar], from lower: Int, to upper: Int, mentionFollows: Bool,
        into out: inout String.UnicodeScalarView
    ) {
        var i = lower
        while i < upper {
            let scalar = scalars[i]
            let next = i + 1
            if scalar == "\\" {
                // Doubled only when the next written scalar is itself a backslash: a plain
                // backslash, an escaped `\T[`, or — for the mention's `T[` — a would-be escape.
                let pairs: Bool
                if next == upper {
                    pairs = mentionFollows
                } else {
                    pairs = scalars[next] == "\\"
                        || (isTrigger(scalars[next]) && next + 1 < upper && scalars[next + 1] == "[")
                }
                out.append("\\")
                if pairs { out.append("\\") }
            } else if isTrigger(scalar), next < upper, scalars[next] == "[" {
                // The `[` itself is written as is on the next turn.
                out.append("\\")
                out.append(scalar)
            } else {
                out.append(scalar)
            }
            i = next
        }
    }

    private static func writeMention(_ mention: Mention, into out: inout String.UnicodeScalarView) {
        out.append(mention.trigger)
        out.append("[")
        for scalar in mention.name.unicodeScalars {
            if scalar == "\\" || scalar == "[" || scalar == "]" { out.append("\\") }
            out.append(scalar)
        }
        out.append("]")
        out.append("(")
        for scalar in mention.id.unicodeScalars {
            if scalar == "\\" || scalar == "(" || scalar == ")" { out.append("\\") }
            out.append(scalar)
        }
        out.append(")")
    }

    // MARK: - Reading

    /// Reads atpad markup. Never fails: whatever does not form a mention is plain text.
    public static func decode(_ markup: String) -> MarkedText {
        var reader = MarkupReader(markup, marksCursor: false)
        reader.run()
        return MarkedText(text: String(reader.text), mentions: reader.mentions)
    }

    /// Reads the markup of `atpad replay --text`: atpad markup in which an unescaped `|`
    /// marks the cursor.
    ///
    /// The cursor is returned as a scalar offset into the decoded text, or nil when there
    /// is no mark (the caller puts it at the end). In this dialect `\|` is a literal bar,
    /// in plain text and inside names and ids alike. `\\|` reads as an escaped backslash
    /// followed by the cursor — escapes pair from the left, as everywhere in markup — so a
    /// literal backslash right before the cursor is written `\\|`, and `\\\|` is a
    /// backslash followed by a literal bar.
    ///
    /// Throws `MarkupError` for a second unescaped `|`, and for a `|` inside the name or id
    /// of what is otherwise a complete mention (the cursor never sits inside a mention). A
    /// `|` that keeps its surroundings from forming a mention at all (`@|[a](b)`,
    /// `@[a]|(b)`) is simply a cursor in plain text.
    public static func decodeWithCursor(_ markup: String) throws(MarkupError) -> (MarkedText, cursor: Int?) {
        var reader = MarkupReader(markup, marksCursor: true)
        reader.run()
        if let failure = reader.failure { throw failure }
        return (MarkedText(text: String(reader.text), mentions: reader.mentions), reader.cursor)
    }
}

/// Why `atpad replay --text` markup could not be read: one line naming the column.
public struct MarkupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// A second unescaped `|`; a document has one cursor.
        case secondCursor
        /// A `|` inside the name or id of a mention.
        case cursorInsideMention
    }

    public var kind: Kind
    /// The 1-based column, in characters (grapheme clusters), of the offending `|`.
    public var column: Int

    public init(kind: Kind, column: Int) {
        self.kind = kind
        self.column = column
    }

    public var description: String {
        switch kind {
        case .secondCursor:
            return "--text: a second cursor mark '|' at column \(column)"
        case .cursorInsideMention:
            return "--text: the cursor mark '|' at column \(column) is inside a mention"
        }
    }
}

/// One left-to-right pass over markup, building the text, its mentions and (in the
/// `--text` dialect) the cursor. Failures are recorded, not thrown, so that plain
/// `decode` needs no `try`.
private struct MarkupReader {
    let input: [Unicode.Scalar]
    /// Whether `|` marks the cursor and `\|` is an escape (the `--text` dialect).
    let marksCursor: Bool
    var text = String.UnicodeScalarView()
    /// The number of scalars in `text`, kept so mention starts need no recount.
    var length = 0
    var mentions: [Mention] = []
    var cursor: Int?
    var failure: MarkupError?

    init(_ markup: String, marksCursor: Bool) {
        self.input = Array(markup.unicodeScalars)
        self.marksCursor = marksCursor
    }

    mutating func run() {
        var i = 0
        while i < input.count, failure == nil {
            let scalar = input[i]
            if scalar == "\\" {
                i = readPlainEscape(at: i)
            } else if marksCursor, scalar == "|" {
                if cursor != nil {
                    failure = MarkupError(kind: .secondCursor, column: column(of: i))
                } else {
                    cursor = length
                }
                i += 1
            } else if AtpadMarkup.isTrigger(scalar), i + 1 < input.count, input[i + 1] == "[",
                      let (mention, next) = readMention(at: i) {
                mentions.append(mention)
                emit(mention.trigger)
                // One by one: `append(contentsOf:)` on a scalar view reserves exactly what
                // it adds, which made many mentions quadratic.
                for scalar in mention.name.unicodeScalars { text.append(scalar) }
                length += mention.range.count - 1
                i = next
            } else {
                emit(scalar)
                i += 1
            }
        }
    }

    /// Reads the backslash at `i` in plain text; returns where reading goes on.
    private mutating func readPlainEscape(at i: Int) -> Int {
        let next = i + 1
        if next < input.count {
            let escaped = input[next]
            if escaped == "\\" || (marksCursor && escaped == "|") {
                emit(escaped)
                return next + 1
            }
            if AtpadMarkup.isTrigger(escaped), next + 1 < input.count, input[next + 1] == "[" {
                emit(escaped)
                emit("[")
                return next + 2
            }
        }
        // It escapes nothing: a literal backslash.
        emit("\\")
        return next
    }

    /// Tries to read a complete mention whose trigger is at `start` (followed by `[`).
    /// Returns nil, touching nothing, when the markup there is not a mention.
    private mutating func readMention(at start: Int) -> (Mention, next: Int)? {
        var cursorMark: Int?
        guard let (name, afterName) = readField(from: start + 2, open: "[", close: "]", cursorMark: &cursorMark),
              afterName < input.count, input[afterName] == "(",
              let (id, afterID) = readField(from: afterName + 1, open: "(", close: ")", cursorMark: &cursorMark)
        else { return nil }
        if let cursorMark {
            failure = MarkupError(kind: .cursorInsideMention, column: column(of: cursorMark))
            return nil
        }
        return (Mention(trigger: input[start], id: id, name: name, start: length), afterID)
    }

    /// Reads a name or id from `from` up to its unescaped `close`; returns the field and
    /// the index after `close`, or nil when the field is empty, unclosed, or holds an
    /// unescaped `open` (which reads better as the start of something else: in
    /// `@[a @[b](c)` the mention is `@b`).
    private func readField(
        from: Int, open: Unicode.Scalar, close: Unicode.Scalar, cursorMark: inout Int?
    ) -> (String, next: Int)? {
        var field = String.UnicodeScalarView()
        var i = from
        while i < input.count {
            let scalar = input[i]
            if scalar == "\\", i + 1 < input.count {
                let escaped = input[i + 1]
                if escaped == "\\" || escaped == open || escaped == close || (marksCursor && escaped == "|") {
                    field.append(escaped)
                    i += 2
                    continue
                }
                field.append(scalar)
            } else if scalar == close {
                return field.isEmpty ? nil : (String(field), i + 1)
            } else if scalar == open {
                return nil
            } else if marksCursor, scalar == "|" {
                // Remembered, not kept: only an error if this turns out to be a mention.
                if cursorMark == nil { cursorMark = i }
            } else {
                field.append(scalar)
            }
            i += 1
        }
        return nil
    }

    private mutating func emit(_ scalar: Unicode.Scalar) {
        text.append(scalar)
        length += 1
    }

    /// The 1-based character column of the scalar at `index` (only computed for errors).
    private func column(of index: Int) -> Int {
        String(String.UnicodeScalarView(input[..<index])).count + 1
    }
}
