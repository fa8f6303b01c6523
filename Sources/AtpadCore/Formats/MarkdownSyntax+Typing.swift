import Glibc

/// Typing a letter into a word of prose, or a space between two letters of one, changes
/// no Markdown: the parse of the text before it, moved by the typed bytes, is the parse of
/// the text after it. A frame then needs no parse for most keys (`MarkdownRunCache`);
/// `MarkdownTypingPropertyTests` checks the claim against cmark-gfm on the spec examples.
extension MarkdownSyntax {
    /// A scalar typed where it changes no Markdown: its byte offset and length in the new
    /// text, and whether it joins what holds the scalar after it (a letter starting a
    /// word) rather than the one before.
    struct Typed: Equatable {
        var offset: Int
        var length: Int
        var joinsNext = false
    }

    /// Where `new` is `old` with one scalar typed on a line that starts with a letter or
    /// digit, in a text without `[` or `]` (a link label may span lines, and a letter can
    /// make or break its match with a definition): a letter or digit typed right after
    /// another one, or between a single space and a word; or a space between two letters
    /// or digits — in words that hold only letters and digits. Nil for anything else.
    ///
    /// Such a key adds to a text, code, HTML or table cell it joins, and can neither open
    /// nor close anything: every delimiter (`` ` * _ ~ < > & \ [ ] ( ) | : . @ `` and the
    /// line starts of blocks) would be in its word or at the start of its line.
    static func typedInWord(from old: [UInt8], to new: [UInt8]) -> Typed? {
        let length = new.count - old.count
        guard (1 ... 4).contains(length) else { return nil }
        return new.withUnsafeBufferPointer { n in
            old.withUnsafeBufferPointer { o -> Typed? in
                var b = commonPrefix(n, o)
                while b > 0, UTF8Scan.isContinuation(n[b]) { b -= 1 }  // the start of the scalar that differs
                guard b > 0, b + length <= n.count,
                      memcmp(n.baseAddress! + b + length, o.baseAddress! + b, o.count - b) == 0 else { return nil }
                let typed = UTF8Scan.scalar(in: n, at: b)
                guard typed.length == length, let before = UTF8Scan.scalar(in: n, before: b) else { return nil }
                // The scalar at byte `k`, if the text goes on that far.
                func scalar(at k: Int) -> Unicode.Scalar? { k < n.count ? UTF8Scan.scalar(in: n, at: k).0 : nil }
                // What is typed, and where: a letter after a letter or between one space
                // and a word (it joins the word after it), or a space inside a word.
                var joinsNext = false
                if typed.0 == " " {
                    guard isWordScalar(before), let after = scalar(at: b + 1), isWordScalar(after) else { return nil }
                } else if !isWordScalar(before) {
                    guard isWordScalar(typed.0), before == " ", b >= 2, !isBlank(n[b - 2]),
                          let after = scalar(at: b + length), isWordScalar(after) else { return nil }
                    joinsNext = true
                } else {
                    guard isWordScalar(typed.0) else { return nil }
                }
                // The word or words around it: letters and digits only.
                var i = b
                while i > 0, !isBlank(n[i - 1]) {
                    guard let s = UTF8Scan.scalar(in: n, before: i), isWordScalar(s) else { return nil }
                    i -= UTF8.width(s)
                }
                var j = b + length
                while j < n.count, !isBlank(n[j]) {
                    let s = UTF8Scan.scalar(in: n, at: j)
                    guard isWordScalar(s.0) else { return nil }
                    j += s.length
                }
                // The line starts with a letter or digit (no block marker, no indentation).
                var lineStart = i
                while lineStart > 0, n[lineStart - 1] != 0x0A, n[lineStart - 1] != 0x0D { lineStart -= 1 }
                guard lineStart < b, let first = scalar(at: lineStart), isWordScalar(first) else { return nil }
                guard memchr(n.baseAddress!, 0x5B, n.count) == nil, memchr(n.baseAddress!, 0x5D, n.count) == nil else { return nil }
                return Typed(offset: b, length: length, joinsNext: joinsNext)
            }
        }
    }

    /// This parse moved for a scalar typed where it changes no Markdown
    /// (``typedInWord(from:to:)``): the typed bytes belong to whatever holds the scalar
    /// before them, or the one after them when they start a word.
    func typing(_ typed: Typed) -> MarkdownSyntax {
        let (offset, length) = (typed.offset, typed.length)
        // A bound at the typed place stays put when the typed bytes join what follows it.
        func moved(_ bound: Int) -> Int {
            bound > offset || bound == offset && !typed.joinsNext ? bound + length : bound
        }
        var out = self
        out.spans = spans.map { Span(kind: $0.kind, range: moved($0.range.lowerBound) ..< moved($0.range.upperBound)) }
        out.prose = prose.map { moved($0.lowerBound) ..< moved($0.upperBound) }
        out.blockStarts = blockStarts.map(moved)
        return out
    }

    private static func isBlank(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// How many bytes `a` and `b` (at least as long) start with alike.
    private static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        while i < b.count, a[i] == b[i] { i += 1 }
        return i
    }

    /// A letter (upper, lower, title case or other) or a decimal digit: neither
    /// whitespace nor punctuation to Markdown, and no combining mark.
    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber: return true
        default: return false
        }
    }
}
