@testable import AtpadCore
import Testing

/// Transactions through the storage and the editor: a change of many edits applied at
/// once against the plain model edited one replacement at a time, and the undo history's
/// composed steps against the editor that made them.
@Suite struct TransactionPropertyTests {
    /// A random change of a text `length` scalars long: `count` edits in order, each
    /// replacing a short range (or none) with random text that may end in a mention.
    static func randomEdits(_ rng: inout SeededRandom, length: Int, count: Int, tag: Int)
        -> [(range: Range<Int>, text: String, mentions: [Mention])] {
        var edits: [(range: Range<Int>, text: String, mentions: [Mention])] = []
        var p = 0
        for k in 0..<count {
            let lower = p + rng.int(0..<max(1, length / max(count, 1)))
            guard lower <= length else { break }
            let upper = min(length, lower + rng.int(0..<4))
            var text = TextStoragePropertyTests.text(&rng, rng.int(0..<3))
            var mentions: [Mention] = []
            if rng.chance(0.3) {
                let m = Mention(trigger: "@", id: "n\(tag)-\(k)", name: "New \(k)", start: text.unicodeScalars.count)
                text += m.text
                mentions.append(m)
            }
            if upper == lower && text.isEmpty { continue }
            edits.append((lower ..< upper, text, mentions))
            // Edits never touch: a scalar stays between two.
            p = upper + 1
        }
        return edits
    }

    static func randomDocument(_ rng: inout SeededRandom) -> MarkedText {
        var doc = MarkedText()
        var count = 0
        for i in 0..<rng.int(0..<400) {
            if rng.chance(0.2) {
                let m = Mention(trigger: "@", id: "\(i)", name: "Person \(i)", start: count)
                doc.text += m.text
                count += m.range.count
                doc.mentions.append(m)
            }
            let piece = TextStoragePropertyTests.text(&rng, rng.int(1..<8))
            doc.text += piece
            count += piece.unicodeScalars.count
        }
        return doc
    }

    @Test(arguments: 0..<60)
    func manyEditsAtOnceAreOneByOne(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 7_368_787 &+ 2)
        let doc = Self.randomDocument(&rng)
        var storage = TextStorage(doc)
        var model = TextStoragePropertyTests.Model(scalars: Array(doc.text.unicodeScalars), mentions: doc.mentions)
        for round in 0..<6 {
            let count = rng.pick([1, 3, 8, 9, 20, 60])
            let edits = Self.randomEdits(&rng, length: model.scalars.count, count: count, tag: round)
            let changes = ChangeSet(length: model.scalars.count, replacing: edits.map { ($0.range, $0.text) })
            var added: [Mention] = []
            for (edit, e) in zip(changes.edits, edits) { added += e.mentions.map { $0.shifted(by: edit.start) } }

            // What the apply path does first: mentions an edit would cut turn plain.
            let cut = storage.mentionsCut(by: changes.edits)
            let expectedCut = model.mentions.filter { m in
                edits.contains { e in
                    e.range.isEmpty ? m.range.lowerBound < e.range.lowerBound && e.range.lowerBound < m.range.upperBound
                        : e.range.overlaps(m.range)
                            && (m.range.lowerBound < e.range.lowerBound || m.range.upperBound > e.range.upperBound)
                }
            }
            #expect(cut == expectedCut, "seed \(seed) round \(round): cut")
            for m in cut { storage.removeMention(at: m.range) }
            model.mentions.removeAll { cut.contains($0) }

            let deletedWhole = model.mentions.filter { m in edits.contains { !$0.range.isEmpty && $0.range.overlaps(m.range) } }
            let taken = storage.apply(changes.edits, adding: added)
            let removed = edits.map { String(String.UnicodeScalarView(model.scalars[$0.range])) }
            for e in edits.reversed() { model.replace(e.range, with: e.text, mentions: e.mentions) }

            #expect(taken.texts == removed, "seed \(seed) round \(round): removed texts")
            #expect(taken.mentions == deletedWhole, "seed \(seed) round \(round): removed mentions")
            guard storage.string == String(String.UnicodeScalarView(model.scalars)), storage.count == model.scalars.count,
                  storage.allMentions == model.mentions, storage.mentionCount == model.mentions.count else {
                Issue.record("seed \(seed) round \(round): \(edits.count) edits diverged from the model")
                return
            }
        }
    }

    /// The steps on the undo stack, composed, take the first document to the last one,
    /// and their inverses, composed the other way, take it back: text, mentions and all.
    @Test(arguments: 0..<60)
    func theHistoryComposes(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 2_750_159 &+ 9)
        let doc = EditorPropertyTests.randomDocument(&rng)
        let config = EditorConfig(implicitThreshold: rng.pick([0, 3]), trimMentions: rng.chance(0.5),
                                  width: rng.pick([8, 80]))
        let first = Editor(doc, cursor: rng.int(0..<(doc.text.unicodeScalars.count + 1)), config: config)
        var h = Harness(editor: first, people: nastyPeople)
        var script: [Key] = []
        for _ in 0..<150 {
            let key = EditorPropertyTests.randomKey(&rng)
            script.append(key)
            h.press(key)
        }
        let (forward, backward) = Self.composedSteps(h, from: first)
        #expect(forward, "seed \(seed): forward after \(script)")
        #expect(backward, "seed \(seed): backward after \(script)")
    }

    /// Composes every step of `h`'s undo stack both ways and checks them against the
    /// first and the last document.
    static func composedSteps(_ h: Harness, from first: Editor) -> (forward: Bool, backward: Bool) {
        let steps = h.editor.history.undoStack
        guard let head = steps.first, let last = steps.last else { return (true, true) }
        let forward = steps.dropFirst().reduce(head.forward) { $0.compose($1.forward) }
        let backward = steps.dropLast().reversed().reduce(last.inverse) { $0.compose($1.inverse) }
        var replayed = first
        replayed.apply(forward, undo: nil)
        var undone = h.editor
        undone.apply(backward, undo: nil)
        return (replayed.marked == h.editor.marked, undone.marked == first.marked)
    }

    /// A trim adds a mention over text it keeps: composed with what follows, the undo
    /// still removes the trimmed mention before it puts the whole one back.
    @Test func aTrimComposesWithWhatFollows() throws {
        var h = try Harness("hi @[John Doe](1)|", config: EditorConfig(trimMentions: true))
        let first = h.editor
        try h.keys("<BS><BS>")
        #expect(h.state == "hi @[John](1)|")
        try h.keys("<Left><Left><Left><Left><Left><Home>ok ")
        #expect(h.state == "ok |hi @[John](1)")
        #expect(Self.composedSteps(h, from: first) == (true, true))
        // The typing right after the mention turns it plain: composed, still one step.
        try h.keys("<End>")
        h.press(.char("\u{301}"))
        #expect(h.editor.mentions.isEmpty)
        #expect(Self.composedSteps(h, from: first) == (true, true))
    }
}

