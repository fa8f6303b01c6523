@testable import AtpadCore
import Testing

/// The space a pick adds is soft (docs/editor.md, docs/behaviour.md): the editor shows
/// it and the next word typed goes after it, but while it is still last on its line
/// (before a line break or at the end) it is not written — saving, `--print`, F2 and
/// posting write `Editor.writtenDocument`. A space typed right after a pick makes it the
/// person's.
@Suite struct SoftSpaceTests {
    /// The editor's markup with `|` at the cursor, and the document as written.
    func run(_ start: String, _ keys: String) throws -> (shown: String, written: String) {
        var h = try Harness(start)
        try h.keys(keys)
        return (h.state, AtpadMarkup.encode(h.editor.writtenDocument))
    }

    @Test func aPickAtTheEndLeavesNoTrailingSpace() throws {
        let r = try run("hi |", "@jo<Enter>")
        #expect(r.shown == "hi @[John Doe](1) |")
        #expect(r.written == "hi @[John Doe](1)")
    }

    @Test func aPickBeforeALineBreakLeavesNoTrailingSpace() throws {
        #expect(try run("hi |\nnext", "@jo<Enter>").written == "hi @[John Doe](1)\nnext")
        #expect(try run("a\r\nhi |\r\nb", "@jo<Enter>").written == "a\r\nhi @[John Doe](1)\r\nb")
    }

    @Test func movingAwayKeepsItSoft() throws {
        let r = try run("hi |\nnext", "@jo<Enter><Down><End>x")
        #expect(r.shown == "hi @[John Doe](1) \nnextx|")
        #expect(r.written == "hi @[John Doe](1)\nnextx")
    }

    @Test func textTypedAfterItWritesIt() throws {
        #expect(try run("hi |", "@jo<Enter>thanks").written == "hi @[John Doe](1) thanks")
        // Deleted again, the space is last on its line once more.
        #expect(try run("hi |", "@jo<Enter>x<BS>").written == "hi @[John Doe](1)")
    }

    @Test func aSpaceTypedRightAfterThePickIsThePersons() throws {
        let r = try run("hi |", "@jo<Enter> ")
        #expect(r.shown == "hi @[John Doe](1) |")
        #expect(r.written == "hi @[John Doe](1) ")
    }

    @Test func enterOrPunctuationRightAfterThePickTakeItsPlaceAsBefore() throws {
        #expect(try run("hi |", "@jo<Enter><Enter>").written == "hi @[John Doe](1)\n")
        #expect(try run("hi |", "@jo<Enter>!").written == "hi @[John Doe](1)!")
    }

    @Test func ctrlKLeavingItLastDropsIt() throws {
        let r = try run("hi |(there)", "@jo<Enter><C-k>")
        #expect(r.shown == "hi @[John Doe](1) |")
        #expect(r.written == "hi @[John Doe](1)")
    }

    @Test func twoPicksOnALine() throws {
        let r = try run("|", "@jo<Enter>@ja<Enter>")
        #expect(r.shown == "@[John Doe](1) @[Jane Roe](2) |")
        #expect(r.written == "@[John Doe](1) @[Jane Roe](2)")
    }

    @Test func spacesTheTextHadAreWritten() throws {
        #expect(try run("hi |", "x ").written == "hi x ")
        // A pick whose next character is a space adds none.
        #expect(try run("hi | \nb", "@jo<Enter>").written == "hi @[John Doe](1) \nb")
    }

    @Test func undoAndRedoBringItBackSoft() throws {
        let r = try run("hi |", "@jo<Enter><C-z><C-y>")
        #expect(r.shown == "hi @[John Doe](1) |")
        #expect(r.written == "hi @[John Doe](1)")
        var h = try Harness("hi |")
        try h.keys("@jo<Enter>x<C-z>")
        #expect(AtpadMarkup.encode(h.editor.writtenDocument) == "hi @[John Doe](1)")
        try h.keys("<C-y>")
        #expect(AtpadMarkup.encode(h.editor.writtenDocument) == "hi @[John Doe](1) x")
    }

    @Test func mentionsAfterARemovedSpaceMoveBack() throws {
        let r = try run("|\n@[Jane Roe](2) end", "@jo<Enter>")
        #expect(r.written == "@[John Doe](1)\n@[Jane Roe](2) end")
        var h = try Harness("|\n@[Jane Roe](2) end")
        try h.keys("@jo<Enter>")
        let written = h.editor.writtenDocument
        for m in written.mentions {
            let scalars = Array(written.text.unicodeScalars)[m.range]
            #expect(String(String.UnicodeScalarView(scalars)) == m.text)
        }
    }

    // MARK: - Property

    static let keys: [String] = [
        "a", "b", " ", ".", "@jo<Enter>", "@ja<Tab>", "@br<Enter>", "<Enter>", "<BS>", "<Del>", "<Left>", "<Right>",
        "<Up>", "<Down>", "<Home>", "<End>", "<C-k>", "<C-z>", "<C-y>", "<C-w>", "<Esc>", "<S-Left>", "x",
    ]

    /// Random scripts: the written text ends no line with a soft space; it is the
    /// editor's text less exactly the soft spaces last on their lines, every other byte
    /// (every other space) as it is, the mentions still on their text; scripts without a
    /// pick write the text as it is; undoing everything and redoing it all gives the same.
    @Test func theWrittenTextEndsNoLineWithASoftSpace() throws {
        var rng = SeededRandom(seed: 32_8)
        for round in 0 ..< 300 {
            var script = ""
            for _ in 0 ..< rng.int(1 ..< 30) { script += rng.pick(Self.keys) }
            let start = rng.pick(["|", "hi |", "a\n|\nb", "x|y", "a\r\n|\r\n"])
            var h = try Harness(start)
            try h.keys(script)
            let editor = h.editor
            let text = Array(editor.text.unicodeScalars)
            let written = editor.writtenDocument
            let gone = editor.trailingSoftSpaces
            #expect(Set(gone).isSubset(of: Set(editor.softSpaces)), "\(round): \(script)")
            for p in editor.softSpaces { #expect(text[p] == " ", "\(round): \(script)") }
            // Exactly those removed.
            var expected = text
            for p in gone.reversed() { expected.remove(at: p) }
            #expect(Array(written.text.unicodeScalars) == expected, "\(round): \(script)")
            // No soft space stays last on its line.
            for p in editor.softSpaces {
                var q = p + 1
                while q < text.count, text[q] == " ", editor.softSpaces.contains(q) { q += 1 }
                let last = q == text.count || text[q] == "\n" || (text[q] == "\r" && q + 1 < text.count && text[q + 1] == "\n")
                #expect(!last || gone.contains(p), "\(round): \(script) keeps the soft space at \(p)")
            }
            for m in written.mentions {
                let shown = String(String.UnicodeScalarView(Array(written.text.unicodeScalars)[m.range]))
                #expect(shown == m.text, "\(round): \(script)")
            }
            if !script.contains("<Enter>") && !script.contains("<Tab>") {
                #expect(written.text == editor.text, "\(round): \(script)")
            }
            // Undo every step, redo them all: the same text and the same written text.
            var again = h
            let steps = again.editor.history.undoStack.count
            for _ in 0 ..< steps { again.press(.ctrl("z")) }
            for _ in 0 ..< steps { again.press(.ctrl("y")) }
            #expect(again.editor.text == editor.text, "\(round): \(script)")
            #expect(again.editor.writtenDocument == written, "\(round): \(script)")
        }
    }
}
