import Testing
@testable import AtpadCore

@Suite("github format")
struct GitHubFormatTests {
    let people = lookup(formatPeople, channels: formatChannels)

    // MARK: Writing

    @Test func handleFromTheDirectoryElseTheName() {
        let doc = markup("@[John Doe](u1), @[王伟](u3) and @[Ghost](u9): see #[general](C1)")
        #expect(DocumentFormat.github.encode(doc, lookup: people) == "@jdoe, @王伟 and @Ghost: see #general")
    }

    @Test func directoryFirstThenTheHandleTheMentionCarries() {
        var doc = markup("@[John Doe](u1) @[Ann](u8)")
        doc.mentions[0].handle = "old-handle"
        doc.mentions[1].handle = "ann"
        #expect(DocumentFormat.github.encode(doc, lookup: people) == "@jdoe @ann")
        #expect(DocumentFormat.github.encode(doc) == "@old-handle @ann")
    }

    @Test func textIsWrittenAsIs() {
        let doc = markup("*bold* <b> & \\ [x](y) @someone")
        #expect(DocumentFormat.github.encode(doc, lookup: people) == "*bold* <b> & \\ [x](y) @someone")
    }

    // MARK: Reading

    /// A mention shows what GitHub shows — the handle as the file spells it — and names
    /// the directory's person (docs/formats.md, "How a mention is shown").
    @Test func knownHandlesBecomeMentionsWithTheDirectoryName() throws {
        let read = try DocumentFormat.github.decode("cc @jdoe, @Jane.Roe.", lookup: people)
        #expect(read.document.text == "cc @jdoe, @Jane.Roe.")
        #expect(summary(read.document) == ["@u1 John Doe 3", "@u2 Jane Roe 10"])
        #expect(read.document.mentions.map(\.label) == ["jdoe", "Jane.Roe"])
        #expect(read.document.mentions[0].handle == "jdoe")
        #expect(read.document.mentions[0].url == "https://example.com/jdoe")
        #expect(read.notes.isEmpty)
    }

    @Test func unknownHandlesStayTextWithOneNote() throws {
        let read = try DocumentFormat.github.decode("@ghost and @ghost. and @nobody-", lookup: people)
        #expect(read.document.mentions.isEmpty)
        #expect(read.document.text == "@ghost and @ghost. and @nobody-")
        #expect(read.notes == ["3 mentions not in the directory were left as text: @ghost, @nobody"])
    }

    @Test func emailAddressesAndOtherNonMentionsAreLeftAlone() throws {
        let read = try DocumentFormat.github.decode("mail a@jdoe.com, x.@jdoe, 1+@jdoe, @ alone, @!", lookup: people)
        #expect(read.document.mentions.isEmpty)
        #expect(read.notes.isEmpty)
    }

    @Test func openingPunctuationBeforeTheTriggerIsFine() throws {
        let read = try DocumentFormat.github.decode("(@jdoe) \"@jdoe\" [@jdoe]", lookup: people)
        #expect(read.document.mentions.count == 3)
    }

    @Test func emphasisAroundAMentionIsMarkdownsNotTheHandles() throws {
        // Issue 22: `_@jdoe_` is an emphasised mention; `x_@jdoe` is not one.
        let read = try DocumentFormat.github.decode("_@jdoe_ **@jdoe** ~~@jdoe~~ *_@jdoe_* x_@jdoe a__@jdoe", lookup: people)
        #expect(read.document.listedMentions.count == 4)
        #expect(DocumentFormat.github.encode(read.document, lookup: people)
            == "_@jdoe_ **@jdoe** ~~@jdoe~~ *_@jdoe_* x_@jdoe a__@jdoe")
    }

    @Test func handleLongerThanAKnownOneIsNotCutShort() throws {
        let read = try DocumentFormat.github.decode("@jdoe2 @jdoe_", lookup: people)
        #expect(summary(read.document) == ["@u1 John Doe 7"])
        #expect(read.notes == ["1 mention not in the directory was left as text: @jdoe2"])
    }

    @Test func codeIsNotRead() throws {
        let text = """
            `@jdoe` and ``a ` @jdoe`` but @jdoe
            ```
            @jdoe
            ```
            ~~~~
            @jdoe
            ~~~~
            `unclosed @jdoe
            """
        let read = try DocumentFormat.github.decode(text, lookup: people)
        #expect(read.document.mentions.count == 2)
        #expect(read.notes.isEmpty)
    }

    @Test func unclosedFenceRunsToTheEnd() throws {
        let read = try DocumentFormat.github.decode("@jdoe\n```swift\n@jdoe\n", lookup: people)
        #expect(read.document.mentions.count == 1)
    }

    @Test func entitiesWithoutAHandleMatchByTheirWholeName() throws {
        let read = try DocumentFormat.github.decode("@王伟 said hi to @Zoë [x] Ørsted! @Zoë alone", lookup: people)
        #expect(summary(read.document) == ["@u3 王伟 0", "@u4 Zoë [x] Ørsted 15"])
        #expect(read.notes == ["1 mention not in the directory was left as text: @Zoë"])
    }

    @Test func nameMustEndAtAWordBoundary() throws {
        let read = try DocumentFormat.github.decode("@王伟x", lookup: people)
        #expect(read.document.mentions.isEmpty)
    }

    @Test func otherTriggersResolveSilentlyOnlyWhenKnown() throws {
        let channels = lookup(formatPeople, channels: [Entity(id: "C1", name: "general", handle: "gen")])
        let read = try DocumentFormat.github.decode("#gen and #123", lookup: channels)
        #expect(summary(read.document) == ["#C1 general 0"])
        #expect(read.notes.isEmpty)
    }

    @Test func whatItWritesItReadsBack() throws {
        let doc = markup("hi @[John Doe](u1) and @[王伟](u3), @[Jane Roe](u2).")
        let written = DocumentFormat.github.encode(doc, lookup: people)
        // Read back, the mentions show their handles; shown as names they are the same.
        let read = try DocumentFormat.github.decode(written, lookup: people).document
        #expect(read.text == written)
        #expect(people.showing(read, in: .atpad) == doc)
    }
}
