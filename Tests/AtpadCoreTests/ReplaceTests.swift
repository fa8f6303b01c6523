@testable import AtpadCore
import Testing

/// Replace (docs/editor.md, "Find and replace"): replacements are plain text through the
/// apply path, all those of one prompt (one group token) are one undo step, and a match
/// that overlaps a mention or a kept construct is never replaced.
@Suite struct ReplaceTests {
    /// Replaces the first match of `query` as the prompt would, moving to it first.
    func replaceNext(_ h: inout Harness, _ query: String, with text: String, group: Int) {
        guard let range = h.editor.matches(of: query).first(where: { $0.lowerBound >= 0 }) else { return }
        var effects = h.editor.select(h.editor.matchSelection(range))
        h.run(effects)
        effects = h.editor.replace([range], with: text, group: group).effects
        h.run(effects)
    }

    @Test func theCursorEndsAfterTheReplacement() throws {
        var h = try Harness("|a cat and a cat")
        let effects = h.editor.replace([2..<5], with: "dog", group: 1).effects
        h.run(effects)
        #expect(h.state == "a dog| and a cat")
    }

    @Test func aGroupIsOneUndoStepWhateverSelectionsCameBetween() throws {
        var h = try Harness("a cat and a cat|")
        replaceNext(&h, "cat", with: "dog", group: 7)
        replaceNext(&h, "cat", with: "dog", group: 7)
        #expect(h.state == "a dog and a dog|")
        try h.keys("<C-z>")
        #expect(h.editor.text == "a cat and a cat")
        #expect(!h.editor.canUndo)
        try h.keys("<C-y>")
        #expect(h.state == "a dog and a dog|")
    }

    @Test func differentGroupsAreDifferentSteps() throws {
        var h = try Harness("a cat and a cat|")
        replaceNext(&h, "cat", with: "dog", group: 1)
        replaceNext(&h, "cat", with: "dog", group: 2)
        try h.keys("<C-z>")
        #expect(h.editor.text == "a dog and a cat")
    }

    /// Typing or an undo between two replacements closes the group.
    @Test func anotherEditClosesTheGroup() throws {
        var h = try Harness("a cat and a cat|")
        replaceNext(&h, "cat", with: "dog", group: 1)
        try h.keys("!")
        replaceNext(&h, "cat", with: "dog", group: 1)
        try h.keys("<C-z>")
        #expect(h.editor.text == "a dog! and a cat")
    }

    @Test func aMatchInsideAMentionIsNotReplaced() throws {
        var h = try Harness("hi @[John Doe](1)|")
        let effects = h.editor.replace([9..<12], with: "Roe", group: 1).effects
        h.run(effects)
        #expect(h.editor.marked == AtpadMarkup.decode("hi @[John Doe](1)"))
        #expect(!h.editor.canUndo)
    }

    @Test func aMatchCoveringAWholeMentionIsNotReplaced() throws {
        var h = try Harness("|hi @[John Doe](1) x")
        let effects = h.editor.replace([3..<12, 13..<14], with: "Jo", group: 1).effects
        h.run(effects)
        #expect(h.state == "hi @[John Doe](1) Jo|")
        try h.keys("<C-z>")
        #expect(h.editor.marked == AtpadMarkup.decode("hi @[John Doe](1) x"))
    }

    @Test func aReplacementIsPlainTextEvenWhenItLooksLikeMarkup() throws {
        var h = try Harness("|x")
        let effects = h.editor.replace([0..<1], with: "@[Jane Roe](2)", group: 1).effects
        h.run(effects)
        #expect(h.editor.mentions.isEmpty)
        #expect(h.editor.text == "@[Jane Roe](2)")
    }

    /// Replace all is one change: one Ctrl-Z brings back the text and the cursor; Ctrl-Y
    /// makes it again. The matches inside `@Cat Doe` and `@Tom Cat` are left as they are.
    @Test func replaceAllIsOneChangeAndOneUndoStep() throws {
        var start = "|"
        for i in 0..<30 { start += "cat @[Cat Doe](\(i)) @[Tom Cat](t\(i)) scatter\n" }
        var h = try Harness(start)
        try h.keys("<C-Home>")
        let before = h.editor.marked
        let matches = h.editor.matches(of: "cat")
        #expect(matches.count == 120)
        #expect(h.editor.outsideTokens(matches).skipped == 60)
        let (changes, effects) = h.editor.replace(matches, with: "dog", group: 1)
        h.run(effects)
        #expect(changes.edits.count == 60)
        #expect(h.editor.text.components(separatedBy: "dog").count == 61)
        #expect(h.editor.mentions == before.mentions)
        #expect(h.editor.cursor == changes.mapPos(matches.last!.upperBound, assoc: .after))
        let after = h.editor.marked
        #expect(h.editor.history.undoStack.count == 1)
        try h.keys("<C-z>")
        #expect(h.editor.marked == before)
        #expect(h.editor.cursor == 0)
        #expect(!h.editor.canUndo)
        try h.keys("<C-y>")
        #expect(h.editor.marked == after)
    }

    /// Matches that are whole mentions are all skipped: nothing changes, nothing to undo.
    @Test func replaceAllOverWholeMentionsChangesNothing() throws {
        var start = "|"
        for i in 0..<12 { start += "x @[Al](\(i)) y\n" }
        var h = try Harness(start)
        let before = h.editor.marked
        let (_, effects) = h.editor.replace(h.editor.matches(of: "@al"), with: "-", group: 1)
        h.run(effects)
        #expect(h.editor.marked == before)
        #expect(!h.editor.canUndo)
    }

    @Test func aReplaceGroupNeverMergesIntoTheSavedStep() throws {
        var h = try Harness("cat cat|")
        replaceNext(&h, "cat", with: "dog", group: 3)
        h.editor.markSaved()
        replaceNext(&h, "cat", with: "dog", group: 3)
        try h.keys("<C-z>")
        #expect(h.editor.text == "dog cat")
        #expect(!h.editor.isModified)
    }
}
