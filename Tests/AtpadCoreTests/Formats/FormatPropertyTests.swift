import Testing
@testable import AtpadCore

/// Whether `doc` keeps every promise of a document: mentions in order, in range, not
/// overlapping, covering exactly trigger + name, and (unless `boundaries` is false) on
/// grapheme-cluster boundaries.
private func isValid(_ doc: MarkedText, boundaries checksBoundaries: Bool = true) -> Bool {
    let scalars = Array(doc.text.unicodeScalars)
    var boundaries: Set<Int> = [0]
    var offset = 0
    for character in doc.text {
        offset += character.unicodeScalars.count
        boundaries.insert(offset)
    }
    var end = 0
    for m in doc.mentions {
        // A kept construct shows its own text: one character is enough, and it has no id.
        guard m.range.lowerBound >= end, m.range.upperBound <= scalars.count, m.isKept || !m.name.isEmpty && !m.id.isEmpty,
              scalars[m.range].elementsEqual(m.text.unicodeScalars),
              !checksBoundaries || boundaries.contains(m.range.lowerBound) && boundaries.contains(m.range.upperBound)
        else { return false }
        end = m.range.upperBound
    }
    return true
}

/// Exact equality: scalar for scalar, stricter than String's canonical equivalence.
private func same(_ a: MarkedText, _ b: MarkedText) -> Bool {
    a == b && a.text.unicodeScalars.elementsEqual(b.text.unicodeScalars)
}

/// People and channels with hard names, and ids that Slack and Discord can carry (no
/// `<`, `>`, `|` or whitespace).
private let hardPeople: [Entity] = [
    Entity(id: "u1", name: "John Doe", handle: "jdoe"),
    Entity(id: "a](b)", name: "Zoë [x] Ørsted"),
    Entity(id: "\\", name: "王伟"),
    Entity(id: "1&2;", name: "👩‍💻 Dev <ops> & co"),
    Entity(id: "é", name: "Ab\u{301}c \\ d"),
    Entity(id: "r", name: "שלום עליכם"),
]
private let hardChannels: [Entity] = [Entity(id: "C1", name: "general"), Entity(id: "&lt;", name: "<#x>")]

@Suite("format properties")
struct FormatPropertyTests {
    static let baseSeed: UInt64 = 0xF0_2A75
    static let cases = 2000

    @Test(arguments: [DocumentFormat.atpad, .json])
    func losslessFormatsRoundTrip(format: DocumentFormat) throws {
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ UInt64(n)
            var gen = NastyDocuments(rng: SeededRandom(seed: seed))
            let doc = gen.document()
            // Both readers keep mentions on grapheme boundaries (a combining mark after a
            // mention's markup makes it text), so only such documents come back whole.
            guard isValid(doc) else { continue }
            let written = format.encode(doc)
            let read = try format.decode(written)
            guard same(read.document, doc), read.notes.isEmpty else {
                Issue.record("""
                    \(format) round trip failed, seed \(seed)
                      text:     \(String(reflecting: doc.text)) \(doc.mentions)
                      written:  \(String(reflecting: written))
                      read:     \(String(reflecting: read.document.text)) \(read.document.mentions) \(read.notes)
                    """)
                return
            }
        }
    }

    @Test(arguments: [DocumentFormat.slack, .discord])
    func chatFormatsRoundTripWithTheDirectory(format: DocumentFormat) throws {
        let directory = lookup(hardPeople, channels: hardChannels)
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ 0x1_0000 &+ UInt64(n)
            var gen = NastyDocuments(rng: SeededRandom(seed: seed))
            // Mentions of people with `@` and of channels with `#`, as the chat systems have.
            var doc = gen.document(entities: hardPeople, triggers: ["@"])
            if gen.rng.chance(0.5) {
                let channel = gen.document(entities: hardChannels, triggers: ["#"])
                let shift = doc.text.unicodeScalars.count
                doc.text += channel.text
                doc.mentions += channel.mentions.map { $0.shifted(by: shift) }
            }
            // A mention edge must be a boundary to begin with (a combining mark may follow).
            guard isValid(doc) else { continue }
            let written = format.encode(doc)
            let read = try format.decode(written, lookup: directory)
            guard same(read.document, doc), read.notes.isEmpty else {
                Issue.record("""
                    \(format) round trip failed, seed \(seed)
                      text:     \(String(reflecting: doc.text)) \(doc.mentions)
                      written:  \(String(reflecting: written))
                      read:     \(String(reflecting: read.document.text)) \(read.document.mentions) \(read.notes)
                    """)
                return
            }
        }
    }

    @Test(arguments: DocumentFormat.allCases.filter { $0 != .json && !$0.isOutputOnly })
    func decodingAnythingGivesAValidDocument(format: DocumentFormat) throws {
        let directory = lookup(hardPeople + formatPeople, channels: hardChannels)
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ 0x2_0000 &+ UInt64(n)
            var gen = NastyDocuments(rng: SeededRandom(seed: seed))
            // Raw input, and input that went through the encoder (so mention syntax shows up).
            let input = gen.rng.chance(0.5) ? gen.string(0 ..< 30) : format.encode(gen.document(entities: hardPeople), lookup: directory)
            let read = try format.decode(input, lookup: directory)
            // Markup is lenient on purpose (decode(encode(x)) == x for any document, see
            // MarkupPropertyTests); every other reader also checks grapheme boundaries.
            guard isValid(read.document, boundaries: format != .atpad) else {
                Issue.record("\(format), seed \(seed): \(String(reflecting: input)) read as \(read.document)")
                return
            }
        }
    }

    @Test func withoutMentionsOrHandlesTheMarkdownFormatsWriteTheTextAsShown() {
        for n in 0 ..< Self.cases {
            let seed = Self.baseSeed &+ 0x3_0000 &+ UInt64(n)
            var gen = NastyDocuments(rng: SeededRandom(seed: seed))
            let doc = gen.document()
            #expect(DocumentFormat.plain.encode(doc) == doc.text)
            // No entity has a handle: github writes every mention as shown.
            #expect(DocumentFormat.github.encode(doc) == doc.text)
            #expect(DocumentFormat.gitlab.encode(doc) == doc.text)
            #expect(DocumentFormat.mattermost.encode(doc) == doc.text)
            let text = MarkedText(text: doc.text)
            #expect(DocumentFormat.markdown.encode(text) == doc.text)
        }
    }
}
