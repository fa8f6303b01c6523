@testable import AtpadCore
import Testing

/// Random key scripts on random Unicode text, checking after every key the invariants
/// the editor promises (docs/keys.md;
/// ARCHITECTURE.md, "The change value (`Sources/AtpadCore/Changes`)"), and that undoing
/// everything returns the first document.
@Suite struct EditorPropertyTests {
    static let keys: [Key] = [
        .backspace, .backspace, .delete, .left, .right, .up, .down, .home, .end, .shiftLeft, .shiftRight,
        .shiftUp, .shiftDown, .enter, .tab, .escape, .ctrl("z"), .ctrl("y"), .ctrl("w"), .alt("d"), .ctrl("k"),
        .ctrl("u"), .ctrl("c"), .ctrl("x"), .ctrl("v"), .ctrlSpace, .alt("b"), .alt("f"), .ctrlLeft, .ctrlRight,
        .pageDown, .pageUp, .ctrl("n"), .ctrl("p"), .alt("2"), .altBackspace, .ctrlHome, .ctrlEnd, .shiftHome,
    ]

    static func randomKey(_ rng: inout SeededRandom) -> Key {
        switch rng.int(0..<10) {
        case 0..<5:
            return .char(Character(rng.pick(nastyPieces)))
        case 5:
            var text = ""
            for _ in 0..<rng.int(0..<6) { text += rng.pick(nastyPieces) }
            if rng.chance(0.5) { text += "@[\(rng.pick(nastyPeople).name)](\(rng.int(0..<9)))" }
            return .paste(text)
        default:
            return rng.pick(keys)
        }
    }

    static func randomDocument(_ rng: inout SeededRandom) -> MarkedText {
        var doc = MarkedText()
        var count = 0
        for _ in 0..<rng.int(0..<25) {
            if rng.chance(0.15) {
                let e = rng.pick(nastyPeople)
                // Mentions go after a space so they start on a cluster boundary.
                doc.text += " "
                count += 1
                let m = Mention(trigger: rng.pick(["@", "#", "+"] as [Unicode.Scalar]), id: e.id, name: e.name, start: count)
                doc.text += m.text
                count += m.range.count
                doc.mentions.append(m)
                doc.text += " "
                count += 1
            } else {
                let piece = rng.pick(nastyPieces)
                doc.text += piece
                count += piece.unicodeScalars.count
            }
        }
        return doc
    }

    /// Checks every invariant; returns a description of the first broken one.
    static func broken(_ e: Editor) -> String? {
        let text = e.text
        let scalars = Array(text.unicodeScalars)
        var boundaries = Set([0])
        var offset = 0
        for ch in text {
            offset += ch.unicodeScalars.count
            boundaries.insert(offset)
        }
        if e.storage.count != scalars.count { return "storage count \(e.storage.count) != \(scalars.count)" }
        var last = 0
        for m in e.mentions {
            if m.range.lowerBound < last { return "mentions overlap or are unsorted at \(m.range)" }
            last = m.range.upperBound
            if m.range.upperBound > scalars.count { return "mention past the end" }
            if !boundaries.contains(m.range.lowerBound) || !boundaries.contains(m.range.upperBound) {
                return "mention \(m.range) not on grapheme boundaries"
            }
            let covered = String(String.UnicodeScalarView(scalars[m.range]))
            if covered != m.text { return "mention text \(m.text.debugDescription) != \(covered.debugDescription)" }
            // A kept construct (an escape a pasted file held) has no id: it names no one.
            if !m.isKept, m.name.isEmpty || m.id.isEmpty { return "empty mention" }
        }
        if !boundaries.contains(e.cursor) { return "cursor \(e.cursor) not on a boundary" }
        if e.selection.isEmpty, e.mentions.contains(where: { $0.range.lowerBound < e.cursor && e.cursor < $0.range.upperBound }) {
            return "cursor \(e.cursor) inside a mention"
        }
        let doc = e.marked
        // Markup read as a file is (keeping the spelling of what a paste held).
        if (try? DocumentFormat.atpad.decode(DocumentFormat.atpad.encode(doc)))?.document != doc {
            return "markup does not round-trip"
        }
        if let s = e.search, s.selected >= max(1, s.items.count) { return "chooser selection out of range" }
        return nil
    }

    @Test(arguments: 0..<60)
    func randomScriptsKeepInvariants(_ seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let doc = Self.randomDocument(&rng)
        let trim = rng.chance(0.5)
        var h = Harness(editor: Editor(doc, cursor: rng.int(0..<(doc.text.unicodeScalars.count + 1)),
                                      config: EditorConfig(triggers: ["@", "#"], implicitThreshold: rng.pick([0, 2, 3]),
                                                           trimMentions: trim, width: rng.pick([5, 12, 80]))),
                        people: nastyPeople)
        let first = h.editor.marked
        var script: [Key] = []
        for _ in 0..<150 {
            let key = Self.randomKey(&rng)
            script.append(key)
            h.press(key)
            if let problem = Self.broken(h.editor) {
                Issue.record("seed \(seed): \(problem) after \(script)")
                return
            }
        }
        h.editor.undoAll()
        #expect(h.editor.marked == first, "seed \(seed): undoing everything returns the first document")
    }
}

extension Harness {
    init(editor: Editor, people: [Entity]) {
        self.editor = editor
        self.answer = prefixAnswer(people)
    }
}

extension Editor {
    /// Undoes every step (for tests).
    mutating func undoAll() {
        while canUndo { _ = handle(.ctrl("z")) }
    }
}
