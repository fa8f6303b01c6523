/// How the editor classifies characters: word characters, separators and punctuation.
///
/// One place for these rules, because triggers, implicit search, word motion and the
/// space-after-mention rule must agree on what a word is.
public enum CharacterClass {
    /// Letters, marks, digits and `_` make words; everything else separates them.
    public static func isWord(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 {
            // ASCII, most of what is typed, without a search of Unicode's tables (cold
            // memory on every keystroke): letters, digits and `_`.
            return (v | 0x20 >= 0x61 && v | 0x20 <= 0x7A) || (v >= 0x30 && v <= 0x39) || v == 0x5F
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    public static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        return s.properties.isWhitespace
    }

    public static func isNewline(_ s: Unicode.Scalar) -> Bool {
        s == "\n" || s == "\r" || s == "\u{2028}" || s == "\u{2029}"
    }

    /// A space or tab: whitespace that is not a line break.
    public static func isBlank(_ s: Unicode.Scalar) -> Bool {
        isWhitespace(s) && !isNewline(s)
    }

    /// Characters after which an explicit search may start: `(`, `[`, `{`, quotes and
    /// other Unicode opening or initial punctuation.
    public static func isOpening(_ s: Unicode.Scalar) -> Bool {
        if s == "\"" || s == "'" { return true }
        switch s.properties.generalCategory {
        case .openPunctuation, .initialPunctuation: return true
        default: return false
        }
    }

    /// Markdown's emphasis marks, `*`, `_` and `~`: a run of them that itself follows the
    /// start, whitespace or opening punctuation opens like opening punctuation before a
    /// trigger (`**@jo`, `_@jo`, `~~@jo`), while `foo_@bar` stays an e-mail-like word.
    public static func isEmphasisMark(_ s: Unicode.Scalar) -> Bool {
        s == "*" || s == "_" || s == "~"
    }

    /// Characters before which a picked mention needs no space: closing and final
    /// punctuation, quotes, and sentence punctuation (`.` `,` `;` `:` `!` `?`).
    public static func isClosing(_ s: Unicode.Scalar) -> Bool {
        if "\"'.,;:!?".unicodeScalars.contains(s) { return true }
        switch s.properties.generalCategory {
        case .closePunctuation, .finalPunctuation: return true
        default: return false
        }
    }

    /// Fullwidth forms that act as a trigger (`＠` acts as `@`).
    public static func triggerEquivalent(_ s: Unicode.Scalar) -> Unicode.Scalar {
        s == "\u{FF20}" ? "@" : s
    }
}
