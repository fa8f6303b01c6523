import Foundation
import Testing
import AtpadTestSupport
@testable import AtpadCore

/// docs/formats.md, "What each service receives": a Markdown comment reaches Matrix as the
/// HTML cmark-gfm renders, Jira as ADF with its structure, Slack as mrkdwn — with each
/// mention as the service's own, and a person the service cannot notify as their name.
@Suite("composer formats")
struct ComposerFormatsTests {
    /// John has every account; Ann has GitHub and Slack only; Bo has none (his directory
    /// id serves everywhere); `#general` is a channel.
    static let people = lookup([
        Entity(id: "p1", name: "John Doe", handle: "john", accounts: [
            .github: "jdoe", .slack: "U0123", .jira: "5b10ac8d", .matrix: "@jdoe:example.org",
        ]),
        Entity(id: "p2", name: "Ann Lee", handle: "annl", accounts: [.github: "ann-gh", .slack: "U0456"]),
        Entity(id: "p3", name: "Bo Chen", handle: "bo"),
        Entity(id: "p4", name: "Cy Ng", handle: "cy", accounts: [.github: "cy-gh"]),
    ], channels: [Entity(id: "C1", name: "general", accounts: [.slack: "C0999"])])

    static func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// The Matrix event of a comment in atpad markup (Markdown with mentions).
    static func matrix(_ source: String, from: DocumentFormat? = .atpad) throws -> [String: Any] {
        try json(DocumentFormat.matrix.encodeUTF8(markup(source), lookup: people, from: from))
    }

    static func html(_ source: String) throws -> String {
        try #require(try matrix(source)["formatted_body"] as? String)
    }

    static func userIDs(_ source: String) throws -> [String] {
        let mentions = try #require(try matrix(source)["m.mentions"] as? [String: Any])
        return try #require(mentions["user_ids"] as? [String])
    }

    static func adf(_ source: String, from: DocumentFormat? = .atpad) -> [UInt8] {
        DocumentFormat.adf.encodeUTF8(markup(source), lookup: people, from: from)
    }

    static func slack(_ source: String, from: DocumentFormat? = .github) -> String {
        String(decoding: DocumentFormat.slack.encodeUTF8(markup(source), lookup: people, from: from), as: UTF8.self)
    }

    // MARK: Matrix

    @Test func matrixGetsTheHTMLOfTheMarkdownWithPills() throws {
        #expect(try Self.html("**bold** and [docs](https://e.com/d) `code` @[John Doe](p1)\n")
            == #"<strong>bold</strong> and <a href="https://e.com/d">docs</a> <code>code</code> <a href="https://matrix.to/#/@jdoe:example.org">John Doe</a>"#)
        #expect(try Self.userIDs("hi @[John Doe](p1)") == ["@jdoe:example.org"])
        // The body is the text as typed.
        #expect(try Self.matrix("**hi** @[John Doe](p1)\n")["body"] as? String == "**hi** @John Doe\n")
    }

    @Test func matrixBlocksAndLineBreaksAreElements() throws {
        // More than one block keeps its <p>; a line break is <br />, the last newline nothing.
        #expect(try Self.html("a\nb\n\nc\n\n") == "<p>a<br />\nb</p>\n<p>c</p>")
        #expect(try Self.html("# T\n\n- one\n- two\n") == "<h1>T</h1>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>")
        #expect(try Self.html("```swift\nlet a = 1 < 2\n\nb\n```\n")
            == "<pre><code class=\"language-swift\">let a = 1 &lt; 2\n\nb\n</code></pre>")
        #expect(try !Self.html("one line\n").contains("<br"))
    }

    @Test func matrixShowsRawHTMLAsTyped() throws {
        #expect(try Self.html("<b>x</b> & <script>y</script>") == "&lt;b&gt;x&lt;/b&gt; &amp; &lt;script&gt;y&lt;/script&gt;")
        #expect(try Self.html("<div>\n@[John Doe](p1)\n</div>\n")
            == #"&lt;div&gt;<br />"# + "\n" + #"<a href="https://matrix.to/#/@jdoe:example.org">John Doe</a><br />"# + "\n&lt;/div&gt;")
    }

    @Test func matrixMentionsInCodeAndLinksAreTextAndNotifyNobody() throws {
        let source = "`@[John Doe](p1)` and [see @[John Doe](p1)](https://x.org)"
        #expect(try Self.html(source) == #"<code>@John Doe</code> and <a href="https://x.org">see @John Doe</a>"#)
        #expect(try Self.userIDs(source) == [])
    }

    @Test func matrixNamesAreNeverMarkdown() throws {
        let doc = markup("hi ")
        var withName = doc
        withName.text += "@*A* [b](c) <i>"
        withName.mentions = [Mention(trigger: "@", id: "@a:x", name: "*A* [b](c) <i>", start: 3)]
        let event = try Self.json(DocumentFormat.matrix.encodeUTF8(withName, lookup: .empty))
        #expect(event["formatted_body"] as? String == #"hi <a href="https://matrix.to/#/@a:x">*A* [b](c) &lt;i&gt;</a>"#)
    }

    @Test func matrixPeopleItCannotNotifyAreNamesAndChannelsAreRooms() throws {
        // Ann has accounts, none on Matrix: her name, no @ that would read as someone else.
        #expect(try Self.html("thanks @[Ann Lee](p2)") == "thanks Ann Lee")
        #expect(try Self.matrix("thanks @[Ann Lee](p2)")["body"] as? String == "thanks Ann Lee")
        #expect(try Self.userIDs("@[Ann Lee](p2) #[general](C1)") == [])
        // A channel with no Matrix room is text; a room is linked, and notifies nobody.
        #expect(try Self.html("#[general](C1)") == "#general")
        let room = try Self.json(DocumentFormat.matrix.encodeUTF8(markup("see #[team](#team:x.org)"), lookup: .empty))
        #expect(room["formatted_body"] as? String == #"see <a href="https://matrix.to/#/%23team:x.org">team</a>"#)
        #expect((room["m.mentions"] as? [String: Any])?["user_ids"] as? [String] == [])
    }

    @Test func matrixTextHoldingThePlaceholderCharacterIsKept() throws {
        let odd = String(Character(Unicode.Scalar(0xFDD0 as UInt32)!)) + "0" + String(Character(Unicode.Scalar(0xFDD1 as UInt32)!))
        #expect(try Self.html("a \(odd) @[John Doe](p1)").hasPrefix("a \(odd) <a href"))
    }

    @Test func aCommentThatIsNotMarkdownIsSentAsWritten() throws {
        let event = try Self.matrix("**x**\ny", from: .text)
        #expect(event["formatted_body"] as? String == "**x**<br>y")
    }

    // MARK: ADF

    /// The document's blocks as compact strings: `type[children]`, text as `"…"` with marks.
    static func outline(_ bytes: [UInt8]) throws -> String {
        func node(_ n: [String: Any]) -> String {
            let type = n["type"] as? String ?? "?"
            switch type {
            case "text":
                let marks = (n["marks"] as? [[String: Any]] ?? []).map { m -> String in
                    let t = m["type"] as? String ?? "?"
                    if t == "link", let href = (m["attrs"] as? [String: Any])?["href"] as? String { return "link=\(href)" }
                    return t
                }
                return "\"\(n["text"] as? String ?? "")\"" + (marks.isEmpty ? "" : "{\(marks.joined(separator: ","))}")
            case "mention":
                let attrs = n["attrs"] as? [String: Any] ?? [:]
                return "@<\(attrs["id"] as? String ?? "?")|\(attrs["text"] as? String ?? "?")>"
            default:
                var head = type
                if let attrs = n["attrs"] as? [String: Any] {
                    head += "(" + attrs.keys.sorted().map { "\($0)=\(attrs[$0]!)" }.joined(separator: ",") + ")"
                }
                let children = (n["content"] as? [[String: Any]] ?? []).map(node)
                return children.isEmpty ? head : head + "[" + children.joined(separator: " ") + "]"
            }
        }
        return node(try json(bytes))
    }

    @Test func jiraGetsTheStructureAndMarks() throws {
        #expect(try Self.outline(Self.adf("# Title @[John Doe](p1)\n\n**b** *e* ~~s~~ `c` [l](https://x.org)\nnext\n"))
            == #"doc[heading(level=1)["Title " @<5b10ac8d|@John Doe>] paragraph["b"{strong} " " "e"{em} " " "s"{strike} " " "c"{code} " " "l"{link=https://x.org} hardBreak "next"]]"#)
        #expect(try Self.outline(Self.adf("- a\n  1. b\n- c\n\n3. x\n\n> q\n\n---\n"))
            == #"doc[bulletList[listItem[paragraph["a"] orderedList[listItem[paragraph["b"]]]] listItem[paragraph["c"]]] orderedList(order=3)[listItem[paragraph["x"]]] blockquote[paragraph["q"]] rule]"#)
    }

    @Test func jiraCodeBlocksKeepTheirLanguageAndEveryLine() throws {
        let source = "```python\ndef f():\n\n    return 1 < 2\n\n```\n"
        #expect(try Self.outline(Self.adf(source))
            == "doc[codeBlock(language=python)[\"def f():\n\n    return 1 < 2\n\"]]")
    }

    @Test func jiraTablesHaveHeaderAndCells() throws {
        #expect(try Self.outline(Self.adf("| a | b |\n|---|---|\n| @[John Doe](p1) | **2** |\n"))
            == #"doc[table[tableRow[tableHeader[paragraph["a"]] tableHeader[paragraph["b"]]] tableRow[tableCell[paragraph[@<5b10ac8d|@John Doe>]] tableCell[paragraph["2"{strong}]]]]]"#)
    }

    @Test func jiraNestingADFRefusesIsWrittenInTheNearestForm() throws {
        // A heading in a quote is a bold paragraph; a quote in a quote gives its blocks to
        // the outer one; a list item starting with a list starts with an empty paragraph.
        #expect(try Self.outline(Self.adf("> # H\n> > inner\n\n- - x\n"))
            == #"doc[blockquote[paragraph["H"{strong}] paragraph["inner"]] bulletList[listItem[paragraph bulletList[listItem[paragraph["x"]]]]]]"#)
        // Code with other marks keeps only the code (and a link).
        #expect(try Self.outline(Self.adf("**`c`** [`d`](https://x.org)"))
            == #"doc[paragraph["c"{code} " " "d"{code,link=https://x.org}]]"#)
    }

    /// Text that follows text of the same marks joins its node, as Jira's editor makes
    /// it; a change of marks, a mention or a line break starts a new one.
    @Test func jiraRunsOfTextOfTheSameMarksAreOneNode() throws {
        #expect(try Self.outline(Self.adf("**a**b**c** *d*_e_ x\ny @[John Doe](p1) z"))
            == #"doc[paragraph["a"{strong} "b" "c"{strong} " " "de"{em} " x" hardBreak "y " @<5b10ac8d|@John Doe> " z"]]"#)
    }

    @Test func jiraPeopleItCannotNotifyAndChannelsAreText() throws {
        // Ann: accounts, none on Jira; Bo: no accounts (his id serves); #general: a channel.
        #expect(try Self.outline(Self.adf("@[Ann Lee](p2) @[Bo Chen](p3) #[general](C1)"))
            == ##"doc[paragraph["Ann Lee " @<p3|@Bo Chen> " #general"]]"##)
    }

    @Test func jiraAndSlackTextHoldingThePlaceholderCharacterIsKept() throws {
        let open = String(Character(Unicode.Scalar(0xFDD0 as UInt32)!)), close = String(Character(Unicode.Scalar(0xFDD1 as UInt32)!))
        let odd = open + "0" + close
        // The text's own U+FDD0 is a piece of its own, written in the text around it (one
        // run of text is one node, as in Jira's editor).
        #expect(try Self.outline(Self.adf("a \(odd) @[John Doe](p1)"))
            == "doc[paragraph[\"a \(odd) \" @<5b10ac8d|@John Doe>]]")
        #expect(Self.slack("a \(odd) @[John Doe](p1) `\(odd)`", from: .atpad) == "a \(odd) <@U0123> `\(odd)`")
    }

    /// U+FDD0, digits and U+FDD1 typed in code, a link's text or title, or beside a
    /// mention in a link's text, come out as typed in every composer: placeholders there
    /// are resolved once (a second reading took the typed three for a placeholder).
    @Test func thePlaceholderCharactersInCodeAndLinksAreKept() throws {
        let open = String(Character(Unicode.Scalar(0xFDD0 as UInt32)!)), close = String(Character(Unicode.Scalar(0xFDD1 as UInt32)!))
        let odd = open + "0" + close
        let source = "`a\(odd)b` [c\(odd)d @[John Doe](p1)](https://e.com/\(odd) \"t\(odd)\")"
        let html = try Self.html(source)
        #expect(html.contains("<code>a\(odd)b</code>"), "\(html)")
        #expect(html.contains(">c\(odd)d @John Doe</a>"), "\(html)")
        #expect(html.contains(#"title="t\#(odd)""#), "\(html)")
        #expect(html.contains("https://e.com/%EF%B7%900%EF%B7%91"), "\(html)")
        let adf = String(decoding: Self.adf(source), as: UTF8.self)
        #expect(adf.contains(#""text": "a\#(odd)b""#), "\(adf)")
        #expect(adf.contains(#""title": "t\#(odd)""#) && adf.contains("https://e.com/\(odd)"), "\(adf)")
        let outline = try Self.outline(Self.adf(source))
        let link = "{link=https://e.com/\(odd)}"
        #expect(outline.contains("\"c\(odd)d @John Doe\"\(link)"), "\(outline)")
        #expect(Self.slack(source, from: .atpad) == "`a\(odd)b` <https://e.com/\(odd)|c\(odd)d @John Doe>")
    }

    @Test func jiraMarkupIsSentAsWritten() throws {
        #expect(try Self.outline(Self.adf("*bold* h1. x", from: .jira)) == #"doc[paragraph["*bold* h1. x"]]"#)
    }

    /// Markdown fragments whose nesting ADF constrains, put together at random.
    static let fragments = [
        "# Head @[John Doe](p1)", "para *em* **strong** ~~s~~ `code`", "> quote\n> > nested\n> # heading in quote",
        "- item\n  - nested\n    1. deeper\n       > quote in item\n       # heading? no", "- - list first",
        "-\n", "1. \n2. x", "- [ ] task\n- [x] done", "```\ncode @[John Doe](p1)\n\n```", "    indented code",
        "| a | b |\n|---|---|\n| @[Ann Lee](p2) | `x` |", "- | t |\n  |---|\n  | c |", "> | t |\n> |---|\n> | c |",
        "---", "> ---", "- ---\n  ***", "<div>html</div>", "<b>inline</b> html", "[**bold link** `code`](https://x.org)",
        "![image *alt*](https://x.org/i.png)", "***both***", "**`code in strong`**", "line  \nhard break", "a\\\nb",
        "#[general](C1) @[Bo Chen](p3) @[Cy Ng](p4)", "> - list in quote\n>   - nested", ">", "> ```\n> code in quote\n> ```",
        "Setext\n===", "* * *", "1) paren", "0. zero start", "[ref]\n\n[ref]: https://x.org", "<https://auto.link>",
        "www.example.com", "a@b.com", "", "\t\ttabs", "> - > - deep",
    ]

    @Test(arguments: 0 ..< 4)
    func everyADFDocumentObeysTheNodeAndMarkRules(chunk: Int) throws {
        var rng = SeededRandom(seed: 0xADF0_0000 &+ UInt64(chunk))
        for round in 0 ..< 150 {
            var parts: [String] = []
            for _ in 0 ..< rng.int(1 ..< 7) {
                var part = rng.pick(Self.fragments)
                // Nested inside a list item or a quote, at random.
                switch rng.int(0 ..< 4) {
                case 0: part = "- " + part.replacing("\n", with: "\n  ")
                case 1: part = "> " + part.replacing("\n", with: "\n> ")
                case 2: part = "1. " + part.replacing("\n", with: "\n   ")
                default: break
                }
                parts.append(part)
            }
            let source = parts.joined(separator: rng.chance(0.5) ? "\n\n" : "\n")
            let violations = ADFRules.violations(Self.adf(source))
            #expect(violations.isEmpty, "round \(round) of chunk \(chunk): \(violations) for \(source.debugDescription)")
        }
    }

    // MARK: Slack

    @Test func slackGetsMrkdwn() {
        #expect(Self.slack("**b** *e* ~~s~~ `c` [t](https://u.org) <https://a.org> x") == "*b* _e_ ~s~ `c` <https://u.org|t> <https://a.org> x")
        #expect(Self.slack("# Title\n\n- a\n- b\n  - c\n\n1. x\n2. y\n\n> q\n> r\n") == "*Title*\n\n• a\n• b\n    • c\n\n1. x\n2. y\n\n> q\n> r\n")
        #expect(Self.slack("```js\nif (a < b && c) {}\n```\n") == "```\nif (a &lt; b &amp;&amp; c) {}\n```\n")
    }

    @Test func slackEscapesTextAndWritesItsOwnMentions() {
        #expect(Self.slack("a & b < c > d @[John Doe](p1) #[general](C1) @[Bo Chen](p3)") == "a &amp; b &lt; c &gt; d <@U0123> <#C0999> <@p3>")
        // Cy has accounts but none on Slack: his name, not an @ that reads as someone else.
        #expect(Self.slack("thanks @[Cy Ng](p4)") == "thanks Cy Ng")
    }

    @Test func slackMarkupAndFilesAreSentAsWritten() {
        // A comment in Slack's own markup, and a .slack file saved by the editor (no source).
        #expect(Self.slack("*b* <!here>", from: .slack) == "*b* &lt;!here&gt;")
        #expect(Self.slack("**b**", from: nil) == "**b**")
    }
}
