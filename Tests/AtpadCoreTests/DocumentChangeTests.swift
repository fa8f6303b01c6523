@testable import AtpadCore
import Testing

/// `Editor.change(since:)`: what it says was left alone really was, over random key
/// scripts, and it is as tight as a single keystroke allows.
@Suite struct DocumentChangeTests {
    /// The mentions of `doc` that lie within `range`, shifted by `-range.lowerBound`.
    static func mentions(_ doc: MarkedText, in range: Range<Int>) -> [Mention] {
        doc.mentions.filter { $0.range.lowerBound >= range.lowerBound && $0.range.upperBound <= range.upperBound }
            .map { $0.shifted(by: -range.lowerBound) }
    }

    /// Describes how `change` misstates the edit from `old` to `new`, or nil when it holds.
    static func misstated(_ change: DocumentChange, from old: MarkedText, to new: MarkedText) -> String? {
        let a = Array(old.text.unicodeScalars)
        let b = Array(new.text.unicodeScalars)
        guard change.oldCount == a.count, change.newCount == b.count else { return "counts" }
        guard change.prefix + change.suffix <= min(a.count, b.count) else { return "prefix and suffix overlap" }
        if a[..<change.prefix] != b[..<change.prefix] { return "prefix text differs" }
        if a[(a.count - change.suffix)...] != b[(b.count - change.suffix)...] { return "suffix text differs" }
        // A mention crossing into the changed span counts as changed, so compare the
        // mentions wholly inside each unchanged part, and that none crosses its edge
        // differently.
        let oldHead = mentions(old, in: 0 ..< change.prefix), newHead = mentions(new, in: 0 ..< change.prefix)
        if oldHead != newHead { return "mentions before the change differ" }
        let oldTail = mentions(old, in: change.oldTailStart ..< a.count)
        let newTail = mentions(new, in: change.newTailStart ..< b.count)
        if oldTail != newTail { return "mentions after the change differ" }
        return nil
    }

    @Test(arguments: 0..<40)
    func randomScriptsReportWhatTheyLeftAlone(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
        let doc = EditorPropertyTests.randomDocument(&rng)
        var h = Harness(editor: Editor(doc, cursor: rng.int(0..<(doc.text.unicodeScalars.count + 1)),
                                      config: EditorConfig(triggers: ["@", "#"], implicitThreshold: 2, width: 12)),
                        people: nastyPeople)
        var history: [(version: Int, doc: MarkedText)] = [(h.editor.version, h.editor.marked)]
        for step in 0..<120 {
            let key = EditorPropertyTests.randomKey(&rng)
            h.press(key)
            history.append((h.editor.version, h.editor.marked))
            // Every version still in the journal's reach, not only the last one.
            for (version, old) in history.suffix(ChangeJournal.depth) {
                guard let change = h.editor.change(since: version) else {
                    Issue.record("seed \(seed) step \(step): version \(version) of \(h.editor.version) forgotten")
                    return
                }
                if let problem = Self.misstated(change, from: old, to: h.editor.marked) {
                    Issue.record("seed \(seed) step \(step): \(problem) since \(version): \(change)")
                    return
                }
            }
        }
    }

    @Test func typingOneCharacterChangesOnlyItsPlace() throws {
        let (doc, cursor) = try AtpadMarkup.decodeWithCursor("ab|cd")
        var editor = Editor(doc, cursor: cursor)
        let before = editor.version
        _ = editor.handle(.char("x"))
        #expect(editor.change(since: before) == DocumentChange(prefix: 2, suffix: 2, oldCount: 4, newCount: 5))
        #expect(editor.change(since: editor.version) == .none(count: 5))
    }

    @Test func bleachingAMentionCountsAsAChange() throws {
        let (doc, cursor) = try AtpadMarkup.decodeWithCursor("hi @[John Doe](1)| ok")
        var editor = Editor(doc, cursor: cursor)
        let before = editor.version
        _ = editor.handle(.backspace)  // selects the mention: no change yet
        #expect(editor.change(since: before) == .none(count: editor.storage.count))
        _ = editor.handle(.backspace)  // deletes it
        let change = try #require(editor.change(since: before))
        #expect(change.prefix == 3 && change.suffix == 3)
    }

    @Test func versionsBeyondTheJournalAreForgotten() {
        var editor = Editor()
        let first = editor.version
        for _ in 0 ... ChangeJournal.depth { _ = editor.handle(.char("a")); _ = editor.handle(.char(" ")) }
        #expect(editor.change(since: first) == nil)
        #expect(editor.change(since: editor.version - 1) != nil)
    }
}
