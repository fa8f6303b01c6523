@testable import AtpadCore
import Testing

/// Copy and cut (docs/keys.md) hand the app the text as shown, for the terminal's clipboard.
@Suite struct CopiedEffectTests {
    func copied(_ h: Harness) -> [String] {
        h.effects.compactMap { if case let .copied(text) = $0 { return text } else { return nil } }
    }

    @Test func copyReportsTheSelectionAsShown() throws {
        var h = try Harness("hi @[John Doe](1)|")
        try h.keys("<S-Left><S-Left><C-c>")
        #expect(copied(h) == [" @John Doe"])
        #expect(h.editor.clipboard == AtpadMarkup.decode(" @[John Doe](1)"))
    }

    @Test func copyingASelectedMentionReportsItsText() throws {
        var h = try Harness("hi @[John Doe](1)|")
        try h.keys("<BS><C-c>")
        #expect(copied(h) == ["@John Doe"])
        #expect(h.state == "hi @[John Doe](1)|")
    }

    @Test func cutReportsAndDeletesInOneStep() throws {
        var h = try Harness("hi @[John Doe](1)|")
        try h.keys("<S-Left><S-Left><C-x>")
        #expect(copied(h) == [" @John Doe"])
        #expect(h.state == "hi|")
        try h.keys("<C-z>")
        #expect(h.editor.text == "hi @John Doe")
        try h.keys("<C-End><C-v>")
        #expect(h.state == "hi @[John Doe](1) @[John Doe](1)|")
    }

    @Test func nothingSelectedCopiesNothing() throws {
        var h = try Harness("abc|")
        try h.keys("<C-c><C-x>")
        #expect(copied(h).isEmpty)
        #expect(h.state == "abc|")
    }
}
