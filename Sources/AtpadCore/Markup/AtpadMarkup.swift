/// The atpad markup codec (docs/formats.md): a document's text with each mention written as
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
///   as something else: a trigger followed by `[` is written `\@[` when what follows would
///   read as a mention, and a backslash is written `\\` only when the next written
///   character would otherwise pair with it as an escape (the next is a backslash, or the
///   next two are a trigger and `[`). Every other backslash is written as itself, so
///   `C:\path` and `\o/` stay readable in a saved file, and `foo@[bar` stays as it is.
///
/// Reading is lenient and never fails: a backslash that escapes nothing is a literal
/// backslash, and a trigger followed by `[` that does not go on to form a complete mention
/// (`]` right before `(`, `)` at the end, name and id non-empty, no unescaped `[` in the
/// name nor `(` in the id) is plain text from that trigger on.
///
/// A file is given back byte for byte
/// (docs/formats.md, "Files come back as they were (kept constructs)"), also where it was
/// not written the way the writer would: an escape the writer would not have written (`\\`
/// before a letter, `\@[` that would form no mention) is kept as a construct of its own —
/// shown as what it stands for, written back as it was — and a mention spelt otherwise than
/// the writer spells it (`@[a\x](u)`) carries its text as its source.
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
    ///
    /// Works on UTF-8 bytes: every character markup escapes is ASCII, so a byte is one of
    /// them exactly when the scalar is, and plain stretches are copied whole.
    public static func encode(_ doc: MarkedText) -> String {
        String(decoding: encodeUTF8(doc), as: UTF8.self)
    }

    /// `encode`, as UTF-8 bytes.
    static func encodeUTF8(_ doc: MarkedText) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 48))
        // Where plain text has a trigger followed by `[`: escaped below only where it would
        // read as a mention, which depends on what is written after it.
        var triggers: [(at: Int, joinedBefore: Bool)] = []
        MentionRuns.forEach(in: doc, format: .atpad, accept: { isTrigger($0.trigger) }, plain: { run, next in
            writePlain(run, mentionFollows: next != nil, into: &out, triggers: &triggers)
        }, token: { m in
            if let source = m.source(in: .atpad) {
                out.append(contentsOf: source.utf8)
            } else {
                writeMention(m, into: &out)
            }
        })
        return escapingMentionLikeText(out, at: triggers)
    }

    /// `out` with a backslash before each trigger at `triggers` that would start a mention
    /// when read. An escape before a later trigger never changes whether an earlier one
    /// forms a mention (inside a name a `[` ends it either way; inside an id `\@` is two
    /// plain characters), so each is decided on the unescaped text.
    private static func escapingMentionLikeText(_ out: [UInt8], at triggers: [(at: Int, joinedBefore: Bool)]) -> [UInt8] {
        let escaped = out.withUnsafeBufferPointer { buffer in
            triggers.filter { MarkupReader.formsMention(in: buffer, at: $0.at, joinedBefore: $0.joinedBefore) }.map(\.at)
        }
        guard !escaped.isEmpty else { return out }
        var result: [UInt8] = []
        result.reserveCapacity(out.count + escaped.count)
        var copied = 0
        for at in escaped {
            result.append(contentsOf: out[copied ..< at])
            result.append(backslash)
            copied = at
        }
        result.append(contentsOf: out[copied...])
        return result
    }

    private static let backslash = UInt8(ascii: "\\")
    private static let openBracket = UInt8(ascii: "[")

    /// Writes a run of plain text; `mentionFollows` tells whether a mention (whose markup
    /// starts with a trigger and `[`) is written right after it.
    private static func writePlain(_ run: UnsafeBufferPointer<UInt8>, mentionFollows: Bool, into out: inout [UInt8],
                                   triggers: inout [(at: Int, joinedBefore: Bool)]) {
        var copied = 0
        var i = 0
        while i < run.count {
            // Only a backslash or a `[` (after a trigger) can need an escape: skip eight
            // bytes at a time while there is neither.
            if run.count - i >= 8 {
                let word = UTF8Scan.word(run, at: i)
                if !UTF8Scan.word(word, contains: backslash), !UTF8Scan.word(word, contains: openBracket) {
                    i += 8
                    continue
                }
            }
            let b = run[i]
            if b == backslash {
                // Doubled only when the next written character is itself a backslash: a plain
                // backslash, an escaped `\T[`, or — for the mention's `T[` — a would-be escape.
                let next = i + 1
                let pairs = next == run.count
                    ? mentionFollows
                    : run[next] == backslash
                        || (MarkupReader.isTrigger(run[next]) && next + 1 < run.count && run[next + 1] == openBracket)
                if pairs {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied ..< i]))
                    out.append(backslash)
                    copied = i
                }
            } else if b == openBracket, i > 0, MarkupReader.isTrigger(run[i - 1]) {
                // A trigger followed by `[` may start a mention: noted, escaped if so.
                triggers.append((out.count + (i - 1 - copied), MarkupReader.joinsTrigger(run, end: i - 1)))
            }
            i += 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied...]))
    }

    fileprivate static func writeMention(_ mention: Mention, into out: inout [UInt8]) {
        out.append(contentsOf: String(Character(mention.trigger)).utf8)
        out.append(openBracket)
        for b in mention.name.utf8 {
            if b == backslash || b == openBracket || b == UInt8(ascii: "]") { out.append(backslash) }
            out.append(b)
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "("))
        for b in mention.id.utf8 {
            if b == backslash || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") { out.append(backslash) }
            out.append(b)
        }
        out.append(UInt8(ascii: ")"))
    }

    // MARK: - Reading

    /// Reads atpad markup. Never fails: whatever does not form a mention is plain text.
    public static func decode(_ markup: String) -> MarkedText {
        var markup = markup
        return markup.withUTF8 { decode($0) }
    }

    /// Reads atpad markup given as valid UTF-8. With `keepingSpelling` (a file being
    /// opened), escapes the writer would not write are kept as constructs and mentions
    /// keep their exact text, so that saving gives the file's bytes back; text that is
    /// pasted or a draft is read without them.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, keepingSpelling: Bool = false) -> MarkedText {
        var reader = MarkupReader(bytes, marksCursor: false, keepsSpelling: keepingSpelling)
        reader.run()
        return MarkedText(text: reader.string, mentions: reader.mentions)
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
        var markup = markup
        let reader = markup.withUTF8 { bytes in
            var reader = MarkupReader(bytes, marksCursor: true)
            reader.run()
            return (failure: reader.failure, text: reader.string, mentions: reader.mentions, cursor: reader.cursor)
        }
        if let failure = reader.failure { throw failure }
        return (MarkedText(text: reader.text, mentions: reader.mentions), reader.cursor)
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
    /// The markup's UTF-8. Every character markup gives a meaning to (`\\ | [ ] ( )` and
    /// the triggers) is ASCII, so reading bytes is exact and copies plain runs whole,
    /// much faster on a large file than reading scalar by scalar.
    let input: UnsafeBufferPointer<UInt8>
    /// Whether `|` marks the cursor and `\|` is an escape (the `--text` dialect).
    let marksCursor: Bool
    /// Whether escapes the writer would not write become kept constructs, and mentions
    /// spelt otherwise than the writer spells them carry their text (a file being opened).
    let keepsSpelling: Bool
    var text: [UInt8] = []
    /// The number of scalars in `text`, kept so mention starts need no recount.
    var length = 0
    var mentions: [Mention] = []
    var cursor: Int?
    var failure: MarkupError?
    /// Where in the input the last kept escape ended (text before it is not plain).
    private var lastTokenEndByte = 0

    /// A name or id of more scalars than this is not read as one (so a file full of
    /// unclosed `@[` cannot make reading quadratic); no directory has such names. Counted
    /// in scalars, not bytes: a byte that is not UTF-8 is read as a 4-byte stand-in
    /// (`RawBytes`), and a name must read back the same whatever its bytes.
    static let longestField = 4096

    private static let backslash: UInt8 = 0x5C
    private static let bar: UInt8 = 0x7C

    init(_ markup: UnsafeBufferPointer<UInt8>, marksCursor: Bool, keepsSpelling: Bool = false) {
        input = markup
        self.marksCursor = marksCursor
        self.keepsSpelling = keepsSpelling && !marksCursor
        text.reserveCapacity(input.count)
    }

    /// Whether the trigger at `start` of `markup` starts a complete mention (the writer
    /// escapes exactly those); `joinedBefore` as for `readMention`.
    static func formsMention(in markup: UnsafeBufferPointer<UInt8>, at start: Int, joinedBefore: Bool) -> Bool {
        guard start + 1 < markup.count, isTrigger(markup[start]), markup[start + 1] == 0x5B else { return false }
        var reader = MarkupReader(markup, marksCursor: false)
        return reader.readMention(at: start, joinedBefore: joinedBefore) != nil
    }

    /// Whether the text whose UTF-8 ends at `end` of `bytes` ends in a character that joins
    /// a trigger written after it into one character (a Prepend character such as U+0600):
    /// a mention there would not start on a character boundary.
    static func joinsTrigger(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        guard end > 0, bytes[end - 1] >= 0x80 else { return false }
        var start = end - 1
        while start > 0, UTF8Scan.isContinuation(bytes[start]) { start -= 1 }
        var pair = Array(bytes[start ..< end])
        pair.append(0x40)
        return pair.withUnsafeBufferPointer { !UTF8GraphemeBoundary.isBoundary($0, at: end - start) }
    }

    /// `joinsTrigger` for the text read so far.
    private var textJoinsTrigger: Bool {
        text.withUnsafeBufferPointer { Self.joinsTrigger($0, end: $0.count) }
    }

    var string: String { String(decoding: text, as: UTF8.self) }

    static func isTrigger(_ b: UInt8) -> Bool {
        b == 0x40 || b == 0x23 || b == 0x24 || b == 0x25 || b == 0x2B || b == 0x7E || b == 0x3A
    }

    mutating func run() {
        var i = 0
        let n = input.count
        while i < n, failure == nil {
            let b = input[i]
            if b == Self.backslash {
                i = readPlainEscape(at: i)
            } else if marksCursor, b == Self.bar {
                if cursor != nil {
                    failure = MarkupError(kind: .secondCursor, column: column(of: i))
                } else {
                    cursor = length
                }
                i += 1
            } else if Self.isTrigger(b), i + 1 < n, input[i + 1] == 0x5B,
                      let (read, next) = readMention(at: i, joinedBefore: textJoinsTrigger) {
                var mention = read
                if keepsSpelling { mention.source = sourceIfUnusual(of: mention, from: i ..< next) }
                lastTokenEndByte = next
                mentions.append(mention)
                text.append(b)
                text.append(contentsOf: mention.name.utf8)
                length += mention.range.count
                i = next
            } else {
                i = readRun(from: i)
            }
        }
    }

    /// Copies the run of ordinary text that starts at `i` (a character that starts no
    /// escape nor mention) and returns where it ends: before a backslash, a cursor bar,
    /// or a trigger followed by `[`. Scalars are counted on the way; eight bytes at a
    /// time while none of `\`, `[` or `|` is among them.
    private mutating func readRun(from i: Int) -> Int {
        let n = input.count
        var j = i + 1
        var scalars = 1
        while j < n {
            if n - j >= 8 {
                let word = UTF8Scan.word(input, at: j)
                if !UTF8Scan.word(word, contains: Self.backslash), !UTF8Scan.word(word, contains: 0x5B),
                   !(marksCursor && UTF8Scan.word(word, contains: Self.bar)) {
                    scalars += UTF8Scan.scalarStarts(in: word)
                    j += 8
                    continue
                }
            }
            let c = input[j]
            if c == Self.backslash || (marksCursor && c == Self.bar) { break }
            if c == 0x5B, j - 1 > i, Self.isTrigger(input[j - 1]) {
                // The trigger before it starts what may be a mention; it was counted.
                j -= 1
                scalars -= 1
                break
            }
            if !UTF8Scan.isContinuation(c) { scalars += 1 }
            j += 1
        }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: input[i ..< j]))
        length += scalars
        return j
    }

    /// Reads the backslash at `i` in plain text; returns where reading goes on.
    private mutating func readPlainEscape(at i: Int) -> Int {
        let next = i + 1
        if next < input.count {
            let escaped = input[next]
            if escaped == Self.backslash || (marksCursor && escaped == Self.bar) {
                // The writer doubles a backslash only before a backslash or a trigger and `[`.
                if keepsSpelling, escaped == Self.backslash, !startsEscapeOrTrigger(at: next + 1),
                   let end = keep(i ..< next + 1, shown: [Self.backslash]) {
                    return end
                }
                emit(escaped)
                return next + 1
            }
            if Self.isTrigger(escaped), next + 1 < input.count, input[next + 1] == 0x5B {
                // The writer escapes a trigger and `[` only where they would form a mention.
                if keepsSpelling, !Self.formsMention(in: input, at: next, joinedBefore: textJoinsTrigger),
                   let end = keep(i ..< next + 2, shown: [escaped, 0x5B]) {
                    return end
                }
                emit(escaped)
                emit(0x5B)
                return next + 2
            }
        }
        // It escapes nothing: a literal backslash.
        emit(Self.backslash)
        return next
    }

    /// Tries to read a complete mention whose trigger is at `start` (followed by `[`).
    /// Returns nil, touching nothing, when the markup there is not a mention.
    /// `joinedBefore` tells whether the text before the trigger ends in a character that
    /// joins the trigger to it (see `joinsTrigger`).
    mutating func readMention(at start: Int, joinedBefore: Bool) -> (Mention, next: Int)? {
        var cursorMark: Int?
        guard let (name, nameScalars, afterName) = readField(from: start + 2, open: 0x5B, close: 0x5D, cursorMark: &cursorMark),
              afterName < input.count, input[afterName] == 0x28,
              let (id, _, afterID) = readField(from: afterName + 1, open: 0x28, close: 0x29, cursorMark: &cursorMark)
        else { return nil }
        // A mention is whole characters: a Prepend character before the trigger (U+0600) or
        // a combining mark after `)` would join it to the text beside it, and the cursor
        // could then stop inside it. Such markup is text, as the json reader refuses it.
        guard !joinedBefore, endsOnBoundary(name, before: afterID) else { return nil }
        if let cursorMark {
            failure = MarkupError(kind: .cursorInsideMention, column: column(of: cursorMark))
            return nil
        }
        let mention = Mention(trigger: Unicode.Scalar(input[start]), id: id, name: name, start: length, nameScalars: nameScalars)
        return (mention, afterID)
    }

    /// Whether the text `name` followed by the markup from `next` on has a character
    /// boundary after `name` (what follows `)` is what the decoded text has after it).
    private func endsOnBoundary(_ name: String, before next: Int) -> Bool {
        guard next < input.count else { return true }
        var joined = Array(name.utf8)
        let nameEnd = joined.count
        joined.append(contentsOf: input[next ..< min(input.count, next + 4 * UTF8GraphemeBoundary.window)])
        return joined.withUnsafeBufferPointer { UTF8GraphemeBoundary.isBoundary($0, at: nameEnd) }
    }

    /// Reads a name or id from `from` up to its unescaped `close`; returns the field, its
    /// length in scalars and the index after `close`, or nil when the field is empty, unclosed, too long, or
    /// holds an unescaped `open` (which reads better as the start of something else: in
    /// `@[a @[b](c)` the mention is `@b`).
    private func readField(from: Int, open: UInt8, close: UInt8, cursorMark: inout Int?) -> (String, scalars: Int, next: Int)? {
        let limit = input.count
        // Most fields hold no escape and no bar: read those straight from the input.
        var end = from
        var scalars = 0
        while end < limit {
            let b = input[end]
            if b == close || b == open || b == Self.backslash || (marksCursor && b == Self.bar) { break }
            if !UTF8Scan.isContinuation(b) {
                scalars += 1
                if scalars > Self.longestField { return nil }
            }
            end += 1
        }
        if end < limit, input[end] == close {
            guard end > from else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: input[from ..< end]), as: UTF8.self), scalars, end + 1)
        }
        var field: [UInt8] = Array(input[from ..< end])
        var i = end
        while i < limit {
            let b = input[i]
            // The field's own scalars: an escape's backslash is not one of them.
            if !UTF8Scan.isContinuation(b), b != Self.backslash, !(marksCursor && b == Self.bar) {
                scalars += 1
                if scalars > Self.longestField { return nil }
            }
            if b == Self.backslash, i + 1 < input.count {
                let escaped = input[i + 1]
                if escaped == Self.backslash || escaped == open || escaped == close || (marksCursor && escaped == Self.bar) {
                    field.append(escaped)
                    scalars += 1
                    if scalars > Self.longestField { return nil }
                    i += 2
                    continue
                }
                field.append(b)
                scalars += 1
            } else if b == close {
                guard !field.isEmpty else { return nil }
                let name = String(decoding: field, as: UTF8.self)
                return (name, name.unicodeScalars.count, i + 1)
            } else if b == open {
                return nil
            } else if marksCursor, b == Self.bar {
                // Remembered, not kept: only an error if this turns out to be a mention.
                if cursorMark == nil { cursorMark = i }
            } else {
                field.append(b)
            }
            i += 1
        }
        return nil
    }

    /// Whether the input at `index` is a backslash or a trigger followed by `[`: what makes
    /// the writer double a backslash before it.
    private func startsEscapeOrTrigger(at index: Int) -> Bool {
        guard index < input.count else { return false }
        let b = input[index]
        return b == Self.backslash || (Self.isTrigger(b) && index + 1 < input.count && input[index + 1] == 0x5B)
    }

    /// Keeps the escape `input[range]`, shown as `shown`, as a construct written back as it
    /// was, widened over the characters a grapheme cluster joins to it (a combining mark
    /// after it, a prepended letter before it), so that its edges are cluster boundaries.
    /// Returns where reading goes on, or nil (nothing read) when the widening would take in
    /// text that is not plain.
    private mutating func keep(_ range: Range<Int>, shown: [UInt8]) -> Int? {
        var lower = range.lowerBound, upper = range.upperBound
        while upper < input.count, !UTF8GraphemeBoundary.isBoundary(input, at: upper) {
            upper += 1
            while upper < input.count, UTF8Scan.isContinuation(input[upper]) { upper += 1 }
        }
        // Before it, only characters already copied as plain text (not part of a token).
        let plainFloor = lastTokenEndByte
        while lower > 0, !UTF8GraphemeBoundary.isBoundary(input, at: lower) {
            lower -= 1
            while lower > 0, UTF8Scan.isContinuation(input[lower]) { lower -= 1 }
            guard lower >= plainFloor, text.count >= range.lowerBound - lower,
                  text[(text.count - (range.lowerBound - lower))...].elementsEqual(input[lower ..< range.lowerBound])
            else { return nil }
        }
        guard upper <= input.count, input[range.upperBound ..< upper].allSatisfy({ $0 != Self.backslash && $0 != 0x5B })
        else { return nil }
        let before = Array(input[lower ..< range.lowerBound])
        let after = Array(input[range.upperBound ..< upper])
        // Take back the characters before it that were copied as plain text.
        let taken = before.reduce(0) { $0 + (UTF8Scan.isContinuation($1) ? 0 : 1) }
        text.removeLast(before.count)
        length -= taken
        let display = String(decoding: before + shown + after, as: UTF8.self)
        let source = String(decoding: input[lower ..< upper], as: UTF8.self)
        let m = Mention(kept: display, source: source, format: .atpad, start: length)
        mentions.append(m)
        text.append(contentsOf: before + shown + after)
        length = m.range.upperBound
        lastTokenEndByte = upper
        return upper
    }

    /// The mention's exact text in the file when the writer would spell it otherwise
    /// (`@[a\x](u)`, a name with an escape the writer would not write); nil when the
    /// writer gives the same bytes.
    private func sourceIfUnusual(of mention: Mention, from range: Range<Int>) -> TokenSource? {
        var canonical: [UInt8] = []
        AtpadMarkup.writeMention(mention, into: &canonical)
        if canonical.elementsEqual(input[range]) { return nil }
        return TokenSource(format: .atpad, text: String(decoding: input[range], as: UTF8.self))
    }

    private mutating func emit(_ byte: UInt8) {
        text.append(byte)
        length += 1
    }

    /// The 1-based character column of the byte at `index` (only computed for errors).
    private func column(of index: Int) -> Int {
        String(decoding: UnsafeBufferPointer(rebasing: input[..<index]), as: UTF8.self).count + 1
    }
}
