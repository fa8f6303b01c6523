import Testing
@testable import AtpadCore

/// docs/people.md, "One person, many accounts": each format writes its own service's id from an
/// entity's `accounts`, reads it first, and lists the mentions it had no id for.
@Suite("accounts")
struct AccountsTests {
    /// John has an account everywhere; Ann has none on gitlab or matrix; Bo has none at
    /// all (the directory's id and handle serve, as before accounts); the decoy's id is
    /// John's Slack id.
    static let john = Entity(id: "p1", name: "John Doe", handle: "john", accounts: [
        .github: "jdoe", .gitlab: "jdoe-gl", .slack: "U0123", .jira: "5b10ac8d", .zulip: "42",
        .matrix: "@jdoe:example.org",
    ])
    static let ann = Entity(id: "p2", name: "Ann Lee", handle: "annl", accounts: [.github: "ann-gh", .slack: "U0456"])
    static let bo = Entity(id: "p3", name: "Bo Chen", handle: "bo")
    static let decoy = Entity(id: "U0123", name: "Not John")
    static let directory = lookup([john, ann, bo, decoy])

    static let doc = markup("hi @[John Doe](p1), @[Ann Lee](p2) and @[Bo Chen](p3)")

    @Test func theOneFunctionPicksEachServicesID() {
        let m = Self.doc.mentions
        let d = Self.directory
        #expect(d.writtenID(of: m[0], in: .github) == .id("jdoe"))
        #expect(d.writtenID(of: m[0], in: .gitlab) == .id("jdoe-gl"))
        #expect(d.writtenID(of: m[0], in: .slack) == .id("U0123"))
        #expect(d.writtenID(of: m[0], in: .jira) == .id("5b10ac8d"))
        #expect(d.writtenID(of: m[0], in: .zulip) == .id("42"))
        #expect(d.writtenID(of: m[0], in: .matrix) == .id("@jdoe:example.org"))
        // No service of its own: accounts do not apply.
        #expect(d.writtenID(of: m[0], in: .discord) == .id("p1"))
        #expect(d.writtenID(of: m[0], in: .mattermost) == .id("john"))
        #expect(d.writtenID(of: m[1], in: .gitlab) == .missing)
        #expect(d.writtenID(of: m[1], in: .jira) == .missing)
        #expect(d.writtenID(of: m[2], in: .github) == .id("bo"))
        #expect(d.writtenID(of: m[2], in: .slack) == .id("p3"))
        // Unknown to the directory: what the mention carries.
        let stranger = Mention(trigger: "@", id: "x9", name: "X", start: 0)
        #expect(d.writtenID(of: stranger, in: .github) == .shown)
        #expect(d.writtenID(of: stranger, in: .slack) == .id("x9"))
    }

    @Test func eachFormatWritesItsOwnServicesID() {
        let d = Self.directory
        #expect(DocumentFormat.github.encode(Self.doc, lookup: d) == "hi @jdoe, @ann-gh and @bo")
        // Ann has no GitLab, Jira or Zulip account: her name, without an @ that would
        // read as someone else or notify no one.
        #expect(DocumentFormat.gitlab.encode(Self.doc, lookup: d) == "hi @jdoe-gl, Ann Lee and @bo")
        #expect(DocumentFormat.slack.encode(Self.doc, lookup: d) == "hi <@U0123>, <@U0456> and <@p3>")
        #expect(DocumentFormat.jira.encode(Self.doc, lookup: d) == "hi [~accountid:5b10ac8d], Ann Lee and [~accountid:p3]")
        #expect(DocumentFormat.zulip.encode(Self.doc, lookup: d) == "hi @**John Doe|42**, Ann Lee and @**Bo Chen|p3**")
        let matrix = DocumentFormat.matrix.encode(Self.doc, lookup: d)
        // Ann has no Matrix account: her name, without an @ that would read as someone else.
        #expect(matrix.contains(#"<a href=\"https://matrix.to/#/@jdoe:example.org\">John Doe</a>, Ann Lee and <a href=\"https://matrix.to/#/p3\">"#))
        #expect(matrix.hasSuffix(#""m.mentions": {"user_ids": ["@jdoe:example.org", "p3"]}}"#))
        // Discord has no service: the directory's ids.
        #expect(DocumentFormat.discord.encode(Self.doc, lookup: d) == "hi <@p1>, <@p2> and <@p3>")
    }

    /// A person with accounts but none on GitHub, whose handle is a word of their name:
    /// `@Bob Builder` in a `.md` file would read back as `@Bob` and ` Builder` (and be
    /// sent to Matrix as `@Bob Builder Builder`). Their name alone reads back as text.
    @Test func someoneTheServiceCannotNotifyIsTheirNameAloneAndReadsBackAsText() throws {
        let bob = Entity(id: "p5", name: "Bob Builder", handle: "Bob", accounts: [.matrix: "@bob:example.org"])
        let d = lookup([Self.john, bob])
        let doc = markup("Thanks @[Bob Builder](p5) and @[John Doe](p1)")
        let written = DocumentFormat.github.encode(doc, lookup: d)
        #expect(written == "Thanks Bob Builder and @jdoe")
        let read = try DocumentFormat.github.decode(written, lookup: d)
        #expect(read.document.text == "Thanks Bob Builder and @jdoe")
        #expect(read.document.mentions.map(\.id) == ["p1"])
        #expect(DocumentFormat.slack.encode(doc, lookup: d) == "Thanks Bob Builder and <@U0123>")
        #expect(d.missingAccountNote(in: doc, format: .github) == "1 mention has no github account and will not be notified: @Bob Builder")
    }

    @Test func renderingFromGitHubToSlackPingsTheSlackAccount() throws {
        let d = Self.directory
        let read = try DocumentFormat.github.decode("thanks @jdoe and @ANN-GH!", lookup: d)
        #expect(summary(read.document) == ["@p1 John Doe 7", "@p2 Ann Lee 17"])
        #expect(DocumentFormat.slack.encode(read.document, lookup: d) == "thanks <@U0123> and <@U0456>!")
        #expect(DocumentFormat.jira.encode(read.document, lookup: d) == "thanks [~accountid:5b10ac8d] and Ann Lee!")
        // The github account keeps the case it was read in.
        #expect(DocumentFormat.github.encode(MarkedText(text: read.document.text, mentions: read.document.mentions.map {
            var m = $0; m.source = nil; return m
        }), lookup: d) == "thanks @jdoe and @ANN-GH!")
    }

    @Test func readingResolvesTheServicesAccountBeforeTheID() throws {
        let d = Self.directory
        // `U0123` is John's Slack account and also the decoy's id: the account wins.
        #expect(summary(try DocumentFormat.slack.decode("<@U0123> <@p3>", lookup: d).document) == ["@p1 John Doe 0", "@p3 Bo Chen 10"])
        // Discord has no accounts: the id.
        #expect(summary(try DocumentFormat.discord.decode("<@U0123>", lookup: d).document) == ["@U0123 Not John 0"])
        #expect(summary(try DocumentFormat.jira.decode("[~accountid:5b10ac8d]", lookup: d).document) == ["@p1 John Doe 0"])
        #expect(summary(try DocumentFormat.zulip.decode("@**Johnny|42**", lookup: d).document) == ["@p1 Johnny 0"])
        #expect(summary(try DocumentFormat.gitlab.decode("@jdoe-gl @john", lookup: d).document) == ["@p1 John Doe 0", "@p1 John Doe 9"])
        // The handle still reads, as before accounts.
        #expect(summary(try DocumentFormat.github.decode("@annl", lookup: d).document) == ["@p2 Ann Lee 0"])
    }

    @Test func theMentionsWithoutAnAccountAreListedAndNoted() {
        let d = Self.directory
        #expect(d.mentionsWithoutAccount(in: Self.doc, format: .gitlab).map(\.id) == ["p2"])
        #expect(d.mentionsWithoutAccount(in: Self.doc, format: .slack).isEmpty)
        #expect(d.mentionsWithoutAccount(in: Self.doc, format: .discord).isEmpty)
        #expect(d.missingAccountNote(in: Self.doc, format: .jira) == "1 mention has no jira account and will not be notified: @Ann Lee")
        let twice = markup("@[Ann Lee](p2) @[Ann Lee](p2)")
        #expect(d.missingAccountNote(in: twice, format: .matrix)
            == "2 mentions have no matrix account and will not be notified: @Ann Lee")
        #expect(d.missingAccountNote(in: Self.doc, format: .slack) == nil)
    }

    @Test func aPickedMentionCarriesItsAccountsForALookupWithoutThem() {
        // Picked from a command's answer: the formats' lookup does not hold the person.
        let m = Mention(trigger: "@", entity: Self.ann, start: 0)
        let doc = MarkedText(text: m.text, mentions: [m])
        #expect(DocumentFormat.slack.encode(doc) == "<@U0456>")
        #expect(DocumentFormat.jira.encode(doc) == "Ann Lee")
        #expect(EntityLookup.empty.missingAccountNote(in: doc, format: .jira)
            == "1 mention has no jira account and will not be notified: @Ann Lee")
        // The directory's accounts win over the hint.
        let moved = lookup([Entity(id: "p2", name: "Ann Lee", accounts: [.slack: "U9999"])])
        #expect(DocumentFormat.slack.encode(doc, lookup: moved) == "<@U9999>")
    }

    @Test func aTokenReadFromTheFormatIsWrittenAsItWasAndNotListed() throws {
        // Ann's id read from a Jira file that names her by directory id: written back as read.
        let read = try DocumentFormat.jira.decode("[~accountid:p2]", lookup: Self.directory)
        #expect(summary(read.document) == ["@p2 Ann Lee 0"])
        #expect(DocumentFormat.jira.encode(read.document, lookup: Self.directory) == "[~accountid:p2]")
        #expect(Self.directory.mentionsWithoutAccount(in: read.document, format: .jira).isEmpty)
    }

    /// For every format with a service, random documents mentioning people with accounts
    /// (and one without) are written and read back to the same document. Slack escapes
    /// its text, so any text goes; the formats that write text as it is get text that
    /// spells no mention of its own, and a space around each mention.
    @Test(arguments: [DocumentFormat.github, .gitlab, .slack, .jira, .zulip])
    func roundTripsThroughTheAccounts(format: DocumentFormat) throws {
        let people = [Self.john, Self.bo, Entity(id: "p4", name: "Zoë Ørsted", accounts: [
            .github: "zoe", .gitlab: "zoe.o", .slack: "U9&<", .jira: "abc:def", .zulip: "7",
        ])]
        let directory = lookup(people)
        let alphabet = ["a", "é", "王", "\n", ".", ",", "!", "(", ")", "&", "<", ">", "|", "*", "[", "]", "#", "@", "-", " ", "x"]
        for n in 0 ..< 1000 {
            let seed = 0xACC0_0000 &+ UInt64(n)
            var gen = NastyDocuments(rng: SeededRandom(seed: seed))
            var text = ""
            var mentions: [Mention] = []
            for _ in 0 ..< gen.rng.int(0 ..< 6) {
                if format == .slack {
                    text += gen.string(0 ..< 5)
                } else {
                    for _ in 0 ..< gen.rng.int(0 ..< 6) { text += gen.rng.pick(alphabet) }
                    text += " "
                }
                let m = Mention(trigger: "@", entity: gen.rng.pick(people), start: text.unicodeScalars.count)
                mentions.append(m)
                text += m.text + " "
            }
            let doc = MarkedText(text: text, mentions: mentions)
            let written = format.encode(doc, lookup: directory)
            let read = try format.decode(written, lookup: directory)
            // A format whose readers see handles shows them; as names it is the same document.
            let back = directory.showing(read.document, in: .atpad)
            guard back == doc, back.text.unicodeScalars.elementsEqual(doc.text.unicodeScalars) else {
                Issue.record("\(format) seed \(seed): \(String(reflecting: written)) read \(read.document.mentions)")
                return
            }
        }
    }
}
