/// How the editor classifies characters: word characters, separators and punctuation.
///
/// One place for these rules, because triggers, implicit search, word motion and the
/// space-after-mention rule must agree on what a word is.
public enum CharacterClass {
    /// Letters, marks, digits and `_` make words; everything else separates them.
    public static func isWord(_ s: Unicode.Scalar) -> Bool {
        if s == "_" { return true }
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
        s.properties.isWhitespace
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
