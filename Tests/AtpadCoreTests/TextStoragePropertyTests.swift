@testable import AtpadCore
import Testing

/// The chunked storage against a plain model (a scalar array and a mention list) over
/// random replacements large enough to split, merge and re-cut chunks.
@Suite struct TextStoragePropertyTests {
    struct Model {
        var scalars: [Unicode.Scalar]
        var mentions: [Mention]

        mutating func replace(_ r: Range<Int>, with text: String, mentions inserted: [Mention]) {
            let new = Array(text.unicodeScalars)
            let delta = new.count - r.count
            mentions = mentions.compactMap { m in
                let inside = r.isEmpty ? (m.range.lowerBound < r.lowerBound && r.lowerBound < m.range.upperBound) : m.range.overlaps(r)
                if inside { return nil }
                if m.range.lowerBound >= r.upperBound && !(r.isEmpty && m.range.lowerBound < r.lowerBound) {
                    return m.shifted(by: delta)
                }
                return m
            }
            mentions += inserted.map { $0.shifted(by: r.lowerBound) }
            mentions.sort { $0.range.lowerBound < $1.range.lowerBound }
            scalars.replaceSubrange(r, with: new)
        }
    }

    static func text(_ rng: inout SeededRandom, _ n: Int) -> String {
        var s = ""
        for _ in 0..<n { s += rng.pick(["a", "b", " ", "\n", "é", "王", "👩‍💻", "`"]) }
        return s
    }

    @Test(arguments: 0..<12)
    func matchesModel(_ seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) + 1000)
        let initial = Self.text(&rng, rng.int(0..<3000))
        var storage = TextStorage(MarkedText(text: initial))
        var model = Model(scalars: Array(initial.unicodeScalars), mentions: [])
        for step in 0..<300 {
            let n = model.scalars.count
            let a = rng.int(0..<(n + 1))
            let b = min(n, a + (rng.chance(0.1) ? rng.int(0..<2000) : rng.int(0..<4)))
            var insert = Self.text(&rng, rng.chance(0.1) ? rng.int(0..<1500) : rng.int(0..<3))
            var mentions: [Mention] = []
            if rng.chance(0.3) {
                // A mention, or now and then a kept construct (counted apart).
                let m = rng.chance(0.3)
                    ? Mention(kept: "<!here\(step)>", format: .slack, start: insert.unicodeScalars.count)
                    : Mention(trigger: "@", id: "x\(step)", name: "N \(step)", start: insert.unicodeScalars.count)
                insert += m.text
                mentions.append(m)
            }
            let removed = storage.replace(a..<b, with: insert, mentions: mentions)
            let expectedRemoved = String(String.UnicodeScalarView(model.scalars[a..<b]))
            #expect(removed.text == expectedRemoved, "seed \(seed) step \(step)")
            model.replace(a..<b, with: insert, mentions: mentions)
            if rng.chance(0.1), let m = model.mentions.randomElement(using: &rng) {
                storage.removeMention(at: m.range)
                model.mentions.removeAll { $0 == m }
            }
            guard storage.string == String(String.UnicodeScalarView(model.scalars)),
                  storage.allMentions == model.mentions, storage.count == model.scalars.count,
                  storage.mentionCount == model.mentions.count,
                  storage.keptCount == model.mentions.filter(\.isKept).count else {
                Issue.record("seed \(seed) step \(step): storage diverged from the model")
                return
            }
        }
        // Spot-check reads against the model.
        for _ in 0..<200 {
            let n = model.scalars.count
            let a = rng.int(0..<(n + 1))
            let b = min(n, a + rng.int(0..<50))
            #expect(storage.slice(a..<b) == String(String.UnicodeScalarView(model.scalars[a..<b])))
            #expect(storage.scalar(at: a) == (a < n ? model.scalars[a] : nil))
            let ls = model.scalars[..<a].lastIndex(of: "\n").map { $0 + 1 } ?? 0
            #expect(storage.lineStart(a) == ls)
            let le = model.scalars[a...].firstIndex(of: "\n") ?? n
            #expect(storage.lineEnd(a) == le)
            #expect(storage.backticks(before: a) == model.scalars[..<a].filter { $0 == "`" }.count)
            let line = model.scalars[..<a].filter { $0 == "\n" }.count
            #expect(storage.newlines(before: a) == line)
            #expect(storage.start(ofLine: line) == ls)
        }
        let lines = model.scalars.filter { $0 == "\n" }.count + 1
        #expect(storage.lineCount == lines)
        #expect(storage.start(ofLine: lines + 5) == storage.start(ofLine: lines - 1))
        #expect(storage.start(ofLine: -3) == 0)
        #expect(storage.chunks.allSatisfy { $0.scalars <= TextStorage.maxChunk * 3 })
    }

    @Test func largeDocumentIsChunked() {
        let text = String(repeating: "abcdefghij", count: 10_000)
        let storage = TextStorage(MarkedText(text: text))
        #expect(storage.chunks.count > 100)
        #expect(storage.string == text)
    }

    @Test func chunkBoundaryNeverInsideMention() {
        var doc = MarkedText()
        for i in 0..<2000 {
            let m = Mention(trigger: "@", id: "\(i)", name: "Person \(i)", start: doc.text.unicodeScalars.count)
            doc.text += m.text + " and "
            doc.mentions.append(m)
        }
        let storage = TextStorage(doc)
        #expect(storage.allMentions == doc.mentions)
        #expect(storage.chunks.count > 10)
    }
}

/// `distanceToNewline` against a plain scan.
@Suite struct DistanceToNewlineTests {
    @Test(arguments: 0..<20)
    func matchesPlainScan(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) + 5000)
        let text = TextStoragePropertyTests.text(&rng, rng.int(0..<4000))
        let storage = TextStorage(MarkedText(text: text))
        let scalars = Array(text.unicodeScalars)
        for _ in 0..<100 {
            let p = rng.int(0..<(scalars.count + 1))
            let limit = rng.int(1..<400)
            let plain = min(limit, (scalars[p...].firstIndex(of: "\n") ?? scalars.count) - p)
            #expect(storage.distanceToNewline(from: p, limit: limit) == plain, "seed \(seed) at \(p)")
        }
    }
}
