import AtpadCore
import Testing

/// Explicit searches (docs/keys.md, "Prompts and the chooser"): when they start, what the
/// query is, when they end.
@Suite struct TriggerTests {
    @Test func triggerAtStartOfTextStartsSearchWithEmptyQuery() throws {
        var h = try Harness()
        try h.keys("@")
        #expect(h.query == "")
        #expect(h.editor.search?.isOpen == true)
        #expect(h.chooserIDs.count == samplePeople.count)
    }

    @Test(arguments: ["hi |", "(|", "[|", "{|", "\"|", "'|", "a\n|", "«|", "“|"])
    func triggerAfterBoundaryStarts(_ start: String) throws {
        var h = try Harness(start)
        try h.keys("@jo")
        #expect(h.query == "jo")
    }

    @Test(arguments: ["ab|", "a.|", "x)|", "\\|"])
    func triggerAfterWordOrBackslashDoesNotStart(_ start: String) throws {
        var h = try Harness(start, config: EditorConfig(implicitThreshold: 0))
        try h.keys("@jo")
        #expect(h.editor.search == nil)
    }

    @Test func emailNeverStartsSearch() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("ab@c")
        #expect(h.editor.search == nil)
        #expect(h.queries.isEmpty)
    }

    @Test func queryExcludesTrigger() throws {
        var h = try Harness()
        try h.keys("@john")
        #expect(h.query == "john")
        #expect(h.queries == ["", "j", "jo", "joh", "john"])
    }

    @Test func triggerBeforeWordUsesThatWord() throws {
        var h = try Harness("hi |Joh")
        try h.keys("@")
        #expect(h.query == "Joh")
        #expect(h.editor.cursor == 4)
        try h.keys("<Enter>")
        #expect(h.state == "hi @[John Doe](1) |")
    }

    @Test func deletingSpaceAfterTriggerRestartsWithWord() throws {
        var h = try Harness("@ |John")
        try h.keys("<BS>")
        #expect(h.query == "John")
        #expect(h.editor.search?.kind == .explicit)
    }

    @Test func queryMayContainSpacesWhileResultsCome() throws {
        var h = try Harness()
        try h.keys("@Travis B")
        #expect(h.query == "Travis B")
        #expect(h.chooserIDs == ["5", "6"])
    }

    @Test func spaceRightAfterTriggerEnds() throws {
        var h = try Harness()
        try h.keys("@ ")
        #expect(h.editor.search == nil)
        #expect(h.state == "@ |")
    }

    @Test func spaceAfterEmptyResultsEnds() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("@zzz")
        #expect(h.editor.search?.items.isEmpty == true)
        #expect(h.editor.search?.isOpen == true)
        try h.keys(" ")
        #expect(h.editor.search == nil)
    }

    @Test func noMatchesKeepsFollowingTyping() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("@zz")
        try h.keys("z")
        #expect(h.query == "zzz")
        try h.keys("<BS><BS><BS>jo")
        #expect(h.query == "jo")
        #expect(!h.chooserIDs.isEmpty)
    }

    @Test func secondConsecutiveSpaceEnds() throws {
        var h = try Harness()
        try h.keys("@Travis ")
        #expect(h.query == "Travis ")
        try h.keys(" ")
        #expect(h.editor.search == nil)
    }

    @Test func newlineEndsWhenNothingToPick() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("@zz<Enter>")
        #expect(h.editor.search == nil)
        #expect(h.state == "@zz\n|")
    }

    @Test(arguments: ["<Left>", "<Right>", "<Home>", "<End>", "<C-a>", "<C-e>", "<M-b>", "<C-Left>"])
    func movingTheCursorEnds(_ key: String) throws {
        var h = try Harness("x |")
        try h.keys("@jo" + key)
        #expect(h.editor.search == nil)
    }

    @Test func backspacingOverTriggerEnds() throws {
        var h = try Harness()
        try h.keys("@j<BS>")
        #expect(h.query == "")
        try h.keys("<BS>")
        #expect(h.editor.search == nil)
        #expect(h.state == "|")
    }

    @Test func backspaceNarrowsBack() throws {
        var h = try Harness()
        try h.keys("@john<BS><BS>")
        #expect(h.query == "jo")
        #expect(h.chooserIDs == ["1", "3"])
    }

    @Test func escEndsAndSticks() throws {
        var h = try Harness()
        try h.keys("@jo<Esc>")
        #expect(h.editor.search == nil)
        try h.keys("hn")
        #expect(h.editor.search == nil, "no implicit search reopens before a separator")
        try h.keys(" bru")
        #expect(h.editor.search?.kind == .implicit, "a separator ends the dismissal")
    }

    @Test func escDismissalBlocksSpaceDeleteRestart() throws {
        var h = try Harness()
        try h.keys("@jo<Esc>")
        try h.keys("<BS><BS>")
        #expect(h.editor.search == nil)
    }

    @Test func ctrlSpaceInsertsTriggerAndStarts() throws {
        var h = try Harness("hi |")
        try h.keys("<C-Space>")
        #expect(h.state == "hi @|")
        #expect(h.query == "")
        try h.keys("<Esc>")
        try h.keys("<C-Space>")
        #expect(h.state == "hi @|", "the trigger already before the cursor is reused")
        #expect(h.query == "")
    }

    @Test func ctrlSpaceBeforeWordQueriesIt() throws {
        var h = try Harness("hi |Jane")
        try h.keys("<C-Space>")
        #expect(h.query == "Jane")
    }

    @Test func noSearchInInlineCode() throws {
        var h = try Harness("see `x |")
        try h.keys("@jo")
        #expect(h.editor.search == nil)
        var closed = try Harness("see `x` |")
        try closed.keys("@jo")
        #expect(closed.query == "jo")
    }

    @Test func noSearchInFencedBlock() throws {
        var h = try Harness("```\ncode |")
        try h.keys("@jo")
        #expect(h.editor.search == nil)
        var after = try Harness("```\ncode\n```\n|")
        try after.keys("@jo")
        #expect(after.query == "jo")
    }

    @Test func fullwidthAtActsAsAt() throws {
        var h = try Harness()
        try h.keys("＠jo")
        #expect(h.query == "jo")
        #expect(h.editor.search?.trigger == "@")
        try h.keys("<Enter>")
        #expect(h.state == "@[John Doe](1) |")
    }

    @Test func eachTriggerAsksItsOwnDirectory() throws {
        var h = try Harness(config: EditorConfig(triggers: ["@", "#"]))
        try h.keys("#ge")
        #expect(h.editor.search?.trigger == "#")
        let triggers = h.effects.compactMap { e -> Unicode.Scalar? in
            if case let .query(_, t, _) = e { return t } else { return nil }
        }
        #expect(triggers.allSatisfy { $0 == "#" })
    }

    @Test func unconfiguredTriggerIsPlainText() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("#ge")
        #expect(h.editor.search == nil)
    }
}
