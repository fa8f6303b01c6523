import Testing
@testable import AtpadCore

/// Decoding `input` with `format` and writing it back gives `input` byte for byte.
private func keepsBytes(_ format: DocumentFormat, _ input: String, lookup: EntityLookup) throws -> Bool {
    let read = try format.decode(input, lookup: lookup)
    return format.encodeUTF8(read.document, lookup: lookup) == Array(input.utf8)
}

@Suite("gitlab and mattermost formats")
struct GitLabMattermostFormatTests {
    let directory = lookup(formatPeople, channels: formatChannels)

    @Test(arguments: [DocumentFormat.gitlab, .mattermost])
    func writeHandlesOrTheNameAsShown(format: DocumentFormat) {
        let doc = markup("hi @[John Doe](u1), @[王伟](u3) & #[general](C1) <x>")
        #expect(format.encode(doc, lookup: directory) == "hi @jdoe, @王伟 & #general <x>")
        // Without a directory the handle the mention carries is the fallback.
        #expect(format.encode(doc) == "hi @John Doe, @王伟 & #general <x>")
        #expect(format.encode(MarkedText()) == "")
    }

    @Test(arguments: [DocumentFormat.gitlab, .mattermost])
    func readByHandleOrName(format: DocumentFormat) throws {
        let read = try format.decode("@jdoe, @JANE.ROE. @王伟 `@jdoe` a@b.com @ghost", lookup: directory)
        // Each shows the handle as the file spells it (a person without one, the name).
        #expect(read.document.text == "@jdoe, @JANE.ROE. @王伟 `@jdoe` a@b.com @ghost")
        #expect(summary(read.document) == ["@u1 John Doe 0", "@u2 Jane Roe 7", "@u3 王伟 18"])
        #expect(read.notes == ["1 mention not in the directory was left as text: @ghost"])
    }

    @Test(arguments: [DocumentFormat.gitlab, .mattermost, .github])
    func aHandleKeepsTheCaseItWasReadIn(format: DocumentFormat) throws {
        #expect(try keepsBytes(format, "@JDoe and @jdoe and @Jane.Roe.", lookup: directory))
        // For a mention made in the editor (no text read from a file), the directory's
        // spelling wins when the handle itself changed.
        var doc = try format.decode("@JDoe", lookup: directory).document
        doc.mentions[0].source = nil
        doc.mentions[0].handle = "someone"
        #expect(format.encode(doc, lookup: directory) == "@jdoe")
    }
}

@Suite("jira format")
struct JiraFormatTests {
    let directory = lookup(formatPeople + [Entity(id: "557058:f581-31cb", name: "Ann <A&B>")], channels: formatChannels)

    @Test func mentionsAreAccountIDsAndTextIsAsWritten() {
        let doc = markup("hi @[John Doe](u1) *bold* {code}x{code} [link|http://a] <b> & @[Ann <A&B>](557058:f581-31cb)\nbye")
        #expect(DocumentFormat.jira.encode(doc) == "hi [~accountid:u1] *bold* {code}x{code} [link|http://a] <b> & [~accountid:557058:f581-31cb]\nbye")
        #expect(DocumentFormat.jira.encode(MarkedText()) == "")
    }

    @Test func idsThatCannotBeWrittenLeaveTheMentionAsText() {
        let doc = markup("@[A](a]b) @[B](a b) @[C](x|y) @[D](ok) #[general](C1)")
        #expect(DocumentFormat.jira.encode(doc) == "@A @B @C [~accountid:ok] [~accountid:C1]")
    }

    @Test func readingResolvesKnownIDs() throws {
        let read = try DocumentFormat.jira.decode("[~accountid:u1], [~accountid:557058:f581-31cb] [~accountid:C1]", lookup: directory)
        #expect(read.document.text == "@John Doe, @Ann <A&B> #general")
        #expect(summary(read.document) == ["@u1 John Doe 0", "@557058:f581-31cb Ann <A&B> 11", "#C1 general 22"])
        #expect(read.notes.isEmpty)
    }

    @Test func unknownAndMalformedStayTextByteForByte() throws {
        let input = "[~accountid:zz] [~jdoe] [~accountid:] [~accountid:u1 [~accountid:a b] [~accountid:u1"
        let read = try DocumentFormat.jira.decode(input, lookup: directory)
        #expect(read.document == MarkedText(text: input))
        #expect(read.notes == ["1 mention not in the directory was left as text: [~accountid:zz]"])
    }

    @Test func aMentionAMarkWouldJoinStaysText() throws {
        let input = "[~accountid:u1]\u{301} [~accountid:u1]\u{200D}x [~accountid:u1]"
        let read = try DocumentFormat.jira.decode(input, lookup: directory)
        #expect(summary(read.document) == ["@u1 John Doe 35"])
        #expect(try keepsBytes(.jira, input, lookup: directory))
    }
}

@Suite("zulip format")
struct ZulipFormatTests {
    let directory = lookup(formatPeople, channels: formatChannels)

    @Test func mentionsAreNameAndID() {
        let doc = markup("hi @[John Doe](u1) and @[Zoë \\[x\\] Ørsted](u4) in #[general](C1) **b** <x> & y")
        #expect(DocumentFormat.zulip.encode(doc) == "hi @**John Doe|u1** and @**Zoë [x] Ørsted|u4** in @**general|C1** **b** <x> & y")
        #expect(DocumentFormat.zulip.encode(MarkedText()) == "")
    }

    @Test func namesAndIDsZulipCannotCarryLeaveTheMentionAsText() {
        let doc = markup("@[a*b](1) @[a|b](2) @[c](x|y) @[d](x y) @[e](x*) @[f](ok)")
        #expect(DocumentFormat.zulip.encode(doc) == "@a*b @**a|b|2** @c @d @e @**f|ok**")
    }

    @Test func readingKeepsTheFilesNameAndID() throws {
        let read = try DocumentFormat.zulip.decode("@**Johnny|u1** @**Ghost|u99** @**general|C1** @**a|b|2**", lookup: directory)
        #expect(read.document.text == "@Johnny @Ghost #general @a|b")
        #expect(summary(read.document) == ["@u1 Johnny 0", "@u99 Ghost 8", "#C1 general 15", "@2 a|b 24"])
        // Handle and url come from the directory when it knows the id.
        #expect(read.document.mentions[0].handle == "jdoe")
        #expect(read.notes.isEmpty)
    }

    @Test func otherFormsStayText() throws {
        let input = "@**John Doe** @_**John Doe|u1** `@**x|u1**` @**a|** @**|u1** @**a|b c** @**a|b*\n@**x|y\n**"
        let read = try DocumentFormat.zulip.decode(input, lookup: directory)
        #expect(read.document == MarkedText(text: input))
        #expect(read.notes.isEmpty)
    }

    @Test func roundTripsWithAndWithoutTheDirectory() throws {
        let doc = markup("x @[John Doe](u1)@[Ghost](zz) & #[general](C1)")
        #expect(try DocumentFormat.zulip.decode(DocumentFormat.zulip.encode(doc), lookup: directory).document == doc)
        let unknown = markup("@[Ghost](zz)")
        #expect(try DocumentFormat.zulip.decode(DocumentFormat.zulip.encode(unknown)).document == unknown)
    }
}

/// The matrix event of `doc` as written (read as `text`, not Markdown: the Markdown path
/// is ComposerFormatsTests').
private func writtenMatrix(_ doc: MarkedText) -> String {
    String(decoding: DocumentFormat.matrix.encodeUTF8(doc, from: .text), as: UTF8.self)
}

@Suite("matrix format")
struct MatrixFormatTests {
    @Test func oneEventWithHTMLAndUserIDs() {
        let doc = markup("Hi @[John Doe](@jdoe:example.org) & <b>\n\"it's\" #[room](#r:x.org) @[John Doe](@jdoe:example.org) @[A<&>\"'](@a:x)")
        let expected = #"{"msgtype": "m.text", "body": "Hi @John Doe & <b>\n\"it's\" #room @John Doe @A<&>\"'", "format": "org.matrix.custom.html", "formatted_body": "Hi <a href=\"https://matrix.to/#/@jdoe:example.org\">John Doe</a> &amp; &lt;b&gt;<br>&quot;it&#39;s&quot; <a href=\"https://matrix.to/#/%23r:x.org\">room</a> <a href=\"https://matrix.to/#/@jdoe:example.org\">John Doe</a> <a href=\"https://matrix.to/#/@a:x\">A&lt;&amp;&gt;&quot;&#39;</a>", "m.mentions": {"user_ids": ["@jdoe:example.org", "@a:x"]}}"#
        #expect(writtenMatrix(doc) == expected)
    }

    @Test func idsArePercentEncodedForTheFragment() {
        let doc = markup("@[X](a/b?c#d%e&f'g\"h i\\\\é~-._!$\\(\\)*+,;=:@Z)")
        #expect(writtenMatrix(doc).contains(
            #"href=\"https://matrix.to/#/a%2Fb%3Fc%23d%25e%26f%27g%22h%20i%5C%C3%A9~-._!$()*+,;=:@Z\""#))
    }

    @Test func emptyDocument() {
        #expect(DocumentFormat.matrix.encode(MarkedText()) == #"{"msgtype": "m.text", "body": "", "format": "org.matrix.custom.html", "formatted_body": "", "m.mentions": {"user_ids": []}}"#)
    }

    @Test func lineEndsAndControlCharacters() {
        let doc = MarkedText(text: "a\r\nb\nc\rd\te\u{2028}")
        #expect(writtenMatrix(doc) == #"{"msgtype": "m.text", "body": "a\r\nb\nc\rd\te\u2028", "format": "org.matrix.custom.html", "formatted_body": "a<br>b<br>c\rd\te\u2028", "m.mentions": {"user_ids": []}}"#)
    }

    @Test func isOutputOnly() {
        #expect(throws: FormatError("the matrix format is output only; it cannot be read")) {
            try DocumentFormat.matrix.decode("{}")
        }
        #expect(DocumentFormat.matrix.isOutputOnly)
        #expect(!DocumentFormat.readableNames.contains("matrix"))
    }
}

@Suite("new format properties")
struct NewFormatPropertyTests {
    static let cases = 1500

    /// People with hard names and ids, some with handles.
    static let people: [Entity] = [
        Entity(id: "u1", name: "John Doe", handle: "jdoe"),
        Entity(id: "557058:ab-cd", name: "Zoë [x] Ørsted", handle: "zoe.orsted"),
        Entity(id: "\\", name: "王伟"),
        Entity(id: "e", name: "👩‍💻 Dev <ops> & co"),
        Entity(id: "f", name: "Ab\u{301}c \\ d"),
        Entity(id: "r|s", name: "שלום"),
    ]

    /// Text pieces with each format's constructs, known and unknown, whole and broken.
    static let pieces: [String] = nastyPieces + [
        "[~accountid:u1]", "[~accountid:e]", "[~accountid:zz]", "[~accountid:", "]", "[~", "{code}",
        "@**John Doe|u1**", "@**Ghost|g1**", "@**x**", "@_**a|u1**", "@**", "**", "|", "*",
        "@jdoe", "@JDOE", "@Zoe.Orsted.", "@王伟", "@ghost", "a@b.com", "```\n", "`", "\u{301}", "\u{200D}",
        "<", "&", "\r\n",
    ]

    @Test(arguments: [DocumentFormat.gitlab, .mattermost, .jira, .zulip])
    func openingAndSavingGivesTheSameBytes(format: DocumentFormat) throws {
        let directory = lookup(Self.people, channels: formatChannels)
        var rng = SeededRandom(seed: 0x7E57_F0E3)
        for n in 0 ..< Self.cases {
            var input = ""
            for _ in 0 ..< rng.int(0 ..< 24) { input += rng.pick(Self.pieces) }
            // Also text the writer produced, so that mention syntax is common.
            if n % 2 == 1 {
                var gen = NastyDocuments(rng: SeededRandom(seed: UInt64(n)))
                input = format.encode(gen.document(entities: Self.people, triggers: ["@"]), lookup: directory)
            }
            let read = try format.decode(input, lookup: directory)
            let written = format.encode(read.document, lookup: directory)
            guard written == input, written.utf8.elementsEqual(input.utf8) else {
                Issue.record("""
                    \(format) changed the bytes, case \(n)
                      input:   \(String(reflecting: input))
                      read:    \(String(reflecting: read.document.text)) \(read.document.mentions)
                      written: \(String(reflecting: written))
                    """)
                return
            }
        }
    }

    @Test(arguments: [DocumentFormat.jira, .zulip])
    func writtenMentionsReadBack(format: DocumentFormat) throws {
        let directory = lookup(Self.people)
        for n in 0 ..< Self.cases {
            var gen = NastyDocuments(rng: SeededRandom(seed: 0xA11C_E000 &+ UInt64(n)))
            let doc = gen.document(entities: Self.people, triggers: ["@"])
            let read = try format.decode(format.encode(doc), lookup: directory)
            // A mark or joiner right after a mention makes the reader leave it as text
            // (and shifts what follows): such documents are not what this test is about.
            let scalars = Array(doc.text.unicodeScalars)
            let joined = doc.mentions.contains { m in
                m.range.upperBound < scalars.count
                    && (scalars[m.range.upperBound].properties.generalCategory == .nonspacingMark || scalars[m.range.upperBound] == "\u{200D}")
            }
            // Zulip does not read mentions inside code.
            if joined || format == .zulip && doc.text.contains("`") { continue }
            // Every mention the writer could spell comes back where it was (a mention it
            // cannot spell is written as its text, which has the same length).
            let writable = doc.mentions.filter { format == .jira ? JiraFormat.isWritable(id: $0.id) : ZulipFormat.isWritable($0) }
            for m in writable where !read.document.mentions.contains(m) {
                Issue.record("\(format), seed \(n): \(m) lost in \(String(reflecting: format.encode(doc)))")
                return
            }
            #expect(read.document.text == doc.text)
        }
    }
}
