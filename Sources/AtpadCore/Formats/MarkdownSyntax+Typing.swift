/// Typing a letter into a word of prose changes no Markdown: the parse of the text before
/// it, moved by the letter's bytes, is the parse of the text after it. A frame then needs
/// no parse for most keys (`MarkdownRunCache`); `MarkdownTypingPropertyTests` checks the
/// claim against cmark-gfm on the spec examples.
extension MarkdownSyntax {
    /// Where `new` is `old` with one letter or digit typed right after another letter or
    /// digit of a word that holds only letters and digits, on a line that starts with a
    /// letter or digit, in a piece without `[` or `]` (a link label may span lines, and a
    /// letter can make or break its match with a definition): the typed scalar's byte
    /// offset and length in `new`; nil for anything else.
    ///
    /// Such a letter adds to a text, code, HTML or table cell it joins, and can neither
    /// open nor close anything: every delimiter (`` ` * _ ~ < > & \ [ ] ( ) | : . @ ``
    /// and the line starts of blocks) would be in its word or at the start of its line.
    static func typedLetter(from old: [UInt8], to new: [UInt8]) -> (offset: Int, length: Int)? {
        let length = new.count - old.count
        guard (1 ... 4).contains(length) else { return nil }
        return new.withUnsafeBufferPointer { n in
            old.withUnsafeBufferPointer { o -> (offset: Int, length: Int)? in
                var b = 0
                while b < o.count, n[b] == o[b] { b += 1 }
                while b > 0, n[b] & 0xC0 == 0x80 { b -= 1 }  // the start of the scalar that differs
                guard b + length <= n.count else { return nil }
                for k in b ..< o.count where n[k + length] != o[k] { return nil }
                guard let typed = scalar(n, at: b), typed.length == length, isWordScalar(typed.scalar) else { return nil }
                // The character before it: a letter or digit of the same word.
                guard b > 0, let before = scalar(n, endingAt: b), isWordScalar(before) else { return nil }
                // The word around it: letters and digits only.
                var i = b
                while i > 0, !isBlank(n[i - 1]) {
                    guard let s = scalar(n, endingAt: i), isWordScalar(s.scalar) else { return nil }
                    i -= s.length
                }
                // The line starts with a letter or digit (no block marker, no indentation).
                var lineStart = i
                while lineStart > 0, n[lineStart - 1] != 0x0A, n[lineStart - 1] != 0x0D { lineStart -= 1 }
                guard let first = scalar(n, at: lineStart), isWordScalar(first.scalar) else { return nil }
                var j = b + length
                while j < n.count, !isBlank(n[j]) {
                    guard let s = scalar(n, at: j), isWordScalar(s.scalar) else { return nil }
                    j += s.length
                }
                guard !n.contains(UInt8(ascii: "[")), !n.contains(UInt8(ascii: "]")) else { return nil }
                return (b, length)
            }
        }
    }

    /// This parse moved for `length` bytes typed at byte `offset` after a letter
    /// (``typedLetter(from:to:)``): the typed bytes belong to whatever holds the letter
    /// before them.
    func typing(_ length: Int, at offset: Int) -> MarkdownSyntax {
        func moved(_ r: Range<Int>) -> Range<Int> {
            (r.lowerBound >= offset ? r.lowerBound + length : r.lowerBound) ..< (r.upperBound >= offset ? r.upperBound + length : r.upperBound)
        }
        var out = self
        out.spans = spans.map { Span(kind: $0.kind, range: moved($0.range)) }
        out.prose = prose.map(moved)
        out.blockStarts = blockStarts.map { $0 >= offset ? $0 + length : $0 }
        return out
    }

    private static func isBlank(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// A letter (upper, lower, title case or other) or a decimal digit: neither
    /// whitespace nor punctuation to Markdown, and no combining mark.
    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber: true
        default: false
        }
    }

    private static func isWordScalar(_ s: (scalar: Unicode.Scalar, length: Int)) -> Bool {
        isWordScalar(s.scalar)
    }

    /// The scalar starting at byte `i` of valid UTF-8 `bytes`, and its length.
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard i < bytes.count else { return nil }
        let lead = bytes[i]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard i + length <= bytes.count else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for k in 1 ..< length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    /// The scalar ending right before byte `i` of valid UTF-8 `bytes`, and its length.
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, endingAt i: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        var start = i - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0, let s = scalar(bytes, at: start), start + s.length == i else { return nil }
        return s
    }
}
