import AtpadCore
import Testing

/// Grapheme-safe motion, words, lines, soft-wrapped rows (docs/keys.md;
/// docs/behaviour.md, "Motion").
@Suite struct MotionTests {
    let none = EditorConfig(implicitThreshold: 0)

    @Test func leftRightStepWholeGraphemes() throws {
        // e + combining acute, a ZWJ family emoji, a flag: each one step.
        var h = try Harness("ae\u{301}👩‍👩‍👧🇫🇷|", config: none)
        try h.keys("<Left>")
        #expect(h.editor.cursor == 8)
        try h.keys("<Left>")
        #expect(h.editor.cursor == 3)
        try h.keys("<Left>")
        #expect(h.editor.cursor == 1)
        try h.keys("<Right><Right>")
        #expect(h.editor.cursor == 8)
    }

    /// Markup whose mention a combining mark would join to the text after it is read as
    /// text, so the cursor steps over whole characters and Backspace never cuts a name.
    @Test func aMentionJoinedByACombiningMarkIsText() throws {
        var h = try Harness("hi @[John Doe](u1)\u{301}| there", config: none)
        #expect(h.editor.mentions.isEmpty)
        try h.keys("<Left>")
        #expect(h.editor.cursor == 17)
        #expect(try edit("hi @[John Doe](u1)\u{301}| there", "<BS>", config: none) == "hi @[John Doe](u1| there")
    }

    @Test func backspaceDeletesWholeGrapheme() throws {
        #expect(try edit("x👩‍💻|", "<BS>", config: none) == "x|")
        #expect(try edit("ne\u{301}|", "<BS>", config: none) == "n|")
    }

    @Test func homeEndAndDocumentEnds() throws {
        #expect(try edit("one\ntw|o\nthree", "<Home>") == "one\n|two\nthree")
        #expect(try edit("one\ntw|o\nthree", "<End>") == "one\ntwo|\nthree")
        #expect(try edit("one\ntw|o\nthree", "<C-a>") == "one\n|two\nthree")
        #expect(try edit("one\ntw|o\nthree", "<C-e>") == "one\ntwo|\nthree")
        #expect(try edit("one\ntw|o\nthree", "<C-Home>") == "|one\ntwo\nthree")
        #expect(try edit("one\ntw|o\nthree", "<C-End>") == "one\ntwo\nthree|")
    }

    @Test func wordMotion() throws {
        #expect(try edit("foo, bar| baz", "<M-b>") == "foo, |bar baz")
        #expect(try edit("foo, bar| baz", "<M-b><M-b>") == "|foo, bar baz")
        #expect(try edit("foo|, bar baz", "<M-f>") == "foo, bar| baz")
        #expect(try edit("héllo wörld|", "<C-Left>") == "héllo |wörld")
    }

    @Test func upDownKeepGoalColumn() throws {
        var h = try Harness("abcdef\nab\nabcdef|", config: none)
        try h.keys("<Up>")
        #expect(h.editor.cursor == 9, "column 6 clamps to the end of the short line")
        try h.keys("<Up>")
        #expect(h.editor.cursor == 6, "goal column 6 is kept across the short line")
        try h.keys("<Up>")
        #expect(h.editor.cursor == 0, "Up on the first row goes to the start")
    }

    @Test func downOnLastRowGoesToEnd() throws {
        #expect(try edit("ab|c", "<Down>") == "abc|")
    }

    @Test func upDownMoveBySoftWrappedRows() throws {
        // Width 10: "aaaa bbbb cccc dddd" wraps to "aaaa bbbb " / "cccc dddd".
        var h = try Harness("aaaa bbbb cccc dd|dd", config: EditorConfig(implicitThreshold: 0, width: 10))
        try h.keys("<Up>")
        #expect(h.editor.cursor == 7)
        try h.keys("<Down>")
        #expect(h.editor.cursor == 17)
    }

    @Test func upDownUseDisplayColumnsForCJK() throws {
        // 王伟 is 4 columns wide: column 4 on the line below is after both.
        var h = try Harness("王伟x\nabcd|", config: none)
        try h.keys("<Up>")
        #expect(h.editor.cursor == 2)
    }

    @Test func pageDownMovesByPage() throws {
        let text = (0..<30).map { "line \($0)" }.joined(separator: "\n")
        var h = try Harness("|" + text, config: EditorConfig(implicitThreshold: 0, pageRows: 10))
        try h.keys("<PgDn>")
        #expect(h.editor.storage.lineStart(h.editor.cursor) == h.editor.cursor)
        #expect(h.editor.text.prefix(h.editor.cursor).filter { $0 == "\n" }.count == 10)
        try h.keys("<PgUp>")
        #expect(h.editor.cursor == 0)
    }

    @Test func shiftSelectionAndTypingReplacesIt() throws {
        var h = try Harness("hello world|", config: none)
        try h.keys("<S-Left><S-Left><S-Left><S-Left><S-Left>")
        #expect(h.editor.selection.range == 6..<11)
        try h.keys("there")
        #expect(h.state == "hello there|")
    }

    @Test func leftCollapsesSelection() throws {
        var h = try Harness("hello|", config: none)
        try h.keys("<S-Left><S-Left><Left>")
        #expect(h.editor.cursor == 3)
        #expect(h.editor.selection.isEmpty)
    }

    @Test func killLineAndLineStart() throws {
        #expect(try edit("ab|cd\nef", "<C-k>") == "ab|\nef")
        #expect(try edit("ab|\nef", "<C-k>") == "ab|ef")
        #expect(try edit("x\nab|cd", "<C-u>") == "x\n|cd")
    }
}

/// The width function and soft wrap.
@Suite struct LayoutTests {
    @Test func widths() {
        #expect(DisplayWidth.of("a" as Character) == 1)
        #expect(DisplayWidth.of("王" as Character) == 2)
        #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
        #expect(DisplayWidth.of("👩‍💻" as Character) == 2)
        #expect(DisplayWidth.of("❤️" as Character) == 2)
        #expect(DisplayWidth.of("🇫🇷" as Character) == 2)
        #expect(DisplayWidth.of("\u{1B}" as Character) == 2)
        #expect(DisplayWidth.escape(for: "\u{1B}") == "^[")
        #expect(DisplayWidth.escape(for: "\u{7F}") == "^?")
        #expect(DisplayWidth.escape(for: "\u{85}") == "<U+0085>")
        #expect(DisplayWidth.of("ｈ" as Character) == 2)
    }

    @Test func wrapsAtWordBoundaries() {
        let rows = SoftWrap.rows("aaaa bbbb cccc", width: 10)
        #expect(rows.map { [$0.start, $0.end] } == [[0, 10], [10, 14]])
    }

    @Test func longWordBreaksAtWidth() {
        let rows = SoftWrap.rows("abcdefghij", width: 4)
        #expect(rows.map { [$0.start, $0.end] } == [[0, 4], [4, 8], [8, 10]])
    }

    @Test func wideCharactersWrapByColumns() {
        let rows = SoftWrap.rows("王伟王伟王", width: 5)
        #expect(rows.map { [$0.start, $0.end] } == [[0, 2], [2, 4], [4, 5]])
    }

    @Test func tabsExpandToMultiplesOfFour() {
        let rows = SoftWrap.rows("a\tb", width: 20)
        #expect(rows[0].cells.map(\.column) == [0, 1, 4])
        #expect(rows[0].cells[1].width == 3)
    }

    @Test func mentionsAreNotBrokenWhenTheyFit() {
        // "x @John Doe" with the mention at 2..<11: no break after "@John ".
        let rows = SoftWrap.rows("x @John Doe", width: 9, atomic: [2..<11])
        #expect(rows.map { [$0.start, $0.end] } == [[0, 2], [2, 11]])
    }
}

/// Soft wrap never makes a row wider than the width (a wide character after a word that
/// moved down must wrap again).
@Suite struct SoftWrapWidthTests {
    @Test func wideCharacterAfterMovedWordWrapsAgain() {
        let rows = SoftWrap.rows(" abc漢x", width: 4)
        for row in rows {
            let width = row.cells.last.map { $0.column + $0.width } ?? 0
            #expect(width <= 4, "row \(row.start)..<\(row.end) is \(width) columns")
        }
        #expect(rows.map(\.start).first == 0)
        #expect(rows.last?.end == 6)
    }

    @Test(arguments: 0..<200)
    func randomLinesFitTheirWidth(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) + 77)
        var line = ""
        for _ in 0..<rng.int(0..<60) { line += rng.pick(["a", "b", " ", "漢", "👩‍💻", "e\u{301}", "\t", "\u{1B}", "xyz "]) }
        let width = rng.int(2..<12)
        let rows = SoftWrap.rows(line, width: width)
        var covered = 0
        for row in rows {
            #expect(row.start == covered)
            covered = row.end
            // Blanks may hang past the edge; everything up to the last other cell fits,
            // unless the row is one cluster wider than the width on its own.
            let solid = row.cells.prefix { _ in true }.reversed().drop { $0.ascii == 0x20 || $0.ascii == 0x09 }
            let used = solid.first.map { $0.column + $0.width } ?? 0
            #expect(used <= width || solid.count == 1, "seed \(seed): \(line.debugDescription) width \(width)")
        }
        #expect(covered == line.unicodeScalars.count)
    }
}
