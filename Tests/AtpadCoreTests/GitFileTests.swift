import AtpadCore
import Testing

/// git's files as git reads them (docs/git.md): comment lines by `core.commentChar` /
/// `core.commentString`, the scissors line and the diff under it, the message's shape,
/// rebase lists — never decoded, searched or replaced, and written back byte for byte.
@Suite struct GitFileTests {
    static let lookup = EntityLookup(["@": samplePeople])
    static let message = GitFile(kind: .message)

    static func config(_ git: GitFile = message) -> EditorConfig {
        var config = EditorConfig(format: .github)
        config.git = git
        config.personTrailers = PersonTrailers()
        return config
    }

    /// An editor on `text` (no markup: git's files hold `\` and `@[` as they are), read
    /// as a github commit message, with the cursor at `|`.
    static func harness(_ text: String, git: GitFile = message) throws -> Harness {
        let cursor = text.unicodeScalars.firstIndex(of: "|").map { text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: $0) }
        let plain = text.replacingOccurrences(of: "|", with: "")
        let decoded = try DocumentFormat.github.decode(bytes: Array(plain.utf8), lookup: lookup, git: git)
        var h = try Harness(config: config(git))
        h.editor = Editor(decoded.document, cursor: cursor, config: config(git))
        h.editor.lookup = lookup
        return h
    }

    static let scissors = "# ------------------------ >8 ------------------------"
    static let verbose = """
        Thanks @jdoe

        # Please enter the commit message for your changes. @jroe
        # On branch main
        \(scissors)
        # Do not modify or remove the line above.
        diff --git a/x.c b/x.c
        index 1..2 100644
        --- a/x.c
        +++ b/x.c
        @@ -1 +1,2 @@
         #include <x.h>
        +// ask @jdoe or John Doe
        -old @[x](y) \\n

        """

    @Test func theCommentStringComesFromGitsConfig() {
        #expect(GitFile.commentString(configured: nil, in: "") == "#")
        #expect(GitFile.commentString(configured: ";", in: "") == ";")
        #expect(GitFile.commentString(configured: "//", in: "") == "//")
        // auto: the character git wrote its help in — the scissors line's first…
        #expect(GitFile.commentString(configured: "auto", in: "#1 fixed\n\n; Please enter\n; " + GitFile.scissorsText + "\n+x\n") == ";")
        // …else the last line that starts with a candidate and a blank; else `#`.
        #expect(GitFile.commentString(configured: "AUTO", in: "#12 done\n\n@ Please enter\n@\n") == "@")
        #expect(GitFile.commentString(configured: "auto", in: "Fix\n") == "#")
    }

    @Test func gitsPartsAreNotDecodedAndComeBackByteForByte() throws {
        let bytes = Array(Self.verbose.utf8)
        let decoded = try DocumentFormat.github.decode(bytes: bytes, lookup: Self.lookup, git: Self.message)
        // One mention: the message's. Not the comment's @jroe, nor the diff's @jdoe.
        #expect(decoded.document.mentions.map(\.id) == ["1"])
        #expect(decoded.document.text == Self.verbose)
        #expect(decoded.notes.isEmpty)
        #expect(try DocumentFormat.github.encodeBytes(decoded.document, lookup: Self.lookup) == bytes)
        // atpad markup would read `\\n` and `@[x](y)` in the diff: as git's, they stay text.
        let markup = try DocumentFormat.atpad.decode(bytes: bytes, git: Self.message)
        #expect(markup.document.text.contains("-old @[x](y) \\n"))
    }

    @Test func theMessageIsReadWithoutGitsLinesBetweenItsParts() throws {
        // A comment line inside a paragraph does not cut it; the mentions after it move
        // past the comment's text.
        let text = "Fix `a\n# note\nb` and @jroe\n"
        let decoded = try DocumentFormat.github.decode(bytes: Array(text.utf8), lookup: Self.lookup, git: Self.message)
        #expect(decoded.document.text == text)
        let m = try #require(decoded.document.mentions.first)
        #expect(m.id == "2")
        let scalars = Array(text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[m.range])) == "@jroe")
    }

    @Test func anotherCommentCharacterLeavesHashLinesToTheMessage() throws {
        let git = GitFile(kind: .message, comment: ";")
        let text = "Fix #12 for @jdoe\n; @jroe asked\n"
        let decoded = try DocumentFormat.github.decode(bytes: Array(text.utf8), lookup: Self.lookup, git: git)
        #expect(decoded.document.mentions.map(\.id) == ["1"])
        var h = try Self.harness("Fix\n; note |\n# heading |", git: git)
        #expect(h.editor.isGitsText(9) && !h.editor.isGitsText(17))
        try h.keys("@jo")
        #expect(h.editor.search == nil)
        // A string of several characters (`core.commentString = "//"`).
        let slashes = GitFile(kind: .message, comment: "//")
        let two = try DocumentFormat.github.decode(bytes: Array("a @jdoe\n// @jroe\n/ x\n".utf8), lookup: Self.lookup,
                                                  git: slashes)
        #expect(two.document.mentions.map(\.id) == ["1"])
    }

    @Test func noSearchStartsInGitsLines() throws {
        // `@` on a comment line, in the diff, and an implicit search on a name there.
        for start in ["Fix\n# On branch |main", "Fix\n\(Self.scissors)\n+ |x", "Fix\n\(Self.scissors)\n+ x |"] {
            var h = try Self.harness(start)
            try h.keys("@jo")
            #expect(h.editor.search == nil, "\(start)")
            try h.keys(" johanna ")
            #expect(h.queries.isEmpty, "\(start)")
        }
        // Above them, the message is a comment like any other.
        var h = try Self.harness("Fix |\n# On branch main\n\(Self.scissors)\n+x")
        try h.keys("@jo<Enter>")
        #expect(h.editor.marked.mentions.map(\.id) == ["1"])
        // A trailer on a comment line is git's too.
        var t = try Self.harness("Fix\n# Co-authored-by: |")
        try t.keys("@jo")
        #expect(t.editor.search == nil)
    }

    @Test func aPasteIntoGitsLinesIsText() throws {
        var h = try Self.harness("Fix\n# |")
        h.press(.paste("@jdoe"))
        #expect(h.editor.marked.mentions.isEmpty)
        // Pasted into the message, git's lines in the paste stay text too.
        var m = try Self.harness("Fix |\n# x")
        m.press(.paste("@jdoe\n# @jroe\n"))
        #expect(m.editor.marked.mentions.map(\.id) == ["1"])
    }

    @Test func theScissorsMovesWithEditsAndIsFoundAgain() throws {
        var h = try Self.harness("Fix|\n\(Self.scissors)\n+x\n")
        #expect(h.editor.gitScissors == 4)
        try h.keys("ed it")
        #expect(h.editor.gitScissors == 9)
        // Joining the line above to it unmakes it; undo makes it again.
        try h.keys("<C-End><Up><Up><Home><BS>")
        #expect(h.editor.gitScissors == nil)
        try h.keys("<C-z>")
        #expect(h.editor.gitScissors == 9)
        // A scissors line pasted above the old one is the new one.
        try h.keys("<C-Home>")
        h.press(.paste("\nmore\n\(Self.scissors)\n"))
        #expect(h.editor.gitScissors == 6)
        // An edit below it leaves it where it is.
        try h.keys("<C-End>x")
        #expect(h.editor.gitScissors == 6)
    }

    @Test func replaceLeavesTheDiffAlone() throws {
        var h = try Self.harness("Fix z|\n\(Self.scissors)\n+z\n-z\n")
        let (free, skipped, inDiff) = h.editor.outsideTokens(h.editor.matches(of: "z"))
        #expect(free == [4 ..< 5] && skipped == 0 && inDiff == 2)
        h.run(h.editor.replace(h.editor.matches(of: "z"), with: "y", group: 1).effects)
        #expect(h.editor.text == "Fix y\n\(Self.scissors)\n+z\n-z\n")
    }

    @Test func reflowStopsAtGitsLines() throws {
        let long = (1 ... 20).map { "word\($0)" }.joined(separator: " ")
        var h = try Self.harness("\(long)|\n; keep this comment line as it is\n\(long)",
                                 git: GitFile(kind: .message, comment: ";"))
        try h.keys("<M-q>")
        let lines = h.editor.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[2] == "; keep this comment line as it is")
        #expect(lines[3] == Substring(long))
        var v = try Self.harness("Fix\n\n\(long)|\n\(Self.scissors)\n+ \(long)")
        try v.keys("<M-q>")
        #expect(v.editor.text.hasSuffix("\n\(Self.scissors)\n+ \(long)"))
    }

    @Test func signOffGoesAboveTheScissors() throws {
        var config = Self.config()
        config.signOffIdent = "A U Thor <a@example.com>"
        var h = try Self.harness("Fix it|\n\n# help\n\(Self.scissors)\n+x\n")
        h.editor.config = config
        try h.keys("<M-o>")
        #expect(h.editor.text == "Fix it\n\nSigned-off-by: A U Thor <a@example.com>\n\n# help\n\(Self.scissors)\n+x\n")
    }

    @Test func theMessagesShapeIsMarked() throws {
        let subject = String(repeating: "s", count: 80)
        let body = String(repeating: "b", count: 75)
        let h = try Self.harness("\n# help\n\(subject)\nnot blank\n\(body)\n# \(body)\n|")
        let runs = h.editor.gitRuns(in: 0 ..< h.editor.storage.count).map { "\($0.kind) \($0.range)" }
        let s = 8  // the subject's start, after the blank and the comment line
        #expect(runs == [
            "comment 1..<7",
            "overflow \(s + 50)..<\(s + 72)", "overflowStrong \(s + 72)..<\(s + 80)",
            "warning \(s + 81)..<\(s + 90)",
            "overflow \(s + 91 + 72)..<\(s + 91 + 75)",
            "comment \(s + 91 + 76)..<\(s + 91 + 76 + 77)",
        ])
        #expect(h.editor.gitSubject! == (80, 50))
        // The limits are the config's; characters count, not scalars.
        var config = Self.config()
        config.subjectLimit = 3
        let e = Editor(MarkedText(text: "ééé̃x\n"), config: config)
        #expect(e.gitRuns(in: 0 ..< 6).map(\.range) == [4 ..< 5])
        #expect(e.gitSubject! == (4, 3))
        #expect(Editor(MarkedText(text: "x"), config: EditorConfig()).gitSubject == nil)
    }

    @Test func theDiffIsDrawnAsADiff() throws {
        let h = try Self.harness(Self.verbose)
        let kinds = h.editor.gitRuns(in: 0 ..< h.editor.storage.count).map { "\($0.kind)" }
        #expect(kinds == ["comment", "comment", "comment", "comment", "diffHeader", "diffHeader", "diffHeader", "diffHeader",
                          "diffHeader", "diffAdded", "diffRemoved"])
    }

    @Test func rebaseListLines() {
        func runs(_ line: String) -> [String] {
            let scalars = Array(line.unicodeScalars)
            return GitSyntax.rebaseRuns(Substring(line)).map {
                "\($0.kind):" + String(String.UnicodeScalarView(scalars[$0.range]))
            }
        }
        #expect(runs("pick 1a2b3c4 Fix the @jdoe thing") == ["rebaseCommand:pick", "rebaseHash:1a2b3c4",
                                                            "rebaseSubject:Fix the @jdoe thing"])
        #expect(runs("fixup -C 1a2b3c4 Amend") == ["rebaseCommand:fixup -C", "rebaseHash:1a2b3c4", "rebaseSubject:Amend"])
        #expect(runs("exec make test") == ["rebaseCommand:exec", "rebaseSubject:make test"])
        #expect(runs("break") == ["rebaseCommand:break"])
        #expect(runs("label onto") == ["rebaseCommand:label", "rebaseHash:onto"])
        #expect(runs("nonsense 1a2b") == [])
        // In the editor: comment lines as comments, and no search (a rebase list is text).
        var config = EditorConfig(format: .text)
        config.git = GitFile(kind: .rebaseList)
        let e = Editor(MarkedText(text: "pick 1a2b Fix\n# Commands:\n"), config: config)
        #expect(e.gitRuns(in: 0 ..< 27).map { "\($0.kind) \($0.range)" }
            == ["rebaseCommand 0..<4", "rebaseHash 5..<9", "rebaseSubject 10..<13", "comment 14..<25"])
    }
}
