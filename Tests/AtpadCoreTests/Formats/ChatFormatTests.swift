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
