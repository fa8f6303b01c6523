import Testing
@testable import AtpadCore

/// `MarkdownSyntax`: cmark-gfm's reading mapped back onto the bytes of the text.
@Suite("Markdown syntax")
struct MarkdownSyntaxTests {
    /// The text of each prose run.
    func prose(_ text: String) -> [String] {
        let syntax = MarkdownSyntax(text)
        let bytes = Array(text.utf8)
        return syntax.prose.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The text of each span of `kind`.
    func spans(_ text: String, _ kind: MarkdownSyntax.Kind) -> [String] {
        let syntax = MarkdownSyntax(text)
        let bytes = Array(text.utf8)
        return syntax.spans.filter { $0.kind == kind }.map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    @Test func debug() {
        for t in ["#@jdoe Heading\n    foo\n", "&nbsp &x; &#; &#x;\n@jdoe&#87654321;\n&#abcdef0;\n", "<foo\\+@bar.example.com>@jdoe\n", "_foo__@jdoe\n"] {
            print(t.debugDescription, prose(t), MarkdownSyntax(t).spans)
        }
    }
}
