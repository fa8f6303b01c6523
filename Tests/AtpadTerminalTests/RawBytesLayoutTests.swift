import AtpadCore
@testable import AtpadTerminal
import Testing

/// Issue 22, bullet 2: a byte that is not UTF-8 is drawn as a visible escape in the
/// `verbatim` role, and the cursor steps over it as one character.
@Suite struct RawBytesLayoutTests {
    @Test func aByteIsDrawnAsItsEscapeInTheVerbatimRole() throws {
        let doc = try DocumentFormat.github.decode(bytes: Array("caf".utf8) + [0xE9] + Array(" ok".utf8)).document
        var editor = Editor(doc)
        let f = frame(editor, width: 20, height: 5)
        #expect(f.screen.lines[1] == "caf\\xE9 ok          ")
        let verbatim = Role.verbatim.letter
        #expect(Array(f.screen.roleLines[1].prefix(10)) == Array("...") + Array(repeating: verbatim, count: 4) + Array("..."))
        // One step of the cursor crosses it.
        editor = Editor(doc, cursor: 3)
        _ = editor.handle(.right)
        #expect(editor.cursor == 7)
        // Issue 32: it is one character, so one column, though it is drawn in four cells.
        #expect(editor.lineAndColumn(of: editor.cursor) == (1, 5))
    }
}
