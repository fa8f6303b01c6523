import Testing
@testable import AtpadCore


/// Random documents and markup over an alphabet chosen to break escaping: every trigger,
/// brackets, parentheses, backslashes, bars, whitespace, and multi-scalar characters.
private struct NastyText {
    /// Single pieces, plus a few ready-made sequences so that would-be mentions and escapes
    /// show up often in plain text too.
    static let pieces: [String] = [
        "@", "#", "$", "%", "+", "~", ":", "[", "]", "(", ")", "\\", "|", " ", "\n",
        "é", "e\u{301}", "\u{301}", "👩‍💻", "王", "שלום", "a", "b",
        "@[", "\\@[", "](", "\\\\", "@[x](y)", "#[a b](c)", "\\|",
    ]

    var rng: SeededRandom

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func string(pieces count: ClosedRange<Int>) -> String {
        var s = ""
        for _ in 0 ..< int(count) { s += Self.pieces.randomElement(using: &rng)! }
        return s
    }

    /// A document with random plain runs and random valid mentions between them.
    mutating func document() -> MarkedText {
        var text = ""
        var length = 0
        var mentions: [Mention] = []
        for _ in 0 ..< int(0 ... 5) {
            let plain = string(pieces: 0 ... 6)
            text += plain
            length += plain.unicodeScalars.count
            if int(0 ... 3) == 0 { continue }
            let trigger = AtpadMarkup.triggers.randomElement(using: &rng)!
            let m = Mention(trigger: trigger, id: string(pieces: 1 ... 4), name: string(pieces: 1 ... 4), start: length)
            mentions.append(m)
            text += m.text
            length += m.range.count
        }
        text += string(pieces: 0 ... 3)
        // A mention is whole characters (a combining mark after it would join it to the
        // text beside it); one the random text split stays in the document as plain text.
        let boundaries = Self.characterBoundaries(of: text)
        mentions.removeAll { !boundaries.contains($0.range.lowerBound) || !boundaries.contains($0.range.upperBound) }
        return MarkedText(text: text, mentions: mentions)
    }

    /// The scalar offsets at which `text` has a grapheme-cluster boundary.
    static func characterBoundaries(of text: String) -> Set<Int> {
        var offsets: Set<Int> = [0]
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            offsets.insert(offset)
        }
        return offsets
    }
}

/// Whether `doc`'s mentions are what every `MarkedText` promises.
private func isValid(_ doc: MarkedText) -> Bool {
    let scalars = Array(doc.text.unicodeScalars)
    let boundaries = NastyText.characterBoundaries(of: doc.text)
    var end = 0
    for m in doc.mentions {
        guard m.range.lowerBound >= end, m.range.upperBound <= scalars.count,
              !m.name.isEmpty, !m.id.isEmpty,
              scalars[m.range].elementsEqual(m.text.unicodeScalars),
              boundaries.contains(m.range.lowerBound), boundaries.contains(m.range.upperBound)
        else { return false }
        end = m.range.upperBound
    }
    return true
}

@Suite("AtpadMarkup properties")
struct MarkupPropertyTests {
    static let baseSeed: UInt64 = 0xA7BAD_2024
    static let cases = 3000

    @Test func decodeOfEncodeIsIdentity() {
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ UInt64(n)
            var gen = NastyText(rng: SeededRandom(seed: seed))
            let doc = gen.document()
            let markup = AtpadMarkup.encode(doc)
            let back = AtpadMarkup.decode(markup)
            // Scalar for scalar, stricter than String's canonical equivalence.
            let same = back == doc
                && back.text.unicodeScalars.elementsEqual(doc.text.unicodeScalars)
                && back.mentions.map(\.range) == doc.mentions.map(\.range)
            if !same {
                Issue.record("""
                    round trip failed, seed \(seed)
                      text:     \(String(reflecting: doc.text))
                      mentions: \(doc.mentions)
                      markup:   \(String(reflecting: markup))
                      decoded:  \(String(reflecting: back.text)) \(back.mentions)
                    """)
                return
            }
        }
    }

    @Test func decodingAnythingGivesAValidDocumentThatRoundTrips() {
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ 0x1_0000 &+ UInt64(n)
            var gen = NastyText(rng: SeededRandom(seed: seed))
            let markup = gen.string(pieces: 0 ... 24)
            let doc = AtpadMarkup.decode(markup)
            guard isValid(doc), AtpadMarkup.decode(AtpadMarkup.encode(doc)) == doc else {
                Issue.record("seed \(seed): markup \(String(reflecting: markup)) decoded to \(doc)")
                return
            }
        }
    }

    @Test func cursorDialectAgreesWithPlainDecodeWhenThereIsNoBar() throws {
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ 0x2_0000 &+ UInt64(n)
            var gen = NastyText(rng: SeededRandom(seed: seed))
            var markup = ""
            markup.unicodeScalars.append(contentsOf: gen.string(pieces: 0 ... 24).unicodeScalars.filter { $0 != "|" })
            let (doc, cursor) = try AtpadMarkup.decodeWithCursor(markup)
            guard doc == AtpadMarkup.decode(markup), cursor == nil else {
                Issue.record("seed \(seed): markup \(String(reflecting: markup))")
                return
            }
        }
    }
}
