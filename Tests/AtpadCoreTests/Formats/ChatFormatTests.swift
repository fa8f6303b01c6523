import Testing
@testable import AtpadCore

@Suite("slack format")
struct SlackFormatTests {
    let directory = lookup(formatPeople, channels: formatChannels)

    @Test func mentionsAreIDsAndTextIsEscaped() {
        let doc = markup("a < b && c > d, @[John Doe](u1) in #[general](C1) ~[x](y)")
        #expect(DocumentFormat.slack.encode(doc) == "a &lt; b &amp;&amp; c &gt; d, <@u1> in <#C1> <@y>")
    }

    @Test func idsAreEscapedToo() {
        #expect(DocumentFormat.slack.encode(markup("@[A](a<&>b)")) == "<@a&lt;&amp;&gt;b>")
    }

    @Test func readingUndoesEscapesAndResolvesIDs() throws {
        let read = try DocumentFormat.slack.decode("&lt;b&gt; &amp;amp; <@u1> <@u2|jane> <#C1|general> &copy;", lookup: directory)
        #expect(read.document.text == "<b> &amp; @John Doe @Jane Roe #general &copy;")
        #expect(summary(read.document) == ["@u1 John Doe 10", "@u2 Jane Roe 20", "#C1 general 30"])
        // A `&` that is not one of Slack's three escapes is kept as written.
        #expect(kept(read.document) == ["&"])
        #expect(read.notes.isEmpty)
    }

    @Test func unknownIDsStayTextWithANote() throws {
        let read = try DocumentFormat.slack.decode("<@U999> <#C9|x> <@u1> <https://a.b|link> <!here>", lookup: directory)
        #expect(read.document.text == "<@U999> <#C9|x> @John Doe <https://a.b|link> <!here>")
        #expect(read.notes == ["2 mentions not in the directory were left as text: <@U999>, <#C9|x>"])
    }

    @Test func channelIDsResolveOnlyInTheChannelDirectory() throws {
        let read = try DocumentFormat.slack.decode("<#u1>", lookup: directory)
        #expect(read.document.listedMentions.isEmpty)
        #expect(kept(read.document) == ["<#u1>"])
    }

    @Test func roundTripsWithTheDirectory() throws {
        let doc = markup("x <@u1> & @[John Doe](u1)#[general](C1)")
        let read = try DocumentFormat.slack.decode(DocumentFormat.slack.encode(doc), lookup: directory)
        #expect(read.document == doc)
    }
}

@Suite("discord format")
struct DiscordFormatTests {
    let directory = lookup(formatPeople, channels: formatChannels)

    @Test func mentionsAreIDsAndOnlyMentionLikeTextIsEscaped() {
        let doc = markup("a < b & <@123> <#9> <x> @[John Doe](u1) #[general](C1) **bold**")
        #expect(DocumentFormat.discord.encode(doc) == #"a < b & \<@123> \<#9> <x> <@u1> <#C1> **bold**"#)
    }

    @Test func readingResolvesIDsAndUndoesTheEscape() throws {
        let read = try DocumentFormat.discord.decode(#"<@u1> <@!u2> <#C1> \<@u1> \o/"#, lookup: directory)
        #expect(read.document.text == #"@John Doe @Jane Roe #general <@u1> \o/"#)
        #expect(summary(read.document) == ["@u1 John Doe 0", "@u2 Jane Roe 10", "#C1 general 20"])
        #expect(read.notes.isEmpty)
    }

    @Test func unknownIDsStayTextWithANote() throws {
        let read = try DocumentFormat.discord.decode("<@123> <@&5> <#7>", lookup: directory)
        #expect(read.document.text == "<@123> <@&5> <#7>")
        #expect(read.notes == ["3 mentions not in the directory were left as text: <@123>, <@&5>, <#7>"])
    }

    @Test func backslashBeforeEscapedTextRoundTrips() throws {
        let doc = MarkedText(text: #"\<@1> \\<#2>"#)
        #expect(try DocumentFormat.discord.decode(DocumentFormat.discord.encode(doc)).document == doc)
    }
}

/// Kept constructs (docs/formats.md): what Slack and Discord give a meaning to but atpad
/// does not make a mention of is kept as written, and typed text next to it is escaped as
/// the format needs.
@Suite("kept constructs")
struct KeptConstructTests {
    let directory = lookup(formatPeople + [Entity(id: "1", name: "Ana Lima")], channels: formatChannels)

    /// Reads `file`, types `typed` at the end, and writes the format again.
    func typeAtEnd(_ format: DocumentFormat, _ file: String, _ typed: String) throws -> (MarkedText, String) {
        let doc = try format.decode(file, lookup: directory).document
        var editor = Editor(doc)
        for character in typed { _ = editor.handle(.char(character)) }
        return (doc, format.encode(editor.marked, lookup: directory))
    }

    @Test func theSlackExampleOfTheIssueComesBack() throws {
        let file = "<!here> deploy done <@u1> see <https://example.com|docs> and <#C999|ops>"
        let (doc, saved) = try typeAtEnd(.slack, file, "!")
        #expect(saved == file + "!")
        #expect(kept(doc) == ["<!here>", "<https://example.com|docs>", "<#C999|ops>"])
        #expect(summary(doc) == ["@u1 John Doe 20"])
        #expect(doc.text == "<!here> deploy done @John Doe see <https://example.com|docs> and <#C999|ops>")
    }

    @Test func slackSpecialsAndEntitiesAreKept() throws {
        let file = "<!subteam^S1|@team> <!channel> <mailto:a@b.c|mail> &amp; &lt;b&gt; a & b < c > d <@u1|johnny>"
        let (doc, saved) = try typeAtEnd(.slack, file, " <&>")
        #expect(saved == file + " &lt;&amp;&gt;")
        // `< c >` is a `<…>` on one line: kept whole, as Slack would read it.
        #expect(kept(doc) == ["<!subteam^S1|@team>", "<!channel>", "<mailto:a@b.c|mail>", "&", "< c >"])
        // The label is kept with the mention.
        #expect(DocumentFormat.slack.encode(doc) == file)
        #expect(doc.listedMentions.map(\.id) == ["u1"])
    }

    @Test func theDiscordExampleOfTheIssueComesBack() throws {
        let file = "hey <@123456> and <#C01> <@!1> <@&2> <:party:4> <a:wave:5> <t:1700000000:R> </deploy:6>"
        let (doc, saved) = try typeAtEnd(.discord, file, " <@x")
        #expect(saved == file + " \\<@x")
        #expect(kept(doc) == ["<@123456>", "<#C01>", "<@&2>", "<:party:4>", "<a:wave:5>", "<t:1700000000:R>", "</deploy:6>"])
        // `<@!1>` is a mention the directory knows, written back with its `!`.
        #expect(summary(doc) == ["@1 Ana Lima 25"])
    }

    @Test func discordBackslashesBeforeKeptConstructs() throws {
        for file in ["\\\\<@&2>", "\\\\<:party:4>", "\\<@&2>", "\\\\\\<@1>", "<@ x", "\\\\<@ x", "<@<@1>"] {
            let doc = try DocumentFormat.discord.decode(file, lookup: directory).document
            #expect(DocumentFormat.discord.encode(doc) == file, "\(file)")
        }
    }

    @Test func inAnotherFormatAKeptConstructIsItsText() throws {
        let doc = try DocumentFormat.slack.decode("<!here> & <@u1>", lookup: directory).document
        #expect(DocumentFormat.github.encode(doc, lookup: directory) == "<!here> & @jdoe")
        #expect(DocumentFormat.discord.encode(doc) == "<!here> & <@u1>")
        #expect(DocumentFormat.plain.encode(doc) == "<!here> & @John Doe")
        #expect(MentionJSON.array(doc).contains("u1"))
        #expect(!MentionJSON.array(doc).contains("here"))
        let discord = try DocumentFormat.discord.decode("<:party:4> &", lookup: directory).document
        #expect(DocumentFormat.slack.encode(discord) == "&lt;:party:4&gt; &amp;")
        // Markup has no kept constructs: they are text there.
        #expect(AtpadMarkup.encode(doc) == "<!here> & @[John Doe](u1)")
    }

    @Test func aKeptConstructIsAtomicAndDeletedWhole() throws {
        let doc = try DocumentFormat.slack.decode("x <!here> y", lookup: directory).document
        var editor = Editor(doc, cursor: 2)
        _ = editor.handle(.right)
        #expect(editor.cursor == 9)
        _ = editor.handle(.backspace)
        #expect(editor.selectedMention?.isKept == true)
        #expect(editor.text == "x <!here> y")
        _ = editor.handle(.backspace)
        #expect(editor.text == "x  y")
        _ = editor.handle(.ctrl("z"))
        #expect(kept(editor.marked) == ["<!here>"])
        #expect(DocumentFormat.slack.encode(editor.marked) == "x <!here> y")
    }

    @Test func trimmingLeavesKeptConstructsWhole() throws {
        let doc = try DocumentFormat.slack.decode("<https://a.example|the docs>", lookup: directory).document
        var config = EditorConfig()
        config.trimMentions = true
        var editor = Editor(doc, config: config)
        _ = editor.handle(.backspace)
        _ = editor.handle(.backspace)
        #expect(editor.text == "")
    }
}

extension KeptConstructTests {
    @Test func ctrlSpaceOnASelectedKeptConstructStartsANewMentionInstead() throws {
        let doc = try DocumentFormat.slack.decode("x <!here>", lookup: directory).document
        var editor = Editor(doc)
        _ = editor.handle(.backspace)
        #expect(editor.selectedMention?.isKept == true)
        _ = editor.handle(.ctrlSpace)
        #expect(editor.search?.retarget == nil)
        #expect(kept(editor.marked) == ["<!here>"])
    }
}
