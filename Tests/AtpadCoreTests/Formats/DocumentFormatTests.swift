import Testing
@testable import AtpadCore

@Suite("DocumentFormat")
struct DocumentFormatTests {
    @Test func namesParse() throws {
        for format in DocumentFormat.allCases {
            #expect(try DocumentFormat(name: format.rawValue) == format)
        }
        #expect(try DocumentFormat(name: "GitHub") == .github)
    }

    @Test func unknownNameListsTheFormats() {
        #expect(throws: FormatError("unknown format 'html'; the formats are atpad, github, gitlab, mattermost, slack, discord, jira, zulip, matrix, adf, markdown, plain, text, json")) {
            try DocumentFormat(name: "html")
        }
    }

    /// Only `.atpad` and `.json` name a format whatever the config says (a `.json` file
    /// holding anything but atpad's comment object is `text`).
    @Test func onlyAtpadAndJSONExtensionsImplyAFormat() {
        let rule = FormatRule(patterns: [.init(glob: "*", format: .slack)], fallback: .slack)
        #expect(rule.format(of: "a/comment.json") == .json)
        #expect(rule.format(of: "C.JSON") == .json)
        #expect(rule.format(of: "notes.atpad") == .atpad)
        #expect(rule.format(of: "x/N.Atpad") == .atpad)
        #expect(rule.format(of: "comment.md") == .slack)
        #expect(rule.format(of: "json") == .slack)
        #expect(rule.format(of: ".atpad") == .slack)
        #expect(rule.format(of: "atpad.json/COMMIT_EDITMSG") == .slack)
    }

    @Test func whichFormatsAskTheDirectory() {
        // Slack, Jira (wiki markup and ADF), Zulip and Matrix ask for an entity's accounts on
        // their service: a `.atpad` comment rendered to ADF gets the person's Jira account.
        #expect(DocumentFormat.allCases.filter(\.encodingUsesDirectory)
            == [.github, .gitlab, .mattermost, .slack, .jira, .zulip, .matrix, .adf, .markdown, .text])
        #expect(DocumentFormat.allCases.filter(\.decodingUsesDirectory)
            == [.github, .gitlab, .mattermost, .slack, .discord, .jira, .zulip, .markdown])
        #expect(DocumentFormat.allCases.filter(\.isOutputOnly) == [.matrix, .adf])
    }

    @Test func plainIsTheTextAsShown() throws {
        let doc = markup("hi @[John Doe](u1) \\@[x")
        #expect(DocumentFormat.plain.encode(doc) == "hi @John Doe @[x")
        #expect(try DocumentFormat.plain.decode("hi @John Doe").document == MarkedText(text: "hi @John Doe"))
    }

    @Test func atpadAndJSONDelegateToTheirCodecs() throws {
        let doc = markup("hi @[John Doe](u1)")
        #expect(DocumentFormat.atpad.encode(doc) == AtpadMarkup.encode(doc))
        #expect(DocumentFormat.json.encode(doc) == MentionJSON.document(doc))
        #expect(try DocumentFormat.atpad.decode("hi @[John Doe](u1)").document == doc)
    }

    @Test func encodersWriteAnInvalidMentionAsItsText() {
        var doc = markup("hi @[John Doe](u1)!")
        doc.mentions[0].name = "Jon"  // no longer the text it covers
        for format in [DocumentFormat.github, .gitlab, .mattermost, .slack, .discord, .jira, .zulip, .matrix, .markdown] {
            #expect(format.encode(doc).contains("@John Doe!"), "\(format)")
        }
    }

    @Test func mentionEqualityIgnoresHandleAndURL() {
        let a = Mention(trigger: "@", id: "u1", name: "John", start: 0)
        let b = Mention(trigger: "@", id: "u1", name: "John", start: 0, handle: "jdoe", url: "https://x")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Mention(trigger: "@", entity: formatPeople[0], start: 3).handle == "jdoe")
    }
}

@Suite("EntityLookup")
struct EntityLookupTests {
    @Test func findsByIDHandleAnyCaseAndURL() {
        let l = lookup(formatPeople, channels: formatChannels)
        #expect(l.triggers == ["@", "#"])
        #expect(l.entity(trigger: "@", id: "u2")?.name == "Jane Roe")
        #expect(l.entity(trigger: "@", handle: "JDoe")?.id == "u1")
        #expect(l.entity(trigger: "@", url: "https://example.com/a_(b)")?.id == "u4")
        #expect(l.entity(trigger: "#", id: "u1") == nil)
        #expect(l.entity(trigger: "#", id: "C1")?.name == "general")
    }

    @Test func firstEntryWinsForAKey() {
        let l = lookup([Entity(id: "a", name: "A", handle: "x"), Entity(id: "b", name: "B", handle: "X"), Entity(id: "a", name: "C")])
        #expect(l.entity(trigger: "@", handle: "x")?.id == "a")
        #expect(l.entity(trigger: "@", id: "a")?.name == "A")
    }

    @Test func emptyFindsNothing() {
        #expect(EntityLookup.empty.isEmpty)
        #expect(EntityLookup.empty.entity(trigger: "@", id: "u1") == nil)
    }
}
