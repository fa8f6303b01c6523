@testable import AtpadCore
import Testing

/// The modified mark (docs/keys.md) follows the document through undo and redo; replacing the
/// whole document (a recovered draft, a reload) is one undoable step.
@Suite struct ModifiedTests {
    let plain = EditorConfig(implicitThreshold: 0)

    @Test func undoingBackToTheSavedTextIsUnmodified() throws {
        var h = try Harness(config: plain)
        try h.keys("hello ")
        h.editor.markSaved()
        #expect(!h.editor.isModified)
        try h.keys("world")
        #expect(h.editor.isModified)
        try h.keys("<C-z>")
        #expect(h.state == "hello |")
        #expect(!h.editor.isModified)
        try h.keys("<C-y>")
        #expect(h.editor.isModified)
        try h.keys("<C-z>")
        #expect(!h.editor.isModified)
    }

    /// Typing right after a save starts a new step, so undo stops at the saved text.
    @Test func savingEndsTheTypingStep() throws {
        var h = try Harness(config: plain)
        try h.keys("hel")
        h.editor.markSaved()
        try h.keys("lo")
        try h.keys("<C-z>")
        #expect(h.state == "hel|")
        #expect(!h.editor.isModified)
    }

    @Test func undoingPastTheSaveIsModifiedAndRedoReturns() throws {
        var h = try Harness("a|", config: plain)
        try h.keys("<BS>x")
        h.editor.markSaved()
        try h.keys("<C-z>")
        #expect(h.state == "|")
        #expect(h.editor.isModified)
        try h.keys("<C-y>")
        #expect(h.state == "x|")
        #expect(!h.editor.isModified)
    }

    /// After undoing past the save, a new edit drops the redo steps: the saved state can
    /// never come back, whatever is undone or typed.
    @Test func aNewEditAfterUndoingPastTheSaveNeverReturnsToUnmodified() throws {
        var h = try Harness(config: plain)
        try h.keys("ab")
        h.editor.markSaved()
        try h.keys("<C-z>y")
        #expect(h.editor.isModified)
        try h.keys("<C-z>")
        #expect(h.editor.isModified)
        try h.keys("<C-y>")
        #expect(h.editor.isModified)
        try h.keys("<C-z><BS>ab")
        #expect(h.editor.text == "ab")
        #expect(h.editor.isModified)
    }

    @Test func aFreshEditorIsUnmodifiedAndUndoingEverythingKeepsItSo() throws {
        var h = try Harness("start|", config: plain)
        #expect(!h.editor.isModified)
        try h.keys(" more<C-Left><C-w>")
        #expect(h.editor.isModified)
        h.editor.undoAll()
        #expect(h.state == "start|")
        #expect(!h.editor.isModified)
    }

    @Test func replaceDocumentIsOneUndoableModifiedStep() throws {
        var h = try Harness("hi @[John Doe](1)|")
        h.editor.replaceDocument(with: MarkedText(text: "draft text"))
        #expect(h.state == "|draft text")
        #expect(h.editor.isModified)
        try h.keys("<C-z>")
        #expect(h.state == "hi @[John Doe](1)|")
        #expect(!h.editor.isModified)
    }

    /// A reload from disk is saved text; undo goes back to what was there before it.
    @Test func reloadIsOneUndoableStepThatIsSaved() throws {
        var h = try Harness("old|", config: plain)
        try h.keys(" edit")
        h.editor.reload(AtpadMarkup.decode("new text @[Jane Roe](2)"))
        #expect(h.state == "new text| @[Jane Roe](2)")
        #expect(!h.editor.isModified)
        try h.keys("<C-z>")
        #expect(h.state == "old edit|")
        #expect(h.editor.isModified)
        try h.keys("<C-y>")
        #expect(!h.editor.isModified)
        try h.keys("!")
        #expect(h.editor.isModified)
    }

    @Test func reloadKeepsTheCursorWhereTheTextReaches() throws {
        var h = try Harness("abc|def", config: plain)
        h.editor.reload(MarkedText(text: "xy"))
        #expect(h.state == "xy|")
        var k = try Harness("a|bc", config: plain)
        k.editor.reload(MarkedText(text: "xyz"))
        #expect(k.state == "x|yz")
    }
}
