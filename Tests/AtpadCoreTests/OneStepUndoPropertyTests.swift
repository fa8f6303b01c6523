@testable import AtpadCore
import Testing

/// One change per command
/// (ARCHITECTURE.md, "The change value (`Sources/AtpadCore/Changes`)"): after any key that
/// changes the document, one Ctrl-Z gives back exactly the text, mentions and cursor from
/// before that key — unless typing coalescing merged the change into the step before it.
///
/// The coalescing rule, as this test holds the editor to it: a key's change is merged
/// into the previous undo step (the undo stack does not grow) only when nothing is
/// selected (no selection, no selected mention), the previous step ended with the cursor
/// where this key found it, and either
/// - the key types one character (a character, Enter, Tab, or the trigger Ctrl-Space
///   inserts), the previous step is typing, and the character does not start a word
///   right after a typed blank (`hello big` is the steps `hello ` and `big`); or
/// - the key deletes one grapheme (Backspace, Delete) and the previous step is deleting.
/// Motions, undo, redo, a save and every other command end the run (the editor knows
/// that; the test only sees the steps). Every other change is exactly one new step (the
/// stack grows by one), so undoing it alone must restore the state before the key. Undo
/// itself is not checked; a redo is checked like any change.
@Suite struct OneStepUndoPropertyTests {
    static let typed: [String] = ["j", "o", "h", "a", "b", " ", " ", "\n", "@", "@", "é", "e\u{301}", "👩‍💻", ".", "王"]

    static let commands: [Key] = [
        .backspace, .backspace, .delete, .shiftLeft, .shiftLeft, .shiftRight, .shiftUp, .shiftDown, .shiftHome,
        .shiftEnd, .ctrl("w"), .altBackspace, .alt("d"), .ctrl("k"), .ctrl("u"), .ctrl("x"), .ctrl("c"), .ctrl("v"),
        .ctrlSpace, .enter, .tab, .alt("1"), .alt("2"), .escape, .left, .right, .up, .down, .home, .end, .ctrlLeft,
        .ctrlRight, .ctrl("n"), .ctrl("p"), .ctrl("z"), .ctrl("y"), .ctrlHome, .ctrlEnd,
    ]

    static func randomKey(_ rng: inout SeededRandom) -> Key {
        switch rng.int(0..<20) {
        case 0..<9:
            return .char(Character(rng.pick(typed)))
        case 9:
            var text = ""
            for _ in 0..<rng.int(1..<5) { text += rng.pick(typed) }
            if rng.chance(0.4) { text += "@[\(rng.pick(samplePeople).name)](\(rng.int(1..<9)))" }
            return .paste(text)
        default:
            return rng.pick(commands)
        }
    }

    /// Whether the rule above allows `key` to merge into the step on top before it.
    static func mayCoalesce(_ key: Key, before: Editor) -> Bool {
        guard before.selection.isEmpty, before.selectedMention == nil,
              let last = before.history.undoStack.last, last.selectionAfter == before.selection else { return false }
        switch key {
        case let .char(c):
            let blank = c.unicodeScalars.first.map(CharacterClass.isWhitespace) ?? false
            return last.kind == .typing && !(last.endsWithBlank && !blank)
        case .enter, .tab:
            return last.kind == .typing
        case .ctrlSpace:
            return last.kind == .typing && !last.endsWithBlank
        case .backspace, .delete:
            return last.kind == .deleting
        default:
            return false
        }
    }

    @Test(arguments: 0..<80)
    func everyChangeUndoesInOneStep(_ seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
        let doc = EditorPropertyTests.randomDocument(&rng)
        let config = EditorConfig(implicitThreshold: rng.pick([0, 3]), trimMentions: rng.chance(0.5),
                                  width: rng.pick([8, 80]))
        var h = Harness(editor: Editor(doc, cursor: rng.int(0..<(doc.text.unicodeScalars.count + 1)), config: config),
                        people: samplePeople)
        var script: [Key] = []
        for _ in 0..<200 {
            let key = Self.randomKey(&rng)
            script.append(key)
            let before = h.editor
            h.press(key)
            guard h.editor.version != before.version else { continue }
            let depth = before.history.undoStack.count
            let now = h.editor.history.undoStack.count
            switch key {
            case .ctrl("z"):
                continue
            default:
                break
            }
            if now == depth {
                if !Self.mayCoalesce(key, before: before) {
                    Issue.record("seed \(seed): \(key) merged into the previous step after \(script)")
                    return
                }
                continue
            }
            guard now == depth + 1 else {
                Issue.record("seed \(seed): \(key) made \(now - depth) undo steps after \(script)")
                return
            }
            var undone = h.editor
            _ = undone.handle(.ctrl("z"))
            if undone.marked != before.marked || undone.cursor != before.cursor {
                Issue.record("""
                    seed \(seed): undoing \(key) gives \(Harness.render(undone)), \
                    not \(Harness.render(before)), after \(script)
                    """)
                return
            }
        }
    }

    /// The case that used to take two steps: typing over a selection.
    @Test func typingOverASelectionIsOneStep() throws {
        var h = try Harness("hello world|", config: EditorConfig(implicitThreshold: 0))
        try h.keys("<S-Left><S-Left><S-Left><S-Left><S-Left>X")
        #expect(h.state == "hello X|")
        try h.keys("<C-z>")
        #expect(h.state == "hello |world")
        #expect(h.editor.selection == Selection(anchor: 11, head: 6))
    }

    /// Typing over a selection starts a typing step the next characters join.
    @Test func typingAfterReplacingASelectionCoalesces() throws {
        var h = try Harness("hello world|", config: EditorConfig(implicitThreshold: 0))
        try h.keys("<S-Home>abc")
        #expect(h.state == "abc|")
        try h.keys("<C-z>")
        #expect(h.state == "|hello world")
    }

    @Test func ctrlSpaceOverASelectionIsOneStep() throws {
        var h = try Harness("say hello|")
        try h.keys("<S-Left><S-Left><S-Left><S-Left><S-Left><C-Space><Esc><C-z>")
        #expect(h.state == "say |hello")
    }

    @Test func pasteOverASelectionIsOneStep() throws {
        var h = try Harness("a @[John Doe](1) b|")
        try h.keys("<S-Left><S-Left>")
        h.press(.paste("x"))
        #expect(h.state == "a @[John Doe](1)x|")
        try h.keys("<C-z>")
        #expect(h.state == "a @[John Doe](1)| b")
    }
}
