import AtpadCore
import Testing

/// Chooser keys and picking (docs/keys.md, "Prompts and the chooser").
@Suite struct PickTests {
    @Test func enterPicksWithTrailingSpace() throws {
        #expect(try edit("hi |", "@jo<Enter>") == "hi @[John Doe](1) |")
    }

    @Test func tabPicks() throws {
        #expect(try edit("|", "@ja<Tab>") == "@[Jane Roe](2) |")
    }

    @Test func noSpaceBeforeClosingPunctuation() throws {
        #expect(try edit("(|)", "@jo<Enter>") == "(@[John Doe](1)|)")
        #expect(try edit("|.", "@jo<Enter>") == "@[John Doe](1)|.")
    }

    @Test func existingSpaceIsReusedAndStepped() throws {
        #expect(try edit("| and more", "@jo<Enter>") == "@[John Doe](1) |and more")
    }

    @Test func aSpaceBeforeANewlineToo() throws {
        // Issue 22: the next word typed must not glue to the mention (`@jsnowfor`).
        #expect(try edit("|\nnext", "@jo<Enter>") == "@[John Doe](1) |\nnext")
        #expect(try edit("Thanks |\n# git's template", "@jo<Enter>for the fix")
            == "Thanks @[John Doe](1) for the fix|\n# git's template")
        #expect(try edit("|\r\nnext", "@jo<Enter>") == "@[John Doe](1) |\r\nnext")
    }

    @Test func enterRightAfterAPickTakesItsSpace() throws {
        #expect(try edit("hi |", "@jo<Enter><Enter>") == "hi @[John Doe](1)\n|")
        #expect(try edit("|\nnext", "@jo<Enter><Enter>") == "@[John Doe](1)\n|\nnext")
        // Undo brings the space back; the pick is a step of its own before it.
        #expect(try edit("hi |", "@jo<Enter><Enter><C-z>") == "hi @[John Doe](1) |")
        #expect(try edit("hi |", "@jo<Enter><Enter><C-z><C-z>") == "hi @jo|")
        // Only the very next key.
        #expect(try edit("hi |", "@jo<Enter>x<Enter>") == "hi @[John Doe](1) x\n|")
    }

    @Test func aSpaceRightAfterAPickIsTheOneItAdded() throws {
        #expect(try edit("hi |", "@jo<Enter> and") == "hi @[John Doe](1) and|")
        #expect(try edit("hi |", "@jo<Enter>  and") == "hi @[John Doe](1)  and|")
        #expect(try edit("hi |\n", "@jo<Enter> x") == "hi @[John Doe](1) x|\n")
    }

    @Test func closingEmphasisTakesTheSpace() throws {
        #expect(try edit("**|", "@jo<Enter>**") == "**@[John Doe](1)**|")
        #expect(try edit("_|", "@jo<Enter>_ x") == "_@[John Doe](1)_ x|")
        #expect(try edit("~~|", "@jo<Enter>~~") == "~~@[John Doe](1)~~|")
    }

    @Test func closingPunctuationTakesTheSpaceBeforeALineBreakToo() throws {
        #expect(try edit("(|\nx", "@jo<Enter>)") == "(@[John Doe](1))|\nx")
    }

    @Test func pickReplacesRestOfWord() throws {
        var h = try Harness("hi |Joh and")
        try h.keys("@<Enter>")
        #expect(h.state == "hi @[John Doe](1) |and")
    }

    @Test func arrowsAndCtrlNPMoveSelection() throws {
        var h = try Harness()
        try h.keys("@jo<Down>")
        #expect(h.editor.search?.selected == 1)
        try h.keys("<Down><Down>")
        #expect(h.editor.search?.selected == 1, "clamped at the last row")
        try h.keys("<C-p>")
        #expect(h.editor.search?.selected == 0)
        try h.keys("<C-n><Enter>")
        #expect(h.state == "@[Johanna Lee](3) |")
    }

    @Test func pageKeysMoveByChooserRows() throws {
        var h = try Harness(config: EditorConfig(chooserRows: 3))
        try h.keys("@<PgDn>")
        #expect(h.editor.search?.selected == 3)
        #expect(h.editor.search?.scrollTop == 1)
        try h.keys("<PgUp>")
        #expect(h.editor.search?.selected == 0)
    }

    @Test func altDigitPicksVisibleRow() throws {
        #expect(try edit("|", "@<M-2>") == "@[Jane Roe](2) |")
        var h = try Harness(config: EditorConfig(chooserRows: 3))
        try h.keys("@<PgDn><M-1>")
        #expect(h.state == "@[Jane Roe](2) |", "row 1 of the scrolled list is item 2")
    }

    @Test func escDismissesChooser() throws {
        var h = try Harness()
        try h.keys("@jo<Esc>")
        #expect(h.editor.search == nil)
        #expect(h.state == "@jo|")
    }

    @Test func pickEmitsPickedEffect() throws {
        var h = try Harness()
        try h.keys("@jo<Enter>")
        #expect(h.effects.contains(.picked(samplePeople[0], trigger: "@")))
    }

    @Test func cjkPick() throws {
        #expect(try edit("你好 |", "@王<Enter>") == "你好 @[王伟](7) |")
    }
}
