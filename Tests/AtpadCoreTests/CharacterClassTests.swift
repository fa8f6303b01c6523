import Testing
@testable import AtpadCore

/// The ASCII fast paths of `CharacterClass` answer what Unicode's tables answer.
@Suite struct CharacterClassTests {
    @Test func asciiWordCharactersAreUnicodesLettersDigitsAndUnderscore() {
        for value in 0 ..< 0x80 {
            let s = Unicode.Scalar(UInt8(value))
            let category = s.properties.generalCategory
            let expected = s == "_" || [.uppercaseLetter, .lowercaseLetter, .decimalNumber].contains(category)
            #expect(CharacterClass.isWord(s) == expected, "U+\(String(value, radix: 16))")
        }
        #expect(CharacterClass.isWord("é") && CharacterClass.isWord("王") && !CharacterClass.isWord("—"))
    }

    @Test func asciiWhitespaceIsUnicodesWhiteSpace() {
        for value in 0 ..< 0x80 {
            let s = Unicode.Scalar(UInt8(value))
            #expect(CharacterClass.isWhitespace(s) == s.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
        #expect(CharacterClass.isWhitespace("\u{A0}") && CharacterClass.isWhitespace("\u{2028}"))
    }
}
