@testable import AtpadCore
import Testing

/// Setting the selection from a command (a find landing on a match, Alt-A).
@Suite struct SelectingTests {
    static func isCancel(_ effect: Effect) -> Bool {
        if case .cancel = effect { return true } else { return false }
    }

    @Test func selectSetsTheSelectionAndEndsTheTypingRun() throws {
        var h = try Harness("ab|cdef", config: EditorConfig(implicitThreshold: 0))
        try h.keys("xy")
        var effects = h.editor.select(Selection(anchor: 6, head: 1))
        #expect(h.editor.selection == Selection(anchor: 6, head: 1))
        effects = h.editor.select(.cursor(8))
        h.run(effects)
        try h.keys("z<C-z>")
        #expect(h.state == "abxycdef|")
    }

    @Test func selectEndsASearchAndKeepsAnEmptySelectionOutOfMentions() throws {
        var h = try Harness("@[John Doe](1) |")
        try h.keys("@jo")
        #expect(h.editor.search != nil)
        var effects = h.editor.select(.cursor(3))
        h.run(effects)
        #expect(h.editor.search == nil)
        #expect(h.state == "|@[John Doe](1) @jo")
        effects = h.editor.select(.cursor(7))
        h.run(effects)
        #expect(h.state == "@[John Doe](1)| @jo")
    }

    @Test func selectUnselectsASelectedMention() throws {
        var h = try Harness("@[John Doe](1)|")
        try h.keys("<BS>")
        #expect(h.editor.selectedMention != nil)
        _ = h.editor.select(.cursor(0))
        #expect(h.editor.selectedMention == nil)
    }

    @Test func selectAllSpansTheTextAndEndsASearch() throws {
        var h = try Harness("hi |")
        h.autoAnswer = false
        try h.keys("@")
        let effects = h.editor.selectAll()
        #expect(effects.contains(where: Self.isCancel))
        #expect(h.editor.search == nil)
        #expect(h.editor.selection == Selection(anchor: 0, head: 4))
        try h.keys("x")
        #expect(h.state == "x|")
    }

    /// An app command (Ctrl-F, Alt-A, F2, Ctrl-S) ends a search without dismissing it.
    @Test func endSearchForCommandCancelsWithoutDismissing() throws {
        var h = try Harness("hi |")
        h.autoAnswer = false
        try h.keys("@")
        let effects = h.editor.endSearchForCommand()
        #expect(effects.contains(where: Self.isCancel))
        #expect(h.editor.search == nil)
        #expect(!h.editor.dismissed)
        #expect(h.state == "hi @|")
        #expect(h.editor.endSearchForCommand().isEmpty)
    }
}
