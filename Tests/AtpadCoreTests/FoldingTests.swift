import AtpadTestSupport
import Testing
@testable import AtpadCore

@Suite struct FoldingTests {
    @Test(arguments: [
        ("é", "e"), ("É", "e"), ("ü", "u"), ("Ü", "u"), ("ç", "c"), ("Ç", "c"),
        ("ø", "o"), ("Ø", "o"), ("ł", "l"), ("Ł", "l"), ("ß", "ss"), ("ẞ", "ss"),
        ("æ", "ae"), ("Æ", "ae"), ("œ", "oe"), ("Œ", "oe"), ("đ", "d"), ("Đ", "d"),
        ("ð", "d"), ("Ð", "d"), ("þ", "th"), ("Þ", "th"), ("ı", "i"), ("İ", "i"),
        ("ñ", "n"), ("å", "a"), ("ǿ", "o"), ("ǣ", "ae"), ("ș", "s"), ("ế", "e"),
        ("ABC", "abc"), ("Ελένη", "ελενη"), ("ΣΟΦΟΣ", "σοφοσ"), ("Олена", "олена"),
    ])
    func foldsLetters(original: String, folded: String) {
        #expect(Folding.folded(original) == folded)
    }

    @Test func foldsWholeNames() {
        #expect(Folding.folded("Zoë Ørsted") == "zoe orsted")
        #expect(Folding.folded("Łukasz Wróbel") == "lukasz wrobel")
        #expect(Folding.folded("Björn Müller") == "bjorn muller")
        #expect(Folding.folded("Günther Strauß") == "gunther strauss")
        #expect(Folding.folded("Ævar Þórsson") == "aevar thorsson")
        #expect(Folding.folded("Nguyễn Văn An") == "nguyen van an")
    }

    @Test(arguments: ["王伟", "田中太郎", "김민준", "がぎぐ", "محمد العلي", "נועה לוי", "😀👍🏽"])
    func otherScriptsPassThrough(text: String) {
        #expect(Folding.folded(text) == text)
        #expect(Array(Folding.folded(text).unicodeScalars) == Array(text.unicodeScalars))
    }

    @Test func decomposedAccentsFoldLikePrecomposed() {
        #expect(Folding.folded("Jose\u{301}") == "jose")
        #expect(Folding.folded("Zoe\u{308}") == Folding.folded("Zoë"))
    }

    @Test func whitespaceIsTrimmedAndCollapsed() {
        #expect(Folding.folded("  John \t\n Doe  ") == "john doe")
        #expect(Folding.folded("王\u{3000}伟") == "王 伟")
        #expect(Folding.folded("   ") == "")
        #expect(Folding.folded("") == "")
    }

    @Test func shortcutsAgreeWithUnicodeProperties() {
        for value in UInt32(0) ... 0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Folding.isWhitespace(scalar) != scalar.properties.isWhitespace {
                Issue.record("whitespace differs at U+\(String(value, radix: 16))")
            }
            if Folding.isCaseless(value), scalar.properties.changesWhenLowercased {
                Issue.record("U+\(String(value, radix: 16)) has case")
            }
        }
    }

    @Test func unicodeHyphensBecomeHyphenMinus() {
        #expect(Folding.folded("Anne\u{2010}Marie") == "anne-marie")
    }

    @Test func originsPointBackToTheOriginalScalar() {
        let weiss = Folding.fold("Weiß")
        #expect(weiss.string == "weiss")
        #expect(weiss.origins == [0, 1, 2, 3, 3])

        let accent = Folding.fold("e\u{301}x")
        #expect(accent.string == "ex")
        #expect(accent.origins == [0, 2])

        let spaced = Folding.fold(" a  b ")
        #expect(spaced.string == "a b")
        #expect(spaced.origins == [1, 2, 4])
    }

    /// ASCII text is folded straight from its bytes; the scalar-by-scalar path (forced
    /// here by a trailing "é") must agree with it on every ASCII text.
    @Test func asciiFastPathAgreesWithTheGeneralPath() {
        var rng = SeededRandom(seed: 4242)
        let alphabet = Array("aZ m-\t\r\n09@_.  Q".unicodeScalars)
        for _ in 0 ..< 2000 {
            let length = Int.random(in: 0 ... 12, using: &rng)
            var text = ""
            for _ in 0 ..< length { text.unicodeScalars.append(alphabet.randomElement(using: &rng)!) }
            let fast = Folding.fold(text)
            var general = Folding.fold(text + "é")
            general.scalars.removeLast()
            general.origins.removeLast()
            if general.scalars.last == " " {
                general.scalars.removeLast()
                general.origins.removeLast()
            }
            #expect(fast == general, "\(text.debugDescription)")
        }
    }
}
