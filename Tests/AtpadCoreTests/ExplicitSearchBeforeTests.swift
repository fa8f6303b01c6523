import AtpadCore
import Testing

/// `Editor.explicitSearch(before:)`, which `atpad lsp` asks (docs/editors.md): a search is
/// found before a position exactly where typing the trigger there opens one in the editor.
@Suite struct ExplicitSearchBeforeTests {
    static let markdown = EditorConfig(triggers: ["@", "#"], implicitThreshold: 0, format: .markdown)

    @Test(arguments: [
        "|", "hi |", "```\n|", "use `x| y`", "<div>\n|\n</div>", "> quote |", "**|", "mail a|",
        "see https://x.org/|", "# Heading |", "- item |", "para\n    |", "(|",
    ])
    func agreesWithTyping(_ start: String) throws {
        var typed = try Harness(start, config: Self.markdown)
        try typed.keys("@jo")
        let opened = typed.editor.search != nil
        let editor = Editor(MarkedText(text: typed.editor.text), config: Self.markdown)
        let found = editor.explicitSearch(before: typed.editor.cursor)
        #expect((found != nil) == opened, "\(start)")
        if let found {
            #expect(found.trigger == "@")
            #expect(found.query == "jo")
        }
    }

    @Test func aPersonTrailerInACommitMessage() {
        var config = Self.markdown
        config.git = GitFile(kind: .message)
        config.personTrailers = PersonTrailers()
        let text = "Fix\n\nCo-authored-by: @ja\n# a comment @jo"
        let editor = Editor(MarkedText(text: text), config: config)
        let trailer = editor.explicitSearch(before: 24)
        #expect(trailer?.personTrailer == true)
        #expect(trailer?.query == "ja")
        #expect(editor.explicitSearch(before: text.unicodeScalars.count) == nil)
    }

    @Test func editReplacesPlainTextWithoutUndo() {
        var editor = Editor(MarkedText(text: "hello world"), config: Self.markdown)
        editor.edit(replacing: 6..<11, with: "@jo")
        #expect(editor.text == "hello @jo")
        #expect(!editor.canUndo)
        editor.edit(replacing: 40..<50, with: "!")
        #expect(editor.text == "hello @jo!")
    }
}
