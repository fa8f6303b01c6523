@testable import AtpadCore
import Testing

/// Mentions are atomic (docs/keys.md); select-then-delete; trimming; bleach; no growth.
@Suite struct MentionTests {
    let one = "hi @[John Doe](1)|"

    @Test func leftAndRightStepOverMention() throws {
        #expect(try edit(one, "<Left>") == "hi |@[John Doe](1)")
        #expect(try edit("hi |@[John Doe](1) x", "<Right>") == "hi @[John Doe](1)| x")
    }

    @Test func wordMotionTreatsMentionAsOneWord() throws {
        #expect(try edit("a @[John Doe](1) |", "<M-b>") == "a |@[John Doe](1) ")
        #expect(try edit("a| @[John Doe](1) b", "<M-f>") == "a @[John Doe](1)| b")
        #expect(try edit("a| @[John Doe](1) b", "<C-Right><C-Right>") == "a @[John Doe](1) b|")
    }

    @Test func shiftSelectionExtendsOverWholeMention() throws {
        var h = try Harness(one)
        try h.keys("<S-Left>")
        #expect(h.editor.selection.range == 3..<12)
        try h.keys("<S-Left>")
        #expect(h.editor.selection.range == 2..<12)
    }

    @Test func backspaceSelectsThenDeletes() throws {
        var h = try Harness(one)
        try h.keys("<BS>")
        #expect(h.state == one)
        #expect(h.editor.selectedMention?.id == "1")
        try h.keys("<BS>")
        #expect(h.state == "hi |")
        #expect(h.editor.selectedMention == nil)
    }

    @Test func trimmingFirstTrimsToFirstWord() throws {
        var h = try Harness(one, config: EditorConfig(trimMentions: true))
        try h.keys("<BS><BS>")
        #expect(h.state == "hi @[John](1)|")
        #expect(h.editor.selectedMention?.name == "John")
        try h.keys("<BS>")
        #expect(h.state == "hi |")
    }

    @Test func trimmingSingleWordDeletes() throws {
        #expect(try edit("@[王伟](7)|", "<BS><BS>", config: EditorConfig(trimMentions: true)) == "|")
    }

    @Test func deleteAtStartMirrorsWithoutTrimming() throws {
        var h = try Harness("hi |@[John Doe](1) x", config: EditorConfig(trimMentions: true))
        try h.keys("<Del>")
        #expect(h.editor.selectedMention?.id == "1")
        #expect(h.state == "hi |@[John Doe](1) x")
        try h.keys("<Del>")
        #expect(h.state == "hi | x")
    }

    @Test func anyOtherKeyUnselects() throws {
        var h = try Harness(one)
        try h.keys("<BS>x")
        #expect(h.editor.selectedMention == nil)
        #expect(h.state == "hi @[John Doe](1)x|")
        var e = try Harness(one)
        try e.keys("<BS><Esc>")
        #expect(e.editor.selectedMention == nil)
        #expect(e.state == one)
    }

    @Test func typingAtEdgesStaysOutside() throws {
        #expect(try edit(one, "s") == "hi @[John Doe](1)s|")
        #expect(try edit("hi |@[John Doe](1)", "x") == "hi x|@[John Doe](1)")
    }

    @Test func shiftSelectionOverMentionDeletesItWhole() throws {
        var h = try Harness("ab|@[John Doe](1)")
        try h.keys("<S-Right>")
        #expect(h.editor.selection.range == 2..<11)
        try h.keys("<BS>")
        #expect(h.state == "ab|")
    }

    @Test func editCoveringPartOfMentionBleaches() throws {
        var h = try Harness("ab @[John Doe](1) cd|")
        h.editor.apply(h.editor.replacing(1..<6, with: "X"))
        #expect(h.editor.text == "aXhn Doe cd")
        #expect(h.editor.mentions.isEmpty)
        h.editor.apply(h.editor.replacing(0..<0, with: "@["))
        #expect(h.editor.mentions.isEmpty)
    }

    @Test func insertionInsideMentionBleaches() throws {
        var h = try Harness("@[John Doe](1)|")
        h.editor.apply(h.editor.replacing(3..<3, with: "x"))
        #expect(h.editor.text == "@Joxhn Doe")
        #expect(h.editor.mentions.isEmpty)
    }

    @Test func joiningAClusterAcrossAMentionEdgeBleaches() throws {
        // A combining mark typed right after a mention would grow its last cluster.
        var h = try Harness("@[Jo](1)|")
        h.editor.apply(h.editor.replacing(3..<3, with: "\u{301}"))
        #expect(h.editor.mentions.isEmpty)
    }

    @Test func editCoveringWholeMentionRemovesIt() throws {
        var h = try Harness("x @[John Doe](1) y|")
        try h.keys("<S-Home><BS>")
        #expect(h.state == "|")
        #expect(h.editor.mentions.isEmpty)
    }

    @Test func wordDeletionDeletesWholeMention() throws {
        #expect(try edit("hi @[John Doe](1) |", "<C-w>") == "hi |")
        #expect(try edit("hi @[John Doe](1)|", "<M-BS>") == "hi |")
        #expect(try edit("hi |@[John Doe](1) x", "<M-d>") == "hi | x")
    }

    @Test func upDownNeverLandInsideMention() throws {
        // Column 8 falls inside the mention on the line above; the cursor snaps to an edge.
        var h = try Harness("a @[John Doe](1) b\nxxxxxxxx|")
        try h.keys("<Up>")
        let m = try #require(h.editor.mentions.first)
        #expect(h.editor.cursor == m.range.lowerBound || h.editor.cursor == m.range.upperBound)
        #expect(h.editor.cursor == m.range.upperBound, "column 8 is nearer the end")
    }

    @Test func moveCursorSnapsToNearerEdge() throws {
        var h = try Harness("a @[John Doe](1) b")
        h.editor.moveCursor(to: 4)
        #expect(h.editor.cursor == 2)
        h.editor.moveCursor(to: 10)
        #expect(h.editor.cursor == 11)
    }

    @Test func mentionListIsAvailable() throws {
        let h = try Harness("@[A](1) and #[b c](x)")
        #expect(h.editor.mentions.map(\.id) == ["1", "x"])
        #expect(h.editor.mentions[1].trigger == "#")
        #expect(h.editor.mentions[1].range == 7..<11)
    }
}

/// Undo and redo (docs/keys.md) restore text, mentions and cursor together.
@Suite struct UndoTests {
    @Test func pickIsOneStepBringingBackTypedQuery() throws {
        var h = try Harness("hi |")
        try h.keys("@jo<Enter><C-z>")
        #expect(h.state == "hi @jo|")
        #expect(h.editor.search == nil)
        try h.keys("<C-z>")
        #expect(h.state == "hi |")
    }

    @Test func redoRestoresPick() throws {
        var h = try Harness("hi |")
        try h.keys("@jo<Enter><C-z><C-y>")
        #expect(h.state == "hi @[John Doe](1) |")
    }

    @Test func typingCoalescesIntoWords() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("hello big world")
        try h.keys("<C-z>")
        #expect(h.state == "hello big |")
        try h.keys("<C-z>")
        #expect(h.state == "hello |")
        try h.keys("<C-z>")
        #expect(h.state == "|")
    }

    @Test func undoRestoresDeletedMention() throws {
        var h = try Harness("hi @[John Doe](1)|")
        try h.keys("<BS><BS><C-z>")
        #expect(h.state == "hi @[John Doe](1)|")
    }

    @Test func undoRestoresBleachedMention() throws {
        var h = try Harness("ab|@[John Doe](1)")
        try h.keys("<S-Left><S-Right><S-Right><BS>")
        try h.keys("<C-z>")
        #expect(h.editor.mentions.count == 1)
        #expect(h.editor.text == "ab@John Doe")
    }

    @Test func undoRestoresTrim() throws {
        var h = try Harness("@[John Doe](1)|", config: EditorConfig(trimMentions: true))
        try h.keys("<BS><BS><C-z>")
        #expect(h.state == "@[John Doe](1)|")
    }

    @Test func newEditClearsRedo() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("ab<C-z>x<C-y>")
        #expect(h.state == "x|")
    }

    @Test func motionBreaksTypingStep() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("ab<Left>c<C-z>")
        #expect(h.state == "a|b")
    }
}

/// The internal clipboard keeps mentions; pasted markup becomes mentions (docs/editor.md, "Paste").
@Suite struct ClipboardTests {
    @Test func copyPasteKeepsMentions() throws {
        var h = try Harness("hi @[John Doe](1)|")
        try h.keys("<S-Left><S-Left><S-Left><S-Left><C-c><End> <C-v>")
        #expect(h.state == "hi @[John Doe](1) hi @[John Doe](1)|")
    }

    @Test func cutRemovesAndPasteRestores() throws {
        var h = try Harness("a @[John Doe](1)|")
        try h.keys("<S-Left><C-x>")
        #expect(h.state == "a |")
        try h.keys("<C-v><C-v>")
        #expect(h.state == "a @[John Doe](1)@[John Doe](1)|")
    }

    @Test func copySelectedMention() throws {
        var h = try Harness("@[John Doe](1)|")
        try h.keys("<BS><C-c><End> <C-v>")
        #expect(h.state == "@[John Doe](1) @[John Doe](1)|")
    }

    @Test func bracketedPasteOfMarkupBecomesMentions() throws {
        var h = try Harness("x |")
        try h.keys("<Paste>see @[Jane Roe](2) now</Paste>")
        #expect(h.state == "x see @[Jane Roe](2) now|")
        #expect(h.editor.mentions.count == 1)
    }

    /// In atpad markup a paste is read as a file is: `\\\\` is one backslash shown, two
    /// written back (a kept construct), so saving gives the pasted bytes.
    @Test func plainPasteIsLiteralAndStartsNoSearch() throws {
        var h = try Harness()
        try h.keys("<Paste>mail @jo and C:\\\\dir abcdef</Paste>")
        #expect(h.editor.text == "mail @jo and C:\\dir abcdef")
        #expect(DocumentFormat.atpad.encode(h.editor.marked) == "mail @jo and C:\\\\dir abcdef")
        #expect(h.editor.search == nil)
        #expect(h.queries.isEmpty)
    }

    @Test func pasteIsOneUndoStep() throws {
        var h = try Harness("x |")
        try h.keys("<Paste>one two three</Paste><C-z>")
        #expect(h.state == "x |")
    }

    @Test func pasteIntoQueryQueriesOnce() throws {
        var h = try Harness()
        try h.keys("@<Paste>Travis</Paste>")
        #expect(h.query == "Travis")
        #expect(h.queries == ["", "Travis"])
    }
}
