import AtpadCore
@testable import AtpadTerminal
import Foundation
import AtpadTestSupport
import Testing

// MARK: - Support (shared with ChooserViewTests)

/// An editor from markup with `|` at the cursor, its config's width matching the frame.
func makeEditor(_ markup: String, width: Int = 20, config: EditorConfig = EditorConfig()) throws -> Editor {
    let (doc, cursor) = try AtpadMarkup.decodeWithCursor(markup)
    var config = config
    config.width = width
    return Editor(doc, cursor: cursor, config: config)
}

/// Lays out one frame.
func frame(_ editor: Editor, width: Int = 20, height: Int = 8, view: EditorView = EditorView()) -> Frame {
    FrameLayout.frame(for: editor, view: view, width: width, height: height)
}

/// The text rows of a frame (rows 1..<height-2), trailing blanks kept.
func textLines(_ f: Frame) -> [String] {
    Array(f.screen.lines[1 ..< f.screen.height - 2])
}

func textRoles(_ f: Frame) -> [String] {
    Array(f.screen.roleLines[1 ..< f.screen.height - 2])
}

/// Lines padded to `width` with blanks, so expectations can be written without them.
func padded(_ lines: [String], _ width: Int) -> [String] {
    lines.map { $0 + String(repeating: " ", count: max(0, width - $0.count)) }
}

/// Types `keys` into the editor, ending cancelled queries at once (as a source would),
/// and answers the current query with `people`; returns that query's id.
@discardableResult
func search(_ editor: inout Editor, typing keys: String, answer people: [Candidate]? = nil,
            isFinal: Bool = true) -> Int? {
    var queue: [Effect] = []
    for ch in keys { queue += editor.handle(.char(ch)) }
    while !queue.isEmpty {
        if case let .cancel(id) = queue.removeFirst() { queue += editor.receive(.ended(queryID: id)) }
    }
    guard let id = editor.search?.queryID else { return nil }
    if let people { _ = editor.receive(.batch(queryID: id, people, isFinal: isFinal)) }
    return id
}

/// Compares a frame with a golden file of text and role lines; with ATPAD_RECORD_GOLDEN=1
/// set, writes the file instead.
func expectGolden(_ f: Frame, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden").appendingPathComponent(name + ".txt")
    var out = "cursor " + (f.screen.cursor.map { "\($0.row) \($0.column)" } ?? "hidden") + "\ntext\n"
    out += f.screen.lines.map { "|" + $0 + "|\n" }.joined()
    out += "roles\n" + f.screen.roleLines.map { "|" + $0 + "|\n" }.joined()
    if ProcessInfo.processInfo.environment["ATPAD_RECORD_GOLDEN"] == "1" {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try out.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(out == expected, "golden \(name) differs; record with ATPAD_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
}

let john = Candidate(entity: Entity(id: "1", name: "John Doe", handle: "jdoe", detail: "iOS engineer"),
                     matches: [0..<2])
let johanna = Candidate(entity: Entity(id: "3", name: "Johanna Lee"), matches: [0..<2])
let jon = Candidate(entity: Entity(id: "9", name: "Jon Snow", handle: "jsnow"), matches: [0..<2])

// MARK: - Layout

/// The frame's rows, soft wrap, widths, roles, cursor and scrolling
/// (ARCHITECTURE.md, "The frame path (`FrameLayout`, `FrameWriter`)").
@Suite struct LayoutTests {
    // MARK: Rows of the frame

    @Test func titleTextMessageAndHelpRows() throws {
        let e = try makeEditor("hi @[John Doe](1) and @[Jane Roe](2)|", width: 50)
        let view = EditorView(fileName: "notes.md", isModified: true, message: "Saved notes.md")
        let f = frame(e, width: 50, height: 6, view: view)
        #expect(f.screen.lines == padded([
            "atpad — notes.md [+] · 2 mentions     Ln 1, Col 27",
            "hi @John Doe and @Jane Roe",
            "",
            "",
            "Saved notes.md",
            "^S Save  ^Q Quit  ^Z Undo  ^Space Mention  F1 Help",
        ], 50))
        #expect(f.screen.roleLines == [
            String(repeating: "t", count: 50),
            "...mmmmmmmmm.....mmmmmmmmm" + String(repeating: ".", count: 24),
            String(repeating: ".", count: 50),
            String(repeating: ".", count: 50),
            String(repeating: "i", count: 50),
            "kkhhhhhhhkkhhhhhhhkkhhhhhhhkkkkkkhhhhhhhhhhkkhhhhh",
        ])
    }

    @Test func titleNamesANewCommentAndShortensToFit() throws {
        let e = try makeEditor("hi @[John Doe](1)|", width: 60)
        #expect(frame(e, width: 60).screen.lines[0] == "atpad — [new comment] · 1 mention".padding(48) + "Ln 1, Col 13")
        let narrow = frame(e, width: 20, view: EditorView(fileName: "a-very-long-file-name.md", isModified: true))
        #expect(narrow.screen.lines[0] == "…ng-file-name.md [+]")
        let unmodified = frame(e, width: 26, view: EditorView(fileName: "notes.md"))
        #expect(unmodified.screen.lines[0] == "notes.md      Ln 1, Col 13")
    }

    /// The cursor's line and column (docs/keys.md), and `[read-only]` (docs/editor.md); as
    /// the title narrows the program goes first, then the mention count, then the position,
    /// then the front of the file name — never `[read-only]` or `[+]`.
    @Test func titleShowsTheLineAndColumnAndReadOnlyAtEveryWidth() throws {
        let e = try makeEditor("one\ntwo @[John Doe](1)\nthree 漢字|", width: 80)
        #expect(e.lineAndColumn(of: e.cursor) == (3, 9))
        let view = EditorView(fileName: "notes.md", isModified: true, isReadOnly: true)
        let titles = [80, 60, 45, 40, 33, 24, 20].map { frame(e, width: $0, view: view).screen.lines[0] }
        #expect(titles == [
            "atpad — notes.md [read-only] [+] · 1 mention                         Ln 3, Col 9",
            "atpad — notes.md [read-only] [+] · 1 mention     Ln 3, Col 9",
            "notes.md [read-only] [+]".padding(34) + "Ln 3, Col 9",
            "notes.md [read-only] [+]     Ln 3, Col 9",
            "notes.md [read-only] [+]".padding(33),
            "notes.md [read-only] [+]",
            "….md [read-only] [+]",
        ])
        let f = frame(e, width: 40, view: view)
        #expect(f.screen.roleLines[0] == String(repeating: "t", count: 40))
    }

    @Test func helpBarIsTrimmedToWholeEntries() throws {
        let e = try makeEditor("|")
        #expect(frame(e, width: 20).screen.lines.last == "^S Save  ^Q Quit".padding(20))
        let wide = frame(e, width: 60).screen
        #expect(wide.lines.last == "^S Save  ^Q Quit  ^Z Undo  ^Space Mention  F1 Help  ^F Find".padding(60))
        #expect(wide.roleLines.last == "kkhhhhhhhkkhhhhhhhkkhhhhhhhkkkkkkhhhhhhhhhhkkhhhhhhhkkhhhhhh")
    }

    @Test func messagesAreShortenedAndSanitised() throws {
        let e = try makeEditor("|")
        let f = frame(e, width: 20, view: EditorView(message: "bad\u{1B}[2J file: something long"))
        #expect(Array(f.screen.lines[5...7]) == padded(["bad^[[2J file:", "something long", "^S Save  ^Q Quit"], 20))
    }

    // MARK: Messages on up to three rows

    /// A message longer than the row (docs/keys.md) is shown whole, on up to three rows ending
    /// at the message row, broken after spaces; the text area gives those rows up and
    /// still shows the cursor.
    @Test func aLongMessageTakesUpToThreeRows() throws {
        let e = try makeEditor("a\nb\nc\nd\ne|")
        let message = "notes.md changed on disk: (o)verwrite (r)eload (c)ancel"
        let f = frame(e, width: 24, height: 9, view: EditorView(message: message))
        #expect(f.screen.lines == padded([
            "[new comment]",
            "b",
            "c",
            "d",
            "e",
            "notes.md changed on",
            "disk: (o)verwrite",
            "(r)eload (c)ancel",
            "^S Save  ^Q Quit",
        ], 24))
        #expect(f.screen.roleLines[5 ... 7].allSatisfy { $0 == String(repeating: "i", count: 24) })
        // The text area gave up two rows and still shows the cursor, and the map knows.
        #expect(f.screen.cursor! == (4, 1))
        #expect(f.map.position(atRow: 5, column: 0) == nil)
        // The next frame without the message takes the rows back, from the same top.
        var view = EditorView(viewport: f.viewport)
        view.message = ""
        #expect(textLines(frame(e, width: 24, height: 9, view: view)).map(\.trimmed) == ["b", "c", "d", "e", "", ""])
    }

    @Test func aMessageLongerThanThreeRowsIsCut() throws {
        let e = try makeEditor("|")
        let message = "could not write /very/long/path/to/a/folder/notes.md: permission denied, try Save as"
        let f = frame(e, width: 20, height: 8, view: EditorView(message: message))
        #expect(Array(f.screen.lines[4 ... 6]) == padded([
            "could not write",
            "/very/long/path/to/a",
            "/folder/notes.md: p…",
        ], 20))
        // A word longer than the row breaks at the width; a terminal of 4 rows keeps its
        // one text row and shows one message row.
        let small = frame(e, width: 20, height: 4, view: EditorView(message: message))
        #expect(small.screen.lines[2] == "could not write /ve…")
    }

    // MARK: Soft wrap and widths

    @Test func plainTextWrapsAtWordBoundaries() throws {
        let e = try makeEditor("the quick brown fox jumps over the lazy dog|")
        #expect(textLines(frame(e)) == padded(["the quick brown fox ", "jumps over the lazy ", "dog", "", ""], 20))
    }

    @Test func aWordLongerThanTheRowBreaksAtTheWidth() throws {
        let e = try makeEditor("ab abcdefghijklmnopqrstuvwxyz|")
        #expect(textLines(frame(e)).prefix(2) == ["ab                  ", "abcdefghijklmnopqrst"])
    }

    @Test func mentionsWrapAsOneUnit() throws {
        let e = try makeEditor("please ask @[Johanna Lee](3) now|")
        let f = frame(e)
        #expect(textLines(f).prefix(2) == ["please ask          ", "@Johanna Lee now    "])
        #expect(textRoles(f).prefix(2) == ["....................", "mmmmmmmmmmmm........"])
    }

    /// Plain ASCII rows take a fast path; a row that a role range reaches, or that holds
    /// a control character, does not.
    @Test func plainRowsAndRowsWithRolesOrControlsDrawAlike() throws {
        var e = try makeEditor("plain row here\nsel|ected words\nbell \u{7} here")
        e.handle(.shiftRight)
        e.handle(.shiftRight)
        let f = frame(e)
        #expect(textLines(f).prefix(3) == ["plain row here      ", "selected words      ", "bell ^G here        "])
        #expect(textRoles(f).prefix(3) == ["....................", "...vv...............", "...................."])
    }

    @Test func wideCharactersTakeTwoCellsAndWrapByColumns() throws {
        let e = try makeEditor("漢字かなカナ한국어中文字|")
        let f = frame(e)
        #expect(textLines(f).prefix(2) == ["漢字かなカナ한국어中", "文字                "])
        #expect(f.screen.text(row: 1, column: 0) == "漢")
        #expect(f.screen[1, 1].isContinuation)
        #expect(f.screen.cursor! == (2, 4))
    }

    @Test func emojiAreTwoColumnsWide() throws {
        let e = try makeEditor("a👍🏽b👨‍👩‍👧c|")
        let f = frame(e)
        #expect(f.screen.text(row: 1, column: 1) == "👍🏽")
        #expect(f.screen[1, 2].isContinuation)
        #expect(f.screen.text(row: 1, column: 3) == "b")
        #expect(f.screen.text(row: 1, column: 4) == "👨‍👩‍👧")
        #expect(f.screen.text(row: 1, column: 6) == "c")
        #expect(f.screen.cursor! == (1, 7))
    }

    @Test func combiningMarksStayInTheirBaseCell() throws {
        let e = try makeEditor("e\u{301}te\u{301}\u{323}!|")
        let f = frame(e)
        #expect(f.screen.text(row: 1, column: 0) == "e\u{301}")
        #expect(f.screen.text(row: 1, column: 2) == "e\u{301}\u{323}")
        #expect(f.screen.text(row: 1, column: 3) == "!")
        #expect(f.screen.cursor! == (1, 4))
    }

    /// "é" and "e\u{301}" are equal Strings but not the same text to wrap: each line's
    /// rows end at its own scalar offsets and draw its own bytes. (A wrap cache keyed by
    /// String once handed the second line the first one's rows.)
    @Test func canonicallyEquivalentLinesWrapToTheirOwnOffsets() throws {
        let e = try makeEditor("caf\u{E9} ok\ncafe\u{301} ok|")
        let f = frame(e)
        #expect(f.map.rows.map { [$0.start, $0.end] } == [[0, 7], [8, 16]])
        #expect(f.screen.text(row: 1, column: 3).unicodeScalars.elementsEqual("\u{E9}".unicodeScalars))
        #expect(f.screen.text(row: 2, column: 3).unicodeScalars.elementsEqual("e\u{301}".unicodeScalars))
        #expect(f.screen.cursor! == (2, 7))
    }

    @Test func tabsExpandToTheNextMultipleOfFour() throws {
        let e = try makeEditor("a\tbc\td\t|")
        let f = frame(e)
        #expect(textLines(f)[0] == "a   bc  d           ")
        #expect(f.screen.cursor! == (1, 12))
    }

    @Test func controlCharactersAreShownAsEscapes() throws {
        let e = try makeEditor("a\u{1B}[31mb\u{7F}c\u{85}d\u{0}|")
        let f = frame(e, width: 30)
        #expect(textLines(f)[0] == "a^[[31mb^?c<U+0085>d^@".padding(30))
        // Every cell holds one printable character: nothing raw reaches the terminal.
        for c in 0..<30 {
            let text = f.screen.text(row: 1, column: c)
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        }
        #expect(f.screen.cursor! == (1, 22))
    }

    @Test func aCRLFIsOneLineBreakAndALoneCarriageReturnIsVisible() throws {
        // The CR of a CR LF belongs to the break; a CR before it is text (docs/editor.md).
        let e = try makeEditor("one\r\ntwo|")
        #expect(textLines(frame(e)).prefix(2) == ["one                 ", "two                 "])
        let lone = try makeEditor("one\r\r\ntwo|")
        #expect(textLines(frame(lone)).prefix(2) == ["one^M               ", "two                 "])
    }

    // MARK: Roles

    @Test func mentionAndSelectedMentionRoles() throws {
        var e = try makeEditor("hi @[John Doe](1)|")
        #expect(textRoles(frame(e))[0] == "...mmmmmmmmm........")
        _ = e.handle(.backspace)
        #expect(e.selectedMention != nil)
        #expect(textRoles(frame(e))[0] == "...MMMMMMMMM........")
    }

    @Test func selectionRole() throws {
        var e = try makeEditor("hello @[John Doe](1) x|")
        for _ in 0..<3 { _ = e.handle(.shiftLeft) }
        // Shift-Left steps over the mention as one unit.
        #expect(textRoles(frame(e))[0] == "......vvvvvvvvvvv...")
    }

    @Test func searchRoleCoversTheTriggerAndQuery() throws {
        var e = try makeEditor("hi |")
        _ = search(&e, typing: "@jo")
        #expect(textRoles(frame(e, height: 12))[0] == "...sss..............")
    }

    @Test func implicitSearchesAreNotMarked() throws {
        var e = try makeEditor("hi |")
        _ = search(&e, typing: "joh")
        #expect(e.search?.kind == .implicit)
        #expect(textRoles(frame(e))[0] == "....................")
    }

    // MARK: Cursor

    @Test func cursorSitsAtItsCell() throws {
        #expect(frame(try makeEditor("hello|")).screen.cursor! == (1, 5))
        #expect(frame(try makeEditor("he|llo")).screen.cursor! == (1, 2))
        #expect(frame(try makeEditor("one\n|two")).screen.cursor! == (2, 0))
        #expect(frame(try makeEditor("one\n|")).screen.cursor! == (2, 0))
        #expect(frame(try makeEditor("|")).screen.cursor! == (1, 0))
    }

    /// After a line as wide as the row the next character wraps to a new row: the cursor
    /// is drawn at its start, and the line shows that row (empty) until the cursor leaves.
    @Test func cursorAtTheEndOfAFullRowGoesToTheStartOfTheRowBelow() throws {
        var e = try makeEditor("abcdefghijklmnopqrst|\nnext")
        var f = frame(e)
        #expect(textLines(f).prefix(3) == ["abcdefghijklmnopqrst", "".padding(20), "next".padding(20)])
        #expect(f.screen.cursor! == (2, 0))
        // A click on that row puts the cursor at the line's end.
        #expect(f.map.position(atRow: 2, column: 5) == 20)
        _ = e.handle(.left)
        f = frame(e)
        #expect(textLines(f).prefix(2) == ["abcdefghijklmnopqrst", "next".padding(20)])
        #expect(f.screen.cursor! == (1, 19))
    }

    /// After a full row that ends in a word, a letter typed at its end takes the word down
    /// with it (soft wrap keeps words whole): it lands after the word, not at the cursor.
    @Test func aLetterAfterAFullRowEndingInAWordTakesTheWordDown() throws {
        var e = try makeEditor("the quick brown foxy|")
        #expect(frame(e).screen.cursor! == (2, 0))
        _ = e.handle(.char("!"))
        let f = frame(e)
        #expect(textLines(f).prefix(2) == ["the quick brown     ", "foxy!".padding(20)])
        #expect(f.screen.cursor! == (2, 5))
    }

    /// Blanks typed past the end of a full row hang there; the cursor after them is where
    /// the next word goes: the start of the row below.
    @Test func cursorAfterBlanksHangingPastTheRowIsOnTheRowBelow() throws {
        var e = try makeEditor("abcdefghij klmnopqrs  |")
        #expect(frame(e).screen.cursor! == (2, 0))
        _ = e.handle(.char("x"))
        let f = frame(e)
        #expect(textLines(f).prefix(2) == ["abcdefghij klmnopqrs", "x".padding(20)])
        #expect(f.screen.cursor! == (2, 1))
        // In the middle of a line, too: the next row is the line's own.
        var middle = try makeEditor("abcdefghij klmnopqrs  | more")
        #expect(frame(middle).screen.cursor! == (2, 0))
        _ = middle.handle(.char("x"))
        #expect(textLines(frame(middle)).prefix(2) == ["abcdefghij klmnopqrs", "x more".padding(20)])
    }

    /// The row the cursor needs after a full row at the bottom of the text area scrolls the
    /// text by one, as moving onto a new row would; with one text row, only it shows.
    @Test func theRowAfterAFullRowScrollsIntoView() throws {
        let e = try makeEditor("one\ntwo\nthree\nfour\nabcdefghijklmnopqrst|")
        let f = frame(e, height: 8)
        #expect(textLines(f) == padded(["two", "three", "four", "abcdefghijklmnopqrst", ""], 20))
        #expect(f.screen.cursor! == (5, 0))
        let tiny = frame(e, height: 4)
        #expect(textLines(tiny) == ["".padding(20)])
        #expect(tiny.screen.cursor! == (1, 0))
        // Laid out again from the viewport it handed back, the frame is the same.
        let again = frame(e, height: 4, view: EditorView(viewport: tiny.viewport))
        #expect(again.screen == tiny.screen)
        let againTall = frame(e, height: 8, view: EditorView(viewport: f.viewport))
        #expect(againTall.screen == f.screen)
    }

    @Test func cursorAtAWrappedRowsEndIsDrawnOnTheNextRow() throws {
        let f = frame(try makeEditor("the quick brown fox |jumps"))
        #expect(f.screen.cursor! == (2, 0))
    }

    @Test func aShortHelpListEndsInAnEllipsis() throws {
        let f = frame(try makeEditor("hi|"), width: 24, height: 7, view: EditorView(overlay: .help))
        #expect(f.screen.lines == [
            "[new comment]           ",
            " Ctrl-S  Save           ",
            " Alt-S   Save as        ",
            " Ctrl-Q  Quit (asks to… ",
            " Ctrl-Z  Undo           ",
            " …                      ",
            "Any key Close help      ",
        ])
        #expect(f.screen.roleLines[1] == "hkkkkkkhhhhhhhhhhhhhhhhh")
    }

    @Test func theHelpListHidesTheCursorAndTheMap() throws {
        let f = frame(try makeEditor("hi|"), width: 80, height: 24, view: EditorView(overlay: .help))
        #expect(f.screen.cursor == nil)
        #expect(f.map.position(atRow: 1, column: 0) == nil)
        #expect(f.screen.lines.last == "Any key Close help".padding(80))
        try expectGolden(f, "help-80x24")
    }

    // MARK: Too small

    @Test func aTerminalSmallerThan20x4ShowsOnlyANotice() throws {
        let e = try makeEditor("hi @[John Doe](1)|")
        let narrow = frame(e, width: 19, height: 8)
        #expect(narrow.screen.lines == padded(["", "", "", "terminal too small", "", "", "", ""], 19))
        #expect(narrow.screen.cursor == nil)
        let short = frame(e, width: 30, height: 3)
        #expect(short.screen.lines == padded(["", "      terminal too small", ""], 30))
        let tiny = frame(e, width: 10, height: 4)
        #expect(tiny.screen.lines == padded(["", " terminal", "too small", ""], 10))
        // 20×4 is enough: one text row.
        let smallest = frame(e, width: 20, height: 4)
        #expect(smallest.screen.lines[1] == "hi @John Doe".padding(20))
    }

    // MARK: Scrolling

    /// A document of `n` numbered lines, the cursor at the start of line `at` (0-based).
    func numbered(_ n: Int, cursorLine at: Int) throws -> Editor {
        let lines = (0..<n).map { "line \($0)" }
        var markup = lines.joined(separator: "\n")
        let offset = lines.prefix(at).reduce(0) { $0 + $1.count + 1 }
        markup.insert("|", at: markup.index(markup.startIndex, offsetBy: offset))
        return try makeEditor(markup)
    }

    @Test func scrollingDownPutsTheCursorRowAtTheBottom() throws {
        let f = frame(try numbered(30, cursorLine: 25))
        #expect(textLines(f).map { $0.trimmed } == ["line 21", "line 22", "line 23", "line 24", "line 25"])
        #expect(f.screen.cursor! == (5, 0))
    }

    @Test func scrollingIsMinimal() throws {
        var e = try numbered(30, cursorLine: 0)
        var view = EditorView()
        var f = frame(e, view: view)
        #expect(textLines(f).map { $0.trimmed } == ["line 0", "line 1", "line 2", "line 3", "line 4"])
        // Down within the screen: nothing scrolls.
        for _ in 0..<4 { _ = e.handle(.down) }
        view.viewport = f.viewport
        f = frame(e, view: view)
        #expect(textLines(f).first?.trimmed == "line 0")
        #expect(f.screen.cursor! == (5, 0))
        // One more: one row.
        _ = e.handle(.down)
        view.viewport = f.viewport
        f = frame(e, view: view)
        #expect(textLines(f).map { $0.trimmed } == ["line 1", "line 2", "line 3", "line 4", "line 5"])
        #expect(f.screen.cursor! == (5, 0))
        // Up within the screen: nothing scrolls; above it: the cursor's row goes on top.
        for _ in 0..<4 { _ = e.handle(.up) }
        view.viewport = f.viewport
        f = frame(e, view: view)
        #expect(textLines(f).first?.trimmed == "line 1")
        _ = e.handle(.up)
        view.viewport = f.viewport
        f = frame(e, view: view)
        #expect(textLines(f).map { $0.trimmed } == ["line 0", "line 1", "line 2", "line 3", "line 4"])
        #expect(f.screen.cursor! == (1, 0))
    }

    @Test func scrollingUpPutsTheCursorRowOnTop() throws {
        let e = try numbered(30, cursorLine: 3)
        let f = frame(e, view: EditorView(viewport: Viewport(top: 100)))
        #expect(textLines(f).first?.trimmed == "line 3")
        #expect(f.screen.cursor! == (1, 0))
    }

    @Test func aViewportInsideARowMovesBackToTheRowStart() throws {
        let e = try makeEditor("the quick brown fox jumps over the lazy dog|")
        // 24 is inside "jumps" on the second row.
        let f = frame(e, view: EditorView(viewport: Viewport(top: 24)))
        #expect(f.viewport.top == 20)
        #expect(textLines(f).first == "jumps over the lazy ")
    }

    @Test func theViewportIsKeptWhileTheCursorIsVisible() throws {
        var e = try numbered(30, cursorLine: 12)
        let f1 = frame(e, view: EditorView(viewport: Viewport(top: 0)))
        _ = e.handle(.up)
        let f2 = frame(e, view: EditorView(viewport: f1.viewport))
        #expect(f2.viewport.top == f1.viewport.top)
        #expect(textLines(f2).first?.trimmed == "line 8")
    }

    /// The layout skips re-checking that the viewport's top is a row start when no edit
    /// can have reached the top row; after any edit script, a frame must equal one laid
    /// out from the same top without that shortcut.
    @Test func trustedViewportsMatchFreshLayouts() throws {
        var random = SeededRandom(seed: 7)
        let keys: [Key] = [.char("a"), .char("b"), .char(" "), .char(" "), .char("@"), .backspace, .delete, .enter,
                           .left, .right, .up, .down, .up, .up, .ctrl("z"), .ctrl("y"), .ctrl("w"), .pageUp, .pageDown,
                           .shiftLeft, .char("x"), .tab]
        let words = (0..<60).map { "w\($0)" }.joined(separator: " ")
        var e = try makeEditor(words + "\n" + words + " @[John Doe](1) end\n" + words + "|")
        var view = EditorView()
        for step in 0..<400 {
            _ = e.handle(keys[Int(random.next() % UInt64(keys.count))])
            let f = frame(e, view: view)
            let fresh = frame(e, view: EditorView(viewport: Viewport(top: view.viewport.top)))
            #expect(f.screen == fresh.screen, "step \(step)")
            view.viewport = f.viewport
        }
    }

    @Test func aSpaceTypedAtAWrappedTopRowsStartReflowsTheTop() throws {
        var e = try makeEditor("the quick brown fox |jumps over the lazy dog and more")
        var view = EditorView(viewport: Viewport(top: 20))
        var f = frame(e, view: view)
        #expect(textLines(f).first == "jumps over the lazy ")
        view.viewport = f.viewport
        // The space hangs at the end of the row above, which now holds position 20: the
        // viewport goes back to that row's start (the space is past the edge, not drawn).
        _ = e.handle(.char(" "))
        f = frame(e, view: view)
        #expect(f.viewport.top == 0)
        #expect(Array(textLines(f).prefix(2)) == ["the quick brown fox ", "jumps over the lazy "])
        #expect(f.screen.cursor! == (2, 0))
    }

    @Test func scrollingWithinOneLongWrappedLine() throws {
        let words = (0..<200).map { "w\($0)" }.joined(separator: " ")
        let e = try makeEditor(words + "|")
        let f = frame(e)
        let rows = SoftWrap.rows(words, width: 20)
        let expected = rows.suffix(5).map { r in
            String(String.UnicodeScalarView(Array(words.unicodeScalars)[r.start..<r.end])).padding(20)
        }
        #expect(textLines(f) == expected)
        #expect(f.screen.cursor!.row == 5)
    }

    /// A line far longer than the backward window, with wide characters and double spaces.
    func longLine() -> String {
        var text = ""
        var i = 0
        while text.unicodeScalars.count < 12_000 {
            text += (i % 7 == 0 ? "漢字" : "word\(i)") + (i % 5 == 0 ? "  " : " ")
            i += 1
        }
        return text
    }

    /// Scrolling down such a line one row at a time from its start shows exactly the rows
    /// of wrapping the whole line: forward wrapping from a known row start is exact.
    @Test func rowsOfAVeryLongLineMatchTheWholeLineWrap() throws {
        let text = longLine()
        let all = SoftWrap.rows(text, width: 20)
        let scalars = Array(text.unicodeScalars)
        func rowText(_ r: SoftWrap.Row) -> String { String(String.UnicodeScalarView(scalars[r.start..<r.end])) }
        var e = try makeEditor("|" + text)
        var view = EditorView()
        for row in 4..<all.count {
            e.moveCursor(to: all[row].start)
            let f = frame(e, view: view)
            view.viewport = f.viewport
            guard row % 50 == 0 || row == all.count - 1 else { continue }
            #expect(f.viewport.top == all[row - 4].start, "row \(row)")
            #expect(textLines(f).map { $0.trimmed } == (row - 4...row).map { rowText(all[$0]).trimmed })
        }
    }

    /// Jumping into the middle of such a line wraps from an anchor near the cursor: the
    /// rows may break elsewhere than a whole-line wrap would, but they are whole rows that
    /// follow each other, and the cursor is on the bottom one.
    @Test func aJumpIntoAVeryLongLineShowsContiguousRows() throws {
        let text = longLine()
        var e = try makeEditor("|" + text)
        e.moveCursor(to: 9_000)
        let f = frame(e)
        #expect(f.screen.cursor?.row == 5)
        let rows = f.map.rows
        #expect(rows.count == 5)
        for (a, b) in zip(rows, rows.dropFirst()) { #expect(a.end == b.start) }
        #expect(rows.last!.holds(e.cursor))
        for line in textLines(f) { #expect(!line.hasPrefix(" ")) }
    }

    @Test func aMegabyteLineLaysOutFromAnywhere() throws {
        let text = String(repeating: "abc defgh ijklmn opq ", count: 50_000)  // ~1 MB, one line
        var e = try makeEditor(text + "|")
        let atEnd = frame(e, width: 120, height: 40)
        #expect(atEnd.screen.cursor!.row == 37)
        #expect(textLines(atEnd).last!.trimmed.hasSuffix("opq"))
        e.moveCursor(to: 500_000)
        let middle = frame(e, width: 120, height: 40, view: EditorView(viewport: atEnd.viewport))
        #expect(middle.screen.cursor != nil)
        e.moveCursor(to: 0)
        let start = frame(e, width: 120, height: 40, view: EditorView(viewport: middle.viewport))
        #expect(start.viewport.top == 0)
        #expect(textLines(start)[0].hasPrefix("abc defgh"))
    }

    @Test func theDocumentEndOnAnEmptyLastLine() throws {
        let f = frame(try makeEditor("a\nb\n|"))
        #expect(Array(textLines(f).prefix(3)) == padded(["a", "b", ""], 20))
        #expect(f.screen.cursor! == (3, 0))
    }

    // MARK: Layout map

    @Test func clicksMapToDocumentPositions() throws {
        let e = try makeEditor("the quick brown fox jumps\n漢字 ok|")
        let f = frame(e)
        let map = f.map
        #expect(map.position(atRow: 1, column: 4) == 4)           // on "q"
        #expect(map.position(atRow: 1, column: 19) == 19)         // the hanging space of a wrapped row
        #expect(map.position(atRow: 2, column: 2) == 22)          // on "m" of "jumps"
        #expect(map.position(atRow: 2, column: 15) == 25)         // past the end of the line: its end
        #expect(map.position(atRow: 3, column: 1) == 26)          // the continuation of "漢"
        #expect(map.position(atRow: 3, column: 2) == 27)          // "字"
        #expect(map.position(atRow: 4, column: 0) == 31)          // below the text: the end
        #expect(map.position(atRow: 0, column: 0) == nil)         // the title
        #expect(map.position(atRow: 6, column: 0) == nil)         // the message line
    }
}

extension String {
    /// Padded with blanks (or cut) to `width` characters.
    func padding(_ width: Int) -> String {
        padding(toLength: width, withPad: " ", startingAt: 0)
    }

    var trimmed: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
