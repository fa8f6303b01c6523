import AtpadCore
@testable import AtpadTerminal
import Testing

/// Issue 23, bullet 4: in Markdown formats the text area draws Markdown in the `markup.*`
/// roles; mentions keep their own role on top; other formats draw text as text.
@Suite struct MarkdownRolesTests {
    static let markdown = EditorConfig(format: .markdown)

    func roles(_ text: String, config: EditorConfig = markdown, width: Int = 40) -> [String] {
        let editor = Editor(AtpadMarkup.decode(text), cursor: 0, config: config)
        let f = frame(editor, width: width, height: 12)
        return f.screen.roleLines.map { String($0) }
    }

    @Test func eachConstructInItsRole() {
        let r = roles("# Title\nuse `x` and *e* **s** [l](u)\n> quoted\n\n    code\n")
        #expect(r[1].hasPrefix("HHHHHHH."))
        #expect(r[2].hasPrefix("....```.....eee.BBBBB.llllll."))
        #expect(r[3].hasPrefix("qqqqqqqq."))
        // An indented code block from its text on.
        #expect(r[5].hasPrefix("....````."))
    }

    @Test func mentionsStayOnTop() {
        let r = roles("**hi @[John Doe](u1)!**")
        #expect(r[1].hasPrefix("BBBBB" + String(repeating: "m", count: 9) + "BBB."))
    }

    @Test func otherFormatsDrawText() {
        let r = roles("# Title `x`", config: EditorConfig())
        #expect(r[1].hasPrefix("..........."))
    }

    @Test func fencesOpenedAboveTheViewStillColourBelow() {
        var text = "```\n"
        for i in 0 ..< 40 { text += "line \(i)\n" }
        text += "```\nafter `x`\n"
        var editor = Editor(AtpadMarkup.decode(text), cursor: 0, config: Self.markdown)
        _ = editor.handle(.ctrlEnd)
        let f = frame(editor, width: 20, height: 8)
        let lines = f.screen.lines, roleLines = f.screen.roleLines.map { String($0) }
        let fence = lines.firstIndex { $0.hasPrefix("line 39") }!
        #expect(roleLines[fence].hasPrefix("```````"))
        let after = lines.firstIndex { $0.hasPrefix("after") }!
        #expect(roleLines[after].hasPrefix("......```"))
    }

    /// A long paragraph is parsed in pieces around the view: a code span deep in it is
    /// still code, and typing above it keeps it so.
    @Test func aCodeSpanDeepInALongParagraph() {
        var text = (0 ..< 2_000).map { "Line \($0) of prose" }.joined(separator: "\n")
        text += "\nsee `code` here"
        var editor = Editor(AtpadMarkup.decode(text), cursor: 0, config: Self.markdown)
        _ = editor.handle(.ctrlEnd)
        for c in "and more" { _ = editor.handle(.char(c)) }
        let f = frame(editor, width: 30, height: 8)
        let lines = f.screen.lines, roleLines = f.screen.roleLines.map { String($0) }
        let row = lines.firstIndex { $0.hasPrefix("see `code` here") }!
        #expect(roleLines[row].hasPrefix("....``````....."))
        #expect(editor.markdownRuns(in: 0 ..< 10).isEmpty, "prose at the top")
    }

    @Test func themesStyleTheRoles() throws {
        for role in [Role.markupCode, .markupLink, .markupHeading, .markupStrong, .markupQuote] {
            #expect(Theme.builtInDefault.entries[role] != nil)
        }
    }
}
