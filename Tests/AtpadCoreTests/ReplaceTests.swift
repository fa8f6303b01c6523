@testable import AtpadCore
import Testing

/// SPEC §9 Replace: replacements are plain text through the apply path, and all those of
/// one prompt (one group token) are one undo step.
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

    @Test func replacingPartOfAMentionBleachesIt() throws {
        var h = try Harness("hi @[John Doe](1)|")
        let effects = h.editor.replace([9..<12], with: "Roe", group: 1).effects
        h.run(effects)
        #expect(h.state == "hi @John Roe|")
        try h.keys("<C-z>")
        #expect(h.editor.marked == AtpadMarkup.decode("hi @[John Doe](1)"))
    }

    @Test func replacingAWholeMentionRemovesIt() throws {
        var h = try Harness("|hi @[John Doe](1) x")
        let effects = h.editor.replace([3..<12], with: "Jo", group: 1).effects
        h.run(effects)
        #expect(h.state == "hi Jo| x")
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
