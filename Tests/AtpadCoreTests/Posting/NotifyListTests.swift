import Testing
@testable import AtpadCore

@Suite("who a post notifies")
struct NotifyListTests {
    let github = PostTarget.github(owner: "o", repository: "r", number: 1)
    let slack = PostTarget.slack(channel: "C1", thread: nil)

    @Test func everyPersonOnceInOrder() {
        let list = NotifyList(markup("@[John Doe](u1) and @[Jane Roe](u2), again @[John Doe](u1)"), target: github)
        #expect(list.people == ["@John Doe", "@Jane Roe"])
        #expect(list.teams == [] && list.notMentions == [])
        #expect(list.summary == "Notifies @John Doe and @Jane Roe")
    }

    /// A person with accounts elsewhere but none on the target's service is written as
    /// shown: the question says they will not be notified
    /// (docs/people.md, "One person, many accounts").
    @Test func aPersonWithoutAnAccountThereIsNamedApart() {
        let directory = lookup([Entity(id: "p1", name: "John Doe", accounts: [.slack: "U01"]),
                                Entity(id: "p2", name: "Ann Lee", accounts: [.github: "annl"])])
        let doc = markup("@[John Doe](p1) and @[Ann Lee](p2)")
        let list = NotifyList(doc, target: slack, lookup: directory)
        #expect(list.people == ["@John Doe"])
        #expect(list.withoutAccount == ["@Ann Lee"])
        #expect(list.summary == "Notifies @John Doe; @Ann Lee has no slack account (written as shown, not notified)")
        // Without the directory nothing is known of accounts.
        #expect(NotifyList(doc, target: slack).withoutAccount == [])
    }

    @Test func nobody() {
        #expect(NotifyList(markup("just text, a@b.com"), target: github).summary == "Notifies nobody")
        // A channel is not a person.
        #expect(NotifyList(markup("see #[general](C1)"), target: slack).summary == "Notifies nobody")
    }

    @Test func teamsAreShownAsTeams() {
        var doc = markup("cc @[octo/reviewers](t1) @[Ann](u1)")
        doc.mentions[0].handle = "octo/reviewers"
        let list = NotifyList(doc, target: github)
        #expect(list.people == ["@Ann"])
        #expect(list.teams == ["@octo/reviewers"])
        #expect(list.summary == "Notifies @Ann and the team @octo/reviewers")
        // GitHub reads a typed team from the text; Slack does not.
        #expect(NotifyList(markup("cc @octo/docs."), target: github).summary == "Notifies the team @octo/docs")
        #expect(NotifyList(markup("cc @octo/docs."), target: slack).summary == "Notifies nobody; @octo/docs is not a mention")
    }

    @Test func wordsThatLookLikeMentionsButAreNot() {
        let list = NotifyList(markup("hi @[John Doe](u1), @ghost and @jane.roe. Also @Ghost, mail a@b.com, @@x, @ alone, @王伟"), target: github)
        #expect(list.notMentions == ["@ghost", "@jane.roe", "@王伟"])
        #expect(list.summary == "Notifies @John Doe; @ghost, @jane.roe and @王伟 are not mentions")
        #expect(NotifyList(markup("@ghost"), target: slack).summary == "Notifies nobody; @ghost is not a mention")
    }

    @Test func codeIsSkippedWhereTheServiceSkipsIt() {
        let text = "run `@ghost` and\n```\n@bot deploy\n```\n@real"
        #expect(NotifyList(markup(text), target: github).notMentions == ["@real"])
        #expect(NotifyList(markup(text), target: slack).notMentions == ["@ghost", "@bot", "@real"])
    }

    @Test func keptConstructsOfTheFileAreTextToo() throws {
        // An unknown login read from a github file is kept as it was: still not a mention.
        let doc = try DocumentFormat.github.decode("hi @ghost", lookup: EntityLookup(["@": [Entity(id: "u1", name: "John Doe", handle: "jdoe")]])).document
        #expect(NotifyList(doc, target: github).summary == "Notifies nobody; @ghost is not a mention")
    }

    @Test func mentionsAfterWideTextAreFoundByTheirBytes() {
        let list = NotifyList(markup("日本語 🚀 @[Ann](u1) @x"), target: github)
        #expect(list.people == ["@Ann"])
        #expect(list.notMentions == ["@x"])
    }

    @Test func slacksOwnPingsOfAWholeChannelOrTeamAreNamed() throws {
        let people = EntityLookup(["@": [Entity(id: "U1", name: "Ann")]])
        let doc = try DocumentFormat.slack.decode("<!here> <@U1> <!subteam^S1|@design> <@U9> <!here>", lookup: people).document
        let list = NotifyList(doc, target: slack)
        #expect(list.summary == "Notifies @Ann, <@U9> (not in the directory), the team @design and everyone in the channel (@here)")
        // Sent elsewhere they are plain text, and GitHub would read `@U9` as a login; but
        // `<!subteam^S1|@design>` is raw HTML to GitHub's parser (a declaration), where it
        // reads no mention.
        #expect(NotifyList(doc, target: github).summary == "Notifies @Ann; @U9 is not a mention")
    }
}
