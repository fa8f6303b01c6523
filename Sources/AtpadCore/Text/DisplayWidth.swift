/// The one width function: how many terminal columns a character takes.
///
/// Wide East Asian characters and emoji take 2, combining marks and other zero-width
/// scalars take 0 within their cluster, and control characters take the width of the
/// visible escape they are drawn as (`^[`, `^?`, `<U+0085>`). Tabs are laid out by the
/// caller (they depend on the column).
public enum DisplayWidth {
    /// The columns of one grapheme cluster (not a tab).
    public static func of(_ ch: Character) -> Int {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if let escape = escape(for: first) { return escape.count }
        var width = of(first)
        if scalars.count > 1 {
            for s in scalars.dropFirst() {
                // Emoji presentation selector, joiners and modifiers make a 2-column emoji.
                if s == "\u{FE0F}" || s == "\u{200D}" || s.properties.isEmojiModifier
                    || (0x1F1E6...0x1F1FF).contains(s.value) {
                    width = 2
                }
            }
            if width == 0 { width = scalars.map(of).max() ?? 0 }
        }
        return width
    }

    /// The columns of a string laid out from column 0 (tabs not expanded).
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns of one scalar on its own.
    public static func of(_ s: Unicode.Scalar) -> Int {
        if let escape = escape(for: s) { return escape.count }
        let v = s.value
        if v < 0x300 { return 1 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }  // Hangul medial/final jamo, ZWSP
        if s.properties.isEmojiPresentation { return 2 }
        return isWide(v) ? 2 : 1
    }

    /// The visible escape a control character is drawn as, or nil for printable ones.
    public static func escape(for s: Unicode.Scalar) -> String? {
        let v = s.value
        if v < 0x20 { return "^" + String(Character(Unicode.Scalar(v + 0x40)!)) }
        if v == 0x7F { return "^?" }
        if (0x80..<0xA0).contains(v) {
            let hex = String(v, radix: 16, uppercase: true)
            return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        }
        return nil
    }

    /// East Asian Wide and Fullwidth ranges (the ones that matter for text people write).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F251,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var lo = 0
        var hi = wideRanges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let r = wideRanges[mid]
            if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }
}
