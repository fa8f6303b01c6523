import AtpadCore
import Testing

/// Implicit searches (docs/keys.md, "Implicit search: when it speaks up"): after N word
/// characters, never stealing keys.
@Suite struct ImplicitSearchTests {
    @Test func startsAfterThreeWordCharacters() throws {
        var h = try Harness()
        try h.keys("jo")
        #expect(h.editor.search == nil)
        try h.keys("h")
        #expect(h.editor.search?.kind == .implicit)
        #expect(h.query == "joh")
        #expect(h.editor.search?.trigger == "@")
    }

    @Test func thresholdIsConfigurableAndZeroTurnsItOff() throws {
        var two = try Harness(config: EditorConfig(implicitThreshold: 2))
        try two.keys("jo")
        #expect(two.query == "jo")
        var off = try Harness(config: EditorConfig(implicitThreshold: 0))
        try off.keys("johnny")
        #expect(off.editor.search == nil)
    }

    @Test func chooserOpensOnlyWithResults() throws {
        var h = try Harness()
        try h.keys("xyz")
        #expect(h.editor.search != nil)
        #expect(h.editor.search?.isOpen == false)
        var j = try Harness()
        try j.keys("joh")
        #expect(j.editor.search?.isOpen == true)
    }

    @Test func enterInsertsNewlineWithoutNavigation() throws {
        var h = try Harness()
        try h.keys("joh<Enter>")
        #expect(h.state == "joh\n|")
        #expect(h.editor.search == nil)
    }

    @Test func arrowsMoveTheCursor() throws {
        var h = try Harness("line one\n|")
        try h.keys("joh<Up>")
        #expect(h.editor.search == nil)
        #expect(h.editor.cursor == 3)
    }

    @Test func tabPicks() throws {
        #expect(try edit("|", "joh<Tab>") == "@[John Doe](1) |")
    }

    @Test func tabWithoutResultsInsertsTab() throws {
        #expect(try edit("|", "xyz<Tab>") == "xyz\t|")
    }

    @Test func ctrlNMovesAndThenEnterPicks() throws {
        var h = try Harness()
        try h.keys("joh<C-n>")
        #expect(h.editor.search?.selected == 1)
        try h.keys("<Enter>")
        #expect(h.state == "@[Johanna Lee](3) |")
        var p = try Harness()
        try p.keys("joh<C-n><C-p><Enter>")
        #expect(p.state == "@[John Doe](1) |")
    }

    @Test func separatorEndsImplicitSearch() throws {
        var h = try Harness()
        try h.keys("joh ")
        #expect(h.editor.search == nil)
        try h.keys("ab,")
        #expect(h.editor.search == nil)
    }

    @Test func pickConsumesPrecedingMatchingWords() throws {
        #expect(try edit("|", "bruce wayn<Tab>") == "@[Bruce Wayne](4) |")
        #expect(try edit("I met |", "Bruce wayn<Tab>") == "I met @[Bruce Wayne](4) |")
        #expect(try edit("|", "travis bar<Tab>") == "@[Travis Barker](6) |")
    }

    @Test func pickKeepsNonMatchingPrecedingWords() throws {
        #expect(try edit("|", "hello wayn<Tab>") == "hello @[Bruce Wayne](4) |")
    }

    @Test func escDismissesUntilSeparator() throws {
        var h = try Harness()
        try h.keys("joh<Esc>n")
        #expect(h.editor.search == nil)
        try h.keys(" jan")
        #expect(h.query == "jan")
    }

    @Test func backspaceBelowThresholdEnds() throws {
        var h = try Harness()
        try h.keys("john<BS>")
        #expect(h.query == "joh")
        try h.keys("<BS>")
        #expect(h.editor.search == nil)
    }

    @Test func noImplicitSearchInCode() throws {
        var h = try Harness("`|")
        try h.keys("john")
        #expect(h.editor.search == nil)
    }

    @Test func explicitTriggerTakesOver() throws {
        var h = try Harness()
        try h.keys("joh @ja")
        #expect(h.editor.search?.kind == .explicit)
        #expect(h.query == "ja")
    }
}

@Suite("quiet word list")
struct QuietWordListTests {
    @Test func readsWordsSkippingCommentsBlanksAndLineEnds() {
        let words = QuietWords(list: "# a comment\n\nThe\r\n  hello \t\nwith\n#not-a-word\n")
        for quiet in ["the", "THE", "th", "t", "hello", "hel", "with", "wi"] { #expect(words.silences(quiet), "\(quiet)") }
        for loud in ["thex", "john", "hellos", "#not", "not-a-word", "a comment", ""] { #expect(!words.silences(loud), "\(loud)") }
    }
}
