/// A document as the output formats write it: runs of plain text (as UTF-8) and the
/// tokens between them, in order, in one pass over the text.
///
/// A token that breaks the document's invariants (out of order, overlapping, out of
/// range, a mention with an empty name or id, its text not equal to trigger + what it shows) is not
/// reported: its text is part of the plain run around it, so the text always survives and
/// only that token is lost — as in `AtpadMarkup.encode`. So is a kept construct of another
/// format: only the format that read it writes it as it was; the others write its text.
enum MentionRuns {
    /// Calls `plain` with each run of plain text (possibly empty) and `token` with each
    /// valid token `format` writes, alternating, in document order; the last call is
    /// `plain`, the only one whose `next` is nil. A mention `accept` refuses is plain text
    /// too (`accept` is not asked about tokens `format` writes from their source).
    static func forEach(
        in doc: MarkedText,
        format: DocumentFormat,
        accept: (Mention) -> Bool = { _ in true },
        plain: (_ run: UnsafeBufferPointer<UInt8>, _ next: Mention?) -> Void,
        token: (Mention) -> Void
    ) {
        var text = doc.text
        text.withUTF8 { bytes in
            var byte = 0, scalar = 0, runStart = 0
            for m in doc.mentions {
                guard m.range.lowerBound >= scalar, isWritten(m, by: format, accept: accept) else { continue }
                // Past the end: so are all later mentions of a well-ordered list.
                guard let b = UTF8Scan.advance(bytes, byte: &byte, scalar: &scalar, to: m.range.lowerBound),
                      b < bytes.count else { break }
                guard let end = end(of: m, in: bytes, at: b) else { continue }
                plain(UnsafeBufferPointer(rebasing: bytes[runStart ..< b]), m)
                token(m)
                runStart = end
                byte = end
                scalar = m.range.upperBound
            }
            plain(UnsafeBufferPointer(rebasing: bytes[runStart...]), nil)
        }
    }

    /// Whether `format` writes `m` as a token: from its source when `format` read it, else
    /// as a mention with a name and an id that `accept` takes.
    private static func isWritten(_ m: Mention, by format: DocumentFormat, accept: (Mention) -> Bool) -> Bool {
        if let source = m.source(in: format) { return !source.isEmpty }
        return !m.isKept && !m.name.isEmpty && !m.id.isEmpty && accept(m)
    }

    /// The capacity an encoder reserves for its output: the text, an eighth more for
    /// escapes, and `perMention` bytes for each mention's markup. Too little would cost a
    /// reallocation and a copy of a large output; unused capacity costs nothing (its pages
    /// are never touched).
    static func capacity(for doc: MarkedText, perMention: Int) -> Int {
        let text = doc.text.utf8.count
        return text + text / 8 + doc.mentions.count * perMention + 64
    }

    /// Where the mention's text ends when the bytes at `start` are its trigger and label or name and
    /// its range covers exactly them; nil otherwise.
    private static func end(of m: Mention, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var j = start
        var scalars = 0
        if m.trigger.isASCII {
            guard bytes[j] == UInt8(m.trigger.value) else { return nil }
            j += 1
        } else {
            for unit in String(Character(m.trigger)).utf8 {
                guard j < bytes.count, bytes[j] == unit else { return nil }
                j += 1
            }
        }
        for unit in m.shown.utf8 {
            guard j < bytes.count, bytes[j] == unit else { return nil }
            if !UTF8Scan.isContinuation(unit) { scalars += 1 }
            j += 1
        }
        return m.range.count == 1 + scalars ? j : nil
    }
}
