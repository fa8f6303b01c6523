@testable import AtpadCore
import Testing

/// Line ends (docs/editor.md; docs/behaviour.md, "Line ends (CRLF)"): CR LF is one line
/// break to every key, each break keeps the ending it had, new breaks take the first
/// line's, and a lone CR is text.
@Suite struct LineEndingTests {
    let none = EditorConfig(implicitThreshold: 0)

    @Test func theFirstLineDecidesTheEndingOfNewBreaks() {
        #expect(Editor.lineEnding(of: "a\r\nb\nc") == "\r\n")
        #expect(Editor.lineEnding(of: "a\nb\r\nc") == "\n")
        #expect(Editor.lineEnding(of: "\r\n") == "\r\n")
        #expect(Editor.lineEnding(of: "a\rb\nc") == "\n", "a lone CR is not a line ending")
        #expect(Editor.lineEnding(of: "one line") == "\n")
        #expect(Editor.lineEnding(of: "") == "\n")
    }

    @Test func enterInsertsTheDocumentsEnding() throws {
        #expect(try edit("a\r\nb|", "<Enter>", config: none) == "a\r\nb\r\n|")
        #expect(try edit("a\r\nb\nc|", "<Enter>x", config: none) == "a\r\nb\nc\r\nx|", "old LF breaks stay LF")
        #expect(try edit("a\nb\r\nc|", "<Enter>", config: none) == "a\nb\r\nc\n|")
        #expect(try edit("a|", "<Enter>", config: none) == "a\n|")
    }

    @Test func endAndCtrlEStopBeforeTheCRLF() throws {
        #expect(try edit("|one\r\ntwo\r\n", "<End>", config: none) == "one|\r\ntwo\r\n")
        #expect(try edit("one\r\n|two\r\n", "<C-e>", config: none) == "one\r\ntwo|\r\n")
        #expect(try edit("one\r\ntw|o", "<Home>", config: none) == "one\r\n|two")
        #expect(try edit("|one\r\n", "<S-End><C-x>", config: none) == "|\r\n")
    }

    @Test func backspaceAndDeleteRemoveTheWholeBreak() throws {
        #expect(try edit("a\r\n|b", "<BS>", config: none) == "a|b")
        #expect(try edit("a|\r\nb", "<Del>", config: none) == "a|b")
        #expect(try edit("a|\r\nb", "<Right>", config: none) == "a\r\n|b", "the cursor never sits between CR and LF")
        #expect(try edit("a\r\n|b", "<Left>", config: none) == "a|\r\nb")
    }

    @Test func ctrlKAtALineEndJoinsTheLines() throws {
        #expect(try edit("a|\r\nb", "<C-k>", config: none) == "a|b")
        #expect(try edit("|ab\r\nc", "<C-k>", config: none) == "|\r\nc")
        #expect(try edit("|ab\r\nc", "<C-k><C-k>", config: none) == "|c")
    }

    @Test func aLoneCRIsTextOnItsLine() throws {
        #expect(try edit("|a\rb\r\nc", "<End>", config: none) == "a\rb|\r\nc")
        #expect(try edit("a\r|b", "<BS>", config: none) == "a|b")
        let e = Editor(MarkedText(text: "a\rb\r\nc"))
        #expect(e.storage.lineCount == 2)
        #expect(e.lineAndColumn(of: 3) == (line: 1, column: 4))
    }

    @Test func upAndDownCrossCRLFBreaks() throws {
        var h = try Harness("abc\r\nab\r\nabc|", config: none)
        try h.keys("<Up>")
        #expect(h.state == "abc\r\nab|\r\nabc")
        try h.keys("<Up>")
        #expect(h.state == "abc|\r\nab\r\nabc")
        try h.keys("<Down><Down>")
        #expect(h.state == "abc\r\nab\r\nabc|")
    }

    @Test func lineAndColumnCountCRLFAsOneBreak() {
        let e = Editor(MarkedText(text: "ab\r\ncd\r\n"))
        #expect(e.lineAndColumn(of: 2) == (line: 1, column: 3))
        #expect(e.lineAndColumn(of: 6) == (line: 2, column: 3))
        #expect(e.lineAndColumn(of: 8) == (line: 3, column: 1))
        #expect(e.position(line: 1, column: 99) == 2, "a column past the end stops before the CR")
        #expect(e.position(line: 2, column: nil) == 4)
    }

    @Test func pastedLineBreaksTakeTheDocumentsEnding() throws {
        var h = try Harness("a\r\nb|", config: none)
        h.press(.paste("x\ny\r\nz\r"))
        #expect(h.state == "a\r\nbx\r\ny\r\nz\r|", "a pasted CR LF and lone CR stay as they are")
        var lf = try Harness("a\nb|", config: none)
        lf.press(.paste("x\ny\r\n"))
        #expect(lf.state == "a\nbx\ny\r\n|", "an LF document takes a paste as it is")
    }

    @Test func aPastedMentionKeepsItsPlaceAfterConvertedBreaks() throws {
        var h = try Harness("a\r\n|", config: none)
        h.press(.paste("x\n@[John Doe](1)"))
        #expect(h.state == "a\r\nx\r\n@[John Doe](1)|")
    }

    @Test func fenceLinesEndingInCRLFStillOpenAndCloseCode() throws {
        var inside = try Harness("```\r\ncode\r\n|")
        try inside.keys("@jo")
        #expect(inside.editor.search == nil)
        var after = try Harness("```\r\ncode\r\n```\r\n|")
        try after.keys("@jo")
        #expect(after.query == "jo")
    }

    @Test func reloadingDecidesTheEndingAgain() {
        var e = Editor(MarkedText(text: "a\nb"))
        e.reload(MarkedText(text: "a\r\nb"))
        #expect(e.lineEnding == "\r\n")
    }

    @Test func storageLineEndsAndBreakLengths() {
        let s = TextStorage(MarkedText(text: "ab\r\n\r\nc\rd\n"))
        #expect(s.lineEnd(0) == 2)
        #expect(s.lineEnd(4) == 4)
        #expect(s.lineEnd(6) == 9)
        #expect(s.lineBreakLength(at: 2) == 2)
        #expect(s.lineBreakLength(at: 7) == 0, "a lone CR is no break")
        #expect(s.lineBreakLength(at: 9) == 1)
        #expect(s.lineBreakLength(before: 4) == 2)
        #expect(s.lineBreakLength(before: 10) == 1)
        #expect(s.lineBreakLength(before: 0) == 0)
        #expect(s.distanceToNewline(from: 0, limit: 10) == 2)
        #expect(s.distanceToNewline(from: 6, limit: 10) == 3)
        #expect(s.distanceToNewline(from: 0, limit: 2) == 2)
    }

    @Test func crlfAcrossAChunkBoundaryIsOneBreak() {
        // Chunks are cut about every 512 bytes: put CR LF pairs all around the first cut.
        var text = String(repeating: "x", count: 505)
        for _ in 0 ..< 8 { text += "a\r\n" }
        let s = TextStorage(MarkedText(text: text))
        var p = 0
        var lines = 0
        while p < s.count {
            let end = s.lineEnd(p)
            #expect(s.scalar(at: end) == "\r")
            #expect(s.lineBreakLength(at: end) == 2)
            p = end + 2
            #expect(s.lineBreakLength(before: p) == 2)
            lines += 1
        }
        #expect(lines == 8)
    }
}
