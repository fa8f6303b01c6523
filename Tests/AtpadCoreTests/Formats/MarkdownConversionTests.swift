import Testing
@testable import AtpadCore

/// Converting a GitHub comment keeps code as code: a handle in code or a URL never
/// becomes a mention in the target format, and the code comes out byte for byte.
@Suite("Markdown conversion")
struct MarkdownConversionTests {
    let people = lookup(formatPeople)

    /// Code and URLs with `@jdoe` in them, and one real mention.
    static let comment = """
        Thanks @jdoe!

            git blame # ask @jdoe

        1. ```sh
           make @jdoe
           ```
        2. `grep @jdoe` and https://x.example/?u=@jdoe and [link](https://example.com?@jdoe=3)
        > ~~~
        > @jdoe in a quoted fence
        > ~~~

        """

    static let codeLines = [
        "    git blame # ask @jdoe", "   make @jdoe", "`grep @jdoe`", "https://x.example/?u=@jdoe",
        "[link](https://example.com?@jdoe=3)", "> @jdoe in a quoted fence",
    ]

    @Test(arguments: [DocumentFormat.slack, .discord, .jira, .zulip, .markdown, .github, .gitlab, .mattermost])
    func codeStaysCode(format: DocumentFormat) throws {
        let read = try DocumentFormat.github.decode(Self.comment, lookup: people)
        #expect(read.document.mentions.count == 1)
        let written = format.encode(read.document, lookup: people)
        for line in Self.codeLines {
            // Slack requires `&`, `<` and `>` escaped everywhere, code included.
            let expected = format == .slack ? line.replacingOccurrences(of: ">", with: "&gt;") : line
            #expect(written.contains(expected), "\(format): \(expected)")
        }
        // The one mention outside code is written in the target's own form.
        #expect(written.hasPrefix("Thanks "))
        #expect(!written.hasPrefix("Thanks @jdoe") || format == .github || format == .gitlab || format == .mattermost)
    }

    /// Discord shows code as written, so a converted comment's `<@id>` in a code span or a
    /// fenced block stays byte for byte; outside code it is escaped so it pings no one. A
    /// Discord document of its own escapes everywhere (its bytes never depend on where a
    /// backtick is typed).
    @Test func discordKeepsAngleMentionsInCodeWhenConverting() throws {
        let text = "see `<@123>` and <@456> and \\`<#7>`\n\n```\nx <#9> \\<@1>\n```\n\n    <@2> indented\n"
        let read = try DocumentFormat.github.decode(text, lookup: people)
        let converted = String(decoding: DocumentFormat.discord.encodeUTF8(read.document, lookup: people, from: .github),
                               as: UTF8.self)
        #expect(converted == "see `<@123>` and \\<@456> and \\`\\<#7>`\n\n```\nx <#9> \\<@1>\n```\n\n    \\<@2> indented\n")
        // Discord's own documents: the escape applies in code too, and reads back.
        let own = DocumentFormat.discord.encode(read.document, lookup: people)
        #expect(own.hasPrefix("see `\\<@123>`"))
        #expect(try DocumentFormat.discord.decode(own, lookup: people).document.text == read.document.text)
        #expect(DocumentFormat.discord.encode(read.document, lookup: people)
            == String(decoding: DocumentFormat.discord.encodeUTF8(read.document, lookup: people, from: .discord), as: UTF8.self))
    }

    @Test func matrixMentionsOnlyThePersonOutsideCode() throws {
        let read = try DocumentFormat.github.decode(Self.comment, lookup: people)
        let written = DocumentFormat.matrix.encode(read.document, lookup: people)
        #expect(written.contains("\"m.mentions\": {\"user_ids\": [\"u1\"]}"))
        #expect(written.components(separatedBy: "https://matrix.to/#/u1").count == 2)
    }

    @Test func issueExamplesReadAsGitHubDoes() throws {
        func handles(_ text: String) throws -> Int {
            try DocumentFormat.github.decode(text, lookup: people).document.mentions.count
        }
        #expect(try handles("Steps:\n\n    git blame # ask @jdoe\n\nthanks\n") == 0)
        #expect(try handles("1. ```sh\n   make\n   ```\n2. then ping @jdoe\n\nThanks @jdoe!\n") == 2)
        #expect(try handles("- ```\n  @jdoe\n  ```\n") == 0)
        #expect(try handles("- use `foo\n- ask @jdoe about `bar`\n") == 1)
        #expect(try handles("> ```\n> @jdoe aaa\n") == 0)
        #expect(try handles("https://x.example/?u=@jdoe [link](https://example.com?@jdoe=3)") == 0)
        #expect(try handles("<span title=\"@jdoe\">x</span> <!-- @jdoe -->") == 0)
        #expect(try handles("*@jdoe* **@jdoe** ~~@jdoe~~ # @jdoe") == 4)
    }
}
