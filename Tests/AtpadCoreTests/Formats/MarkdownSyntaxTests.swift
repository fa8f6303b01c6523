import Foundation
import Synchronization
import Testing
@testable import AtpadCore

/// `MarkdownSyntax`: cmark-gfm's reading mapped back onto the bytes of the text — where
/// cmark-gfm's own inline positions are off (later lines of a quote or a list item, lazy
/// lines, tabs, autolinks).
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

    @Test func laterLinesOfQuotesListsAndLazyLines() {
        let text = "> aa `x`\n> bb `y` @jdoe\ncc `z`\n\n- a\n  bb `c`\n   x `d` done\n"
        #expect(spans(text, .code) == ["`x`", "`y`", "`z`", "`c`", "`d`"])
        #expect(prose(text) == ["aa ", "bb ", " @jdoe", "cc ", "a", "bb ", "x ", " done"])
    }

    @Test func linksAutolinksAndBareURLs() {
        let text = "a [l](u \"t\") <http://a.b/@x> https://x.example/?u=@jdoe and www.x.com. end"
        #expect(spans(text, .link) == ["[l](u \"t\")", "<http://a.b/@x>", "https://x.example/?u=@jdoe", "www.x.com"])
        #expect(prose(text) == ["a ", " ", " ", " and ", ". end"])
    }

    @Test func escapesAndReferencesStandForWhatTheyDecodeTo() {
        #expect(prose("a \\*b\\* &amp; &#64;x &ngE; `c`") == ["a \\*b\\* &amp; &#64;x &ngE; "])
    }

    @Test func codeBlocksHTMLAndHeadings() {
        let text = "# Title\n\n```sh\n@a\n```\n\n    @b\n\n<div>\n@c\n</div>\n\nSetext\n===\n"
        #expect(spans(text, .code) == ["```sh\n@a\n```", "@b"])
        #expect(spans(text, .html) == ["<div>\n@c\n</div>"])
        #expect(spans(text, .heading) == ["# Title", "Setext\n==="])
        #expect(prose(text) == ["Title", "Setext"])
    }

    @Test func emphasisStrongStrikethroughAndTables() {
        let text = "*e* **s** ~~x~~\n\n| a | `b` |\n|---|---|\n| c | d |\n"
        #expect(spans(text, .emphasis) == ["*e*"])
        #expect(spans(text, .strong) == ["**s**"])
        #expect(spans(text, .strikethrough) == ["~~x~~"])
        #expect(spans(text, .code) == ["`b`"])
        #expect(prose(text) == ["e", " ", "s", " ", "x", "a", "c", "d"])
    }

    @Test func tasksAndReferenceDefinitionsAreNotProse() {
        #expect(prose("- [ ] todo\n- [x] done\n") == ["todo", "done"])
        #expect(prose("[foo]: /url \"title\"\n@jdoe\n\n[foo]\n") == ["@jdoe"])
    }

    @Test func tabsAndCRLF() {
        #expect(spans("foo\r\n\t`t`\r\n", .code) == ["`t`"])
        #expect(prose("a\r\nb\r\n") == ["a", "b"])
    }

    @Test func topLevelBlockStarts() {
        let syntax = MarkdownSyntax("para\n\n- a\n- b\n\n```\nx\n\ny\n```\n")
        #expect(syntax.blockStarts == [0, 6, 15])
        #expect(syntax.blockIsParagraph == [true, false, false])
    }

    /// cmark-gfm shares a table between threads while it parses (`withParser`): parses on
    /// many threads at once still see strikethrough and autolinks.
    @Test func parsesOnManyThreadsAgree() {
        let text = String(repeating: "~~x~~ see www.x.com and https://y.example/@a ~z~\n\n", count: 300)
        let expected = MarkdownSyntax(text)
        let results = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            let same = MarkdownSyntax(text) == expected
            results.withLock { $0.append(same) }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 })
        #expect(expected.spans.filter { $0.kind == .strikethrough }.count == 600)
    }

    @Test func runsPutTheInnerSpanOnTop() {
        let text = "> q `c` **s**"
        let syntax = MarkdownSyntax(text)
        let bytes = Array(text.utf8)
        let runs = syntax.runs().map { "\($0.kind):\(String(decoding: bytes[$0.range], as: UTF8.self))" }
        #expect(runs == ["quote:> q ", "code:`c`", "quote: ", "strong:**s**"])
    }
}
