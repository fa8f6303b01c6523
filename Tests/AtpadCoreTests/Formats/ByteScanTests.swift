import Testing
@testable import AtpadCore

/// The byte-level helpers the formats rely on, checked against the standard library on
/// random text: a fast path that skips eight bytes at a time must agree with the slow one.
@Suite("byte scanning")
struct ByteScanTests {
    static let cases = 1500

    /// Random text mixing long ASCII stretches (so the eight-byte paths run) with
    /// multi-byte scalars at every alignment.
    static func text(_ rng: inout SeededRandom) -> String {
        let pieces = ["abcdefghij", "0123456789abcdef", " ", "é", "王", "👩‍💻", "e\u{301}", "\u{2028}", "\"", "\\", "\n", "x"]
        var s = ""
        for _ in 0 ..< rng.int(0 ..< 40) { s += rng.pick(pieces) }
        return s
    }

    @Test func advanceFindsEveryScalarOffset() {
        var rng = SeededRandom(seed: 0xB17E5)
        for _ in 0 ..< Self.cases {
            var text = Self.text(&rng)
            let scalars = Array(text.unicodeScalars)
            var expected: [Int] = [0]
            for s in scalars { expected.append(expected.last! + UTF8.width(s)) }
            text.withUTF8 { bytes in
                // From the start to each offset, and walking forward through all of them.
                var byte = 0, scalar = 0
                for target in 0 ... scalars.count {
                    var b = 0, s = 0
                    #expect(UTF8Scan.advance(bytes, byte: &b, scalar: &s, to: target) == expected[target])
                    #expect(UTF8Scan.advance(bytes, byte: &byte, scalar: &scalar, to: target) == expected[target])
                }
                var b = 0, s = 0
                #expect(UTF8Scan.advance(bytes, byte: &b, scalar: &s, to: scalars.count + 1) == nil)
                #expect(b == bytes.count && s == scalars.count)
            }
        }
    }

    @Test func jsonOffsetsMatchTheStringViews() throws {
        var rng = SeededRandom(seed: 0x0FF5E7)
        for _ in 0 ..< Self.cases {
            let text = Self.text(&rng) + "@Ann" + Self.text(&rng)
            let scalars = Array(text.unicodeScalars)
            let at = try #require(scalars.indices.last { scalars[$0] == "@" })
            let m = Mention(trigger: "@", id: "a", name: "Ann", start: at)
            let object = MentionJSON.object(m, in: text)
            let lower = text.unicodeScalars.index(text.startIndex, offsetBy: at)
            let upper = text.unicodeScalars.index(lower, offsetBy: 4)
            let utf16 = [text.utf16.distance(from: text.startIndex, to: lower), text.utf16.distance(from: text.startIndex, to: upper)]
            let utf8 = [text.utf8.distance(from: text.startIndex, to: lower), text.utf8.distance(from: text.startIndex, to: upper)]
            #expect(object.hasSuffix(#""utf16": [\#(utf16[0]), \#(utf16[1])], "utf8": [\#(utf8[0]), \#(utf8[1])]}"#), "\(String(reflecting: text))")
        }
    }

    @Test func quotingAgreesWithTheScalarRules() {
        var rng = SeededRandom(seed: 0x0E5C)
        for _ in 0 ..< Self.cases {
            let text = Self.text(&rng)
            var expected = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": expected += #"\""#
                case "\\": expected += #"\\"#
                case "\n": expected += #"\n"#
                case "\u{2028}": expected += #"\u2028"#
                default: expected.unicodeScalars.append(scalar)
                }
            }
            #expect(JSONText.quote(text) == expected + "\"")
        }
    }

    @Test func validationAgreesWithTheStandardLibrary() {
        var rng = SeededRandom(seed: 0x0BAD)
        let junk: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        for _ in 0 ..< Self.cases {
            var bytes = Array(Self.text(&rng).utf8)
            if rng.chance(0.7) {
                let at = rng.int(0 ..< bytes.count + 1)
                bytes.insert(contentsOf: rng.pick(junk), at: at)
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let bad = UTF8Validation.firstInvalidByte(in: bytes)
            #expect((bad == nil) == valid, "\(bytes)")
            if let bad {
                #expect(String(validating: bytes[..<bad], as: UTF8.self) != nil)
            }
        }
    }

    @Test func graphemeBoundariesMatchCharacters() {
        var rng = SeededRandom(seed: 0x6EA)
        for _ in 0 ..< Self.cases {
            var text = Self.text(&rng)
            var boundaries: Set<Int> = [0]
            var offset = 0
            for character in text {
                offset += character.utf8.count
                boundaries.insert(offset)
            }
            let count = text.utf8.count
            text.withUTF8 { bytes in
                for i in 0 ... count {
                    #expect(UTF8GraphemeBoundary.isBoundary(bytes, at: i) == boundaries.contains(i))
                }
            }
        }
    }
}
