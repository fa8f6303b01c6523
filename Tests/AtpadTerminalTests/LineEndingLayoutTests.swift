import AtpadCore
@testable import AtpadTerminal
import Foundation
import Testing

/// Line ends on screen (docs/editor.md): the CR of a CR LF is part of the line break (no `^M`, no
/// column), a lone CR is drawn as `^M`.
@Suite struct LineEndingLayoutTests {
    @Test func aCRLFDocumentShowsNoCarriageReturns() throws {
        let editor = try makeEditor("one\r\ntwo|\r\n\r\nthree\r\n")
        let f = frame(editor)
        #expect(textLines(f).prefix(5) == padded(["one", "two", "", "three", ""], 20)[...])
        #expect(f.screen.cursor?.row == 2 && f.screen.cursor?.column == 3, "End of line 2 is just after `two`")
    }

    @Test func aLoneCRIsShownAsCaretM() throws {
        let editor = try makeEditor("a\rb|\r\nc")
        let f = frame(editor)
        #expect(textLines(f).prefix(2) == padded(["a^Mb", "c"], 20)[...])
        #expect(f.screen.cursor?.column == 4)
    }

    @Test func aWrappedCRLFLineEndsItsRowsAtTheBreak() throws {
        // A line exactly as wide as the text area: the CR must not take a column after it.
        let editor = try makeEditor("abcdefghijklmnopqrst\r\nk|")
        let f = frame(editor)
        #expect(textLines(f).prefix(2) == padded(["abcdefghijklmnopqrst", "k"], 20)[...])
        #expect(f.screen.cursor?.row == 2 && f.screen.cursor?.column == 1)
    }

    @Test func rowsBackwardFromALaterLineSkipTheWholeBreak() throws {
        // A cursor far down makes the layout find rows going back over CR LF breaks.
        var text = ""
        for i in 0 ..< 30 { text += "line \(i)\r\n" }
        let editor = try makeEditor(text + "end|")
        let f = frame(editor, height: 8)
        let lines = textLines(f).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["line 26", "line 27", "line 28", "line 29", "end"])
        #expect(!f.screen.lines.joined().contains("^M"))
    }

    @Test func thePreviewDrawsCRLFAsABreakAndALoneCRAsCaretM() throws {
        let e = try makeEditor("x|")
        let text = "one\r\ntwo\rthree\r\nend\r"
        let f = frame(e, view: EditorView(overlay: .preview(format: "atpad", text: text)))
        #expect(textLines(f).prefix(4) == padded(["Preview (atpad)", "one", "two^Mthree", "end^M"], 20)[...])
    }
}
