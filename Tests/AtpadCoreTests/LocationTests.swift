@testable import AtpadCore
import Testing

/// The title's `Ln N, Col C` and `Go to line:` (docs/keys.md; lines and grapheme clusters
/// counted from 1).
@Suite struct LocationTests {
    func location(_ markup: String) throws -> (line: Int, column: Int) {
        let h = try Harness(markup)
        return h.editor.lineAndColumn(of: h.editor.cursor)
    }

    @Test func linesAndColumnsCountFromOne() throws {
        #expect(try location("|") == (1, 1))
        #expect(try location("ab|") == (1, 3))
        #expect(try location("ab\n|") == (2, 1))
        #expect(try location("ab\ncd\n\nx|y") == (4, 2))
    }

    @Test func columnsCountGraphemeClusters() throws {
        #expect(try location("ab\nc👩‍💻e\u{301}|x") == (2, 4))
        #expect(try location("🇫🇷王|") == (1, 3))
    }

    @Test func aMentionCountsItsCharacters() throws {
        #expect(try location("hi @[John Doe](1)|") == (1, 13))
    }

    /// Issue 32: a byte that is not UTF-8, shown `\xE9`, is one character: one column in
    /// the title, and one column for `Go to line:`.
    @Test func aByteThatIsNotUTF8IsOneColumn() throws {
        let doc = try DocumentFormat.github.decode(bytes: Array("caf".utf8) + [0xE9] + Array(" x\n".utf8) + [0xFF, 0xFE]
                                                    + Array("y".utf8)).document
        let editor = Editor(doc)
        #expect(editor.lineAndColumn(of: 3) == (1, 4))
        #expect(editor.lineAndColumn(of: 7) == (1, 5))  // after the token `\xE9`
        #expect(editor.lineAndColumn(of: 9) == (1, 7))
        #expect(editor.lineAndColumn(of: 10 + 8) == (2, 3))
        #expect(editor.lineAndColumn(of: 10 + 9) == (2, 4))
        #expect(editor.position(line: 1, column: 5) == 7)
        #expect(editor.position(line: 1, column: 6) == 8)
        #expect(editor.position(line: 2, column: 2) == 14)
        #expect(editor.position(line: 2, column: 4) == 19)
        for p in [0, 3, 7, 8, 9, 10, 14, 18, 19] {
            let (line, column) = editor.lineAndColumn(of: p)
            #expect(editor.position(line: line, column: column) == p, "\(p)")
        }
    }

    @Test func lineAndColumnAgreeWithCountingOnLongDocuments() {
        var text = ""
        var rng = SeededRandom(seed: 5)
        for _ in 0..<20_000 { text += rng.pick(["a", "\n", "é", "👩‍💻", " "]) }
        let editor = Editor(MarkedText(text: text))
        var boundaries = [0]
        for character in text { boundaries.append(boundaries.last! + character.unicodeScalars.count) }
        for _ in 0..<50 {
            let p = rng.pick(boundaries)
            let before = String(String.UnicodeScalarView(Array(text.unicodeScalars)[..<p]))
            let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
            let got = editor.lineAndColumn(of: p)
            #expect(got.line == lines.count && got.column == lines.last!.count + 1, "at \(p)")
            #expect(editor.position(line: got.line, column: got.column) == p)
        }
    }

    func position(_ markup: String, _ line: Int, _ column: Int?) -> String {
        var editor = Editor(AtpadMarkup.decode(markup))
        _ = editor.select(.cursor(editor.position(line: line, column: column)))
        return Harness.render(editor)
    }

    @Test func positionGoesToALineAndColumn() {
        #expect(position("ab\ncd\nef", 2, nil) == "ab\n|cd\nef")
        #expect(position("ab\ncd\nef", 2, 2) == "ab\nc|d\nef")
        #expect(position("ab\nc👩‍💻e\u{301}x", 2, 4) == "ab\nc👩‍💻e\u{301}|x")
    }

    @Test func outOfRangeNumbersGoToTheNearestLineOrColumn() {
        #expect(position("ab\ncd", 99, nil) == "ab\n|cd")
        #expect(position("ab\ncd", 0, nil) == "|ab\ncd")
        #expect(position("ab\ncd", -4, 2) == "a|b\ncd")
        #expect(position("ab\ncd", 1, 40) == "ab|\ncd")
        #expect(position("ab\ncd", 2, 0) == "ab\n|cd")
        #expect(position("", 3, 3) == "|")
        #expect(position("ab\ncd", Int.max, nil) == "ab\n|cd")
        #expect(position("ab\ncd", Int.max, Int.max) == "ab\ncd|")
        #expect(position("ab\ncd\n", Int.max, Int.max) == "ab\ncd\n|")
        #expect(position("ab\ncd", Int.min, Int.min) == "|ab\ncd")
    }

    @Test func aPositionInsideAMentionGoesToTheNearerEdge() {
        #expect(position("@[John Doe](1) x", 1, 3) == "|@[John Doe](1) x")
        #expect(position("@[John Doe](1) x", 1, 8) == "@[John Doe](1)| x")
    }
}
