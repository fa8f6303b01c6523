@testable import AtpadCore
import AtpadTestSupport
import Testing

/// What you see is what the file holds and what its readers get (docs/formats.md, "Which
/// format a file is in" and "How a mention is shown"; docs/editor.md, "Paste" and "Find
/// and replace"): no byte nobody typed changes.
@Suite struct FidelityTests {
    static let people = lookup(formatPeople)

    // MARK: - Which format a file is in

    @Test func theNameDecidesAndOnlyCommentsAreDecoded() {
        let rule = FormatRule()
        let expected: [(String?, DocumentFormat)] = [
            (nil, .github), ("notes.txt", .github), ("c.md", .github), ("C.MARKDOWN", .github),
            ("/r/.git/COMMIT_EDITMSG", .github), ("MERGE_MSG", .github), ("TAG_EDITMSG", .github),
            ("SQUASH_MSG", .github), ("x/abc.jjdescription", .github), ("n.atpad", .atpad), ("c.json", .json),
            ("tabs.go", .text), ("x.py", .text), ("Makefile", .text), ("Dockerfile", .text), ("LICENSE", .text),
            (".git/rebase-merge/git-rebase-todo", .text), (".git/addp-hunk-edit.diff", .text),
            ("fix.patch", .text), ("a.diff", .text), ("commit_editmsg", .text), ("data.csv", .text),
        ]
        for (path, format) in expected {
            #expect(rule.format(of: path) == format, "\(path ?? "no FILE")")
        }
    }

    @Test func theConfigsFormatIsOnlyForCommentsWhoseNameSaysNothing() {
        let rule = FormatRule(fallback: .slack)
        #expect(rule.format(of: nil) == .slack)
        #expect(rule.format(of: "today.txt") == .slack)
        #expect(rule.format(of: "COMMIT_EDITMSG") == .github)
        #expect(rule.format(of: "c.md") == .github)
        #expect(rule.format(of: "main.go") == .text)
        // -f wins over everything, and a pattern names any file.
        #expect(rule.format(of: "COMMIT_EDITMSG", named: .jira) == .jira)
        let patterned = FormatRule(patterns: [.init(glob: "*.go", format: .plain)])
        #expect(patterned.format(of: "main.go") == .plain)
    }

    @Test func aJSONFileIsJSONOnlyWhenItHoldsAComment() {
        let rule = FormatRule()
        func format(_ contents: String) -> DocumentFormat { rule.format(of: "x.json", contents: Array(contents.utf8)) }
        #expect(format(#"{"text": "hi", "mentions": []}"#) == .json)
        #expect(format(#"{"name": "pkg", "version": "1.0.0"}"#) == .text)
        #expect(format("[1, 2]") == .text)
        #expect(format("not json") == .text)
        #expect(format("") == .json)
        #expect(format(" \n") == .json)
        #expect(rule.format(of: "x.json") == .json)  // a new file: a comment
    }

    // MARK: - text

    @Test func textKeepsEveryByteAndDecodesNothing() throws {
        let file = "x = \"a\\\\n\"; @jdoe @[the docs](u1) &lt; :tada: <@u1>\n"
        let decoded = try DocumentFormat.text.decode(bytes: Array(file.utf8), lookup: Self.people)
        #expect(decoded.document.mentions.isEmpty)
        #expect(decoded.notes.isEmpty)
        #expect(try DocumentFormat.text.encodeBytes(decoded.document, lookup: Self.people) == Array(file.utf8))
    }

    @Test func inTextNoTriggerStartsASearchByItselfAndTabIsATab() throws {
        let text = EditorConfig(implicitThreshold: 3, format: .text)
        var h = try Harness("|", config: text)
        try h.keys("\tjonas\t@jo\tstring")
        #expect(h.editor.search == nil)
        #expect(h.state == "\tjonas\t@jo\tstring|")
        #expect(h.queries.isEmpty)
        // Deleting the blank of `@ |jo` starts none either.
        var b = try Harness("@ |jo", config: text)
        try b.keys("<BS>")
        #expect(b.editor.search == nil)
    }

    @Test func ctrlSpaceStillMentionsInTextWrittenAsTheHandle() throws {
        var h = try Harness("x |", config: EditorConfig(format: .text))
        h.editor.lookup = lookup(samplePeople)
        try h.keys("<C-Space>jd<Enter>")
        #expect(h.editor.text == "x @jdoe ")
        #expect(h.editor.mentions.map(\.name) == ["John Doe"])
        #expect(DocumentFormat.text.encode(h.editor.marked) == "x @jdoe ")
    }

    // MARK: - How a mention is shown

    @Test func aPickShowsWhatTheReadersSee() throws {
        for (format, shown) in [(DocumentFormat.github, "@jdoe"), (.gitlab, "@jdoe"), (.mattermost, "@jdoe"),
                                (.slack, "@John Doe"), (.discord, "@John Doe"), (.jira, "@John Doe"),
                                (.markdown, "@John Doe"), (.atpad, "@John Doe"), (.json, "@John Doe")] {
            var h = try Harness("hi |", config: EditorConfig(implicitThreshold: 0, format: format))
            try h.keys("@jd<Enter>")
            #expect(h.editor.text == "hi \(shown) ", "\(format)")
            #expect(h.editor.mentions.first?.name == "John Doe")
            #expect(h.editor.mentions.first?.range == 3 ..< 3 + shown.unicodeScalars.count)
        }
    }

    @Test func theTargetsServiceDecides() throws {
        var config = EditorConfig(implicitThreshold: 0, format: .github)
        config.readersFormat = .slack
        var h = try Harness("|", config: config)
        try h.keys("@jd<Enter>")
        #expect(h.editor.text == "@John Doe ")
        config = EditorConfig(implicitThreshold: 0, format: .slack)
        config.readersFormat = .github
        h = try Harness("|", config: config)
        try h.keys("@jd<Enter>")
        #expect(h.editor.text == "@jdoe ")
    }

    /// Someone with accounts but none on the readers' service: the pick is their name,
    /// plain — what the file and the service get — and the message line says why.
    @Test func aPickTheServiceCannotNotifyIsTheNameAsText() throws {
        let bob = Entity(id: "9", name: "Bob Builder", handle: "bob", accounts: [.slack: "U0222"])
        var h = try Harness("hi |", config: EditorConfig(implicitThreshold: 0, format: .github), people: samplePeople + [bob])
        h.editor.lookup = EntityLookup(["@": samplePeople + [bob]])
        try h.keys("@bob<Enter>and")
        #expect(h.state == "hi Bob Builder and|")
        #expect(h.effects.contains(.notice("Bob Builder has no github account: written as text, not notified")))
        #expect(DocumentFormat.github.encode(h.editor.marked, lookup: h.editor.lookup) == "hi Bob Builder and")
        // For Slack's readers he is a mention, which Slack writes with his account.
        var config = EditorConfig(implicitThreshold: 0, format: .github)
        config.readersFormat = .slack
        h = try Harness("hi |", config: config, people: samplePeople + [bob])
        h.editor.lookup = EntityLookup(["@": samplePeople + [bob]])
        try h.keys("@bob<Enter>")
        #expect(h.state == "hi @[Bob Builder](9) |")
        #expect(DocumentFormat.slack.encode(h.editor.marked, lookup: h.editor.lookup) == "hi <@U0222> ")
    }

    @Test func aPersonWithoutAHandleShowsTheName() throws {
        var h = try Harness("|", config: EditorConfig(implicitThreshold: 0, format: .github))
        try h.keys("@johanna<Enter>")
        #expect(h.editor.text == "@Johanna Lee ")
        #expect(DocumentFormat.github.encode(h.editor.marked) == "@Johanna Lee ")
    }

    @Test func aGitHubFileShowsItsOwnSpellingAndWritesItBack() throws {
        let file = "Thanks @JDoe and @jane.roe, cc @ghost.\n"
        let doc = try DocumentFormat.github.decode(bytes: Array(file.utf8), lookup: Self.people).document
        #expect(doc.text == file)
        #expect(doc.mentions.map(\.name) == ["John Doe", "Jane Roe"])
        #expect(doc.mentions.map(\.text) == ["@JDoe", "@jane.roe"])
        #expect(try DocumentFormat.github.encodeBytes(doc, lookup: Self.people) == Array(file.utf8))
        // In a format that renders names they are the names; the ids are the same people.
        #expect(DocumentFormat.slack.encode(doc, lookup: Self.people) == "Thanks <@u1> and <@u2>, cc @ghost.\n")
        #expect(Self.people.showing(doc, in: .slack).text == "Thanks @John Doe and @Jane Roe, cc @ghost.\n")
        #expect(Self.people.showing(Self.people.showing(doc, in: .slack), in: .github) == doc)
    }

    /// json holds names: a mention showing a handle is written with its name, so what
    /// json writes it reads back.
    @Test func jsonWritesTheName() throws {
        let doc = try DocumentFormat.github.decode("hi @jdoe!", lookup: Self.people).document
        let json = DocumentFormat.json.encode(doc)
        #expect(json.hasPrefix(#"{"text": "hi @John Doe!""#))
        let back = try DocumentFormat.json.decode(json)
        #expect(back.notes.isEmpty)
        #expect(back.document == Self.people.showing(doc, in: .json))
    }

    // MARK: - Emoji never become people

    @Test func insertCompletionsNeverDecodeFromAFile() throws {
        let emoji = Entity(id: "1f389", name: "party popper", handle: "tada", insert: "🎉")
        let party = Entity(id: "1f973", name: "party", handle: "party", insert: "🥳")
        let withEmoji = EntityLookup(["@": formatPeople, ":": [emoji, party]])
        let file = "party :tada: now :party: @jdoe"
        for format in [DocumentFormat.github, .markdown, .slack, .discord, .jira, .zulip] {
            let doc = try format.decode(bytes: Array(file.utf8), lookup: withEmoji).document
            #expect(doc.listedMentions.allSatisfy { $0.trigger == "@" }, "\(format)")
            #expect(try format.encodeBytes(doc, lookup: withEmoji) == Array(file.utf8), "\(format)")
        }
        let github = try DocumentFormat.github.decode(file, lookup: withEmoji).document
        #expect(DocumentFormat.slack.encode(github, lookup: withEmoji) == "party :tada: now :party: <@u1>")
        #expect(DocumentFormat.adf.encode(github, lookup: withEmoji).components(separatedBy: "\"mention\"").count == 2)
    }

    // MARK: - Paste

    static let issuePaste = #"x = "a\\n"; see @[the docs](https://e.com/docs) and C:\\dir"#

    /// A paste is text in the document's own format: saved, the file holds exactly the
    /// bytes pasted.
    @Test func aPasteIsTextInTheDocumentsFormat() throws {
        for format in DocumentFormat.allCases where !format.isOutputOnly {
            var h = try Harness("|", config: EditorConfig(implicitThreshold: 0, format: format))
            h.editor.lookup = Self.people
            h.press(.paste(Self.issuePaste))
            let saved = try format.encodeBytes(h.editor.marked, lookup: Self.people)
            if format == .json {
                #expect(try DocumentFormat.json.decode(bytes: saved).document.text == Self.issuePaste)
            } else if format == .plain {
                #expect(saved == Array(Self.issuePaste.utf8))
            } else {
                #expect(String(decoding: saved, as: UTF8.self) == Self.issuePaste, "\(format)")
            }
        }
    }

    @Test func aPastedHandleIsAMentionInAGitHubComment() throws {
        var h = try Harness("|", config: EditorConfig(format: .github))
        h.editor.lookup = Self.people
        h.press(.paste("thanks @jdoe and @[John Doe](u1)"))
        #expect(h.editor.text == "thanks @jdoe and @[John Doe](u1)")
        #expect(h.editor.mentions.map(\.range) == [7 ..< 12])
    }

    @Test func markupIsReadOnlyInAnAtpadDocumentWithItsSpelling() throws {
        var h = try Harness("|", config: EditorConfig(format: .atpad))
        h.press(.paste(#"@[John Doe](u1) C:\\dir \@[x"#))
        #expect(h.editor.mentions.listed.map(\.name) == ["John Doe"])
        #expect(DocumentFormat.atpad.encode(h.editor.marked) == #"@[John Doe](u1) C:\\dir \@[x"#)
    }

    @Test func atpadsOwnLastCopyBringsItsMentionsBack() throws {
        var h = try Harness("|hi @[John Doe](1) there", config: EditorConfig(format: .slack))
        h.run(h.editor.select(Selection(anchor: 0, head: h.editor.storage.count)))
        try h.keys("<C-c>")
        h.run(h.editor.select(.cursor(h.editor.storage.count)))
        try h.keys(" ")
        let copied = try #require(h.editor.clipboard)
        h.press(.paste(copied.text))
        #expect(h.editor.mentions.filter { !$0.isKept }.count == 2)
        // Other text pasted in a Slack comment is Slack's: `<@u1>` is read with the directory.
        h.press(.paste(" <@nobody> &amp;"))
        #expect(DocumentFormat.slack.encode(h.editor.marked).hasSuffix(" <@nobody> &amp;"))
    }

    /// Property: in every readable format, pasting a random piece between blanks of a
    /// random document and saving gives the original bytes with the pasted bytes inserted.
    @Test func pastingWritesBackThePastedBytes() throws {
        var rng = SeededRandom(seed: 32)
        let pieces = NastyDocuments.pieces + ["@jdoe", "@JDoe", "<@u1>", "[~accountid:u1]", "@**John Doe|u1**",
                                              "[@John Doe](https://example.com/jdoe)", "\\\\", "@[a](b)", ":tada:"]
        for format in DocumentFormat.allCases where !format.isOutputOnly && format != .json {
            for _ in 0 ..< 60 {
                let before = (0 ..< Int.random(in: 0 ... 4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                    .joined(separator: " ")
                let after = (0 ..< Int.random(in: 0 ... 4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                    .joined(separator: " ")
                let paste = (0 ..< Int.random(in: 1 ... 4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                    .joined(separator: " ")
                // The paste replaces a mark no format gives a meaning to, on a line of its own.
                let file = before + "\n⁂\n" + after
                let doc = try format.decode(bytes: Array(file.utf8), lookup: Self.people).document
                guard try format.encodeBytes(doc, lookup: Self.people) == Array(file.utf8),
                      let mark = Array(doc.text.unicodeScalars).firstIndex(of: "⁂") else { continue }
                var editor = Editor(doc, cursor: 0, config: EditorConfig(format: format))
                editor.lookup = Self.people
                _ = editor.select(Selection(anchor: mark, head: mark + 1))
                _ = editor.handle(.paste(paste))
                let saved = try format.encodeBytes(editor.marked, lookup: Self.people)
                // In a CR LF document a pasted LF takes the document's ending (docs/formats.md).
                let pasted = editor.lineEnding == "\r\n" ? Editor.crlf(paste) : paste
                #expect(String(decoding: saved, as: UTF8.self) == before + "\n" + pasted + "\n" + after,
                        "\(format): \(before) ⟨\(paste)⟩ \(after)")
            }
        }
    }

    // MARK: - Find and replace

    @Test func replaceSkipsMatchesInsideMentions() throws {
        let file = "John wrote this.\nContact @jdoe for access.\n"
        let doc = try DocumentFormat.github.decode(file, lookup: lookup(samplePeople)).document
        var h = try Harness("|", config: EditorConfig(format: .github))
        h.editor = Editor(doc, cursor: 0, config: EditorConfig(format: .github))
        let (free, skipped, _) = h.editor.outsideTokens(h.editor.matches(of: "jdoe"))
        #expect(free.isEmpty && skipped == 1)
        let matches = h.editor.matches(of: "John")
        #expect(matches.count == 1)
        h.run(h.editor.replace(matches, with: "Jane", group: 1).effects)
        #expect(DocumentFormat.github.encode(h.editor.marked) == "Jane wrote this.\nContact @jdoe for access.\n")
        // Asked to replace a match inside a mention, replace leaves it as it is.
        let inside = try #require(h.editor.mentions.first).range
        h.run(h.editor.replace([inside.lowerBound + 1 ..< inside.lowerBound + 3], with: "xx", group: 2).effects)
        #expect(DocumentFormat.github.encode(h.editor.marked) == "Jane wrote this.\nContact @jdoe for access.\n")
    }

    @Test func outsideTokensCountsMatchesTouchingAToken() throws {
        let h = try Harness("ab @[John Doe](1) cd @[Jane Roe](2)|")
        // "ab @John Doe cd @Jane Roe": a match before, one overlapping the start, one
        // inside, one right after, an empty one inside.
        let ranges = [0 ..< 2, 2 ..< 4, 5 ..< 7, 12 ..< 15, 17 ..< 17]
        let (free, skipped, _) = h.editor.outsideTokens(ranges)
        #expect(free == [0 ..< 2, 12 ..< 15])
        #expect(skipped == 3)
    }
}

private extension Array where Element == Mention {
    var listed: [Mention] { filter { !$0.isKept } }
}
