import AtpadCore
import Testing

/// People in trailers (docs/git.md): in a commit message, `@` after `Co-authored-by: `,
/// `Signed-off-by: ` or another person trailer at the start of a line inserts
/// `Name <email>` as text, with nothing after it.
@Suite struct PersonTrailersTests {
    static let people = [
        Entity(id: "1", name: "John Doe", handle: "jdoe", email: "john@example.com"),
        Entity(id: "2", name: "Joan Noemail", handle: "joan"),
        Entity(id: "3", name: "Jane Roe", email: "12+jroe@users.noreply.github.com"),
    ]
    static var commitMessage: EditorConfig {
        var config = EditorConfig()
        config.personTrailers = PersonTrailers(extra: ["Mentored-by"])
        return config
    }

    private func harness(_ start: String, config: EditorConfig = commitMessage) throws -> Harness {
        try Harness(start, config: config, people: Self.people)
    }

    @Test func aPickInsertsNameAndEmailWithNothingAfter() throws {
        var h = try harness("Fix it\n\n|")
        try h.keys("Co-authored-by: @jo<Enter>")
        #expect(h.state == "Fix it\n\nCo-authored-by: John Doe <john@example.com>|")
        #expect(h.editor.marked.mentions.isEmpty)
        // One undo step brings the typed query back.
        try h.keys("<C-z>")
        #expect(h.state == "Fix it\n\nCo-authored-by: @jo|")
    }

    @Test func theKeyIsReadInAnyCaseWithSpacesOrTabsAfterIt() throws {
        var h = try harness("|")
        try h.keys("co-authored-BY:\t @ja<Enter>")
        #expect(h.state == "co-authored-BY:\t Jane Roe <12+jroe@users.noreply.github.com>|")
    }

    @Test func theChooserShowsEmailsAndWhySomeoneCannotBePicked() throws {
        var h = try harness("|")
        try h.keys("Co-authored-by: @jo")
        let items = h.editor.search?.items ?? []
        #expect(items.map(\.entity.id) == ["1", "2"])
        #expect(items.map(\.entity.detail) == ["john@example.com", PersonTrailers.noEmail])
        // Enter on Joan does nothing: the chooser stays open, the text as it was.
        try h.keys("<Down><Enter>")
        #expect(h.state == "Co-authored-by: @jo|")
        #expect(h.editor.search?.items.count == 2)
        try h.keys("<Up><Enter>")
        #expect(h.state == "Co-authored-by: John Doe <john@example.com>|")
    }

    @Test func elsewhereAtMakesAMention() throws {
        // Not at the start of a line, another key, or not a commit message: a mention.
        #expect(try harnessState("x Co-authored-by: |", "@jo<Enter>") == "x Co-authored-by: @[John Doe](1) |")
        #expect(try harnessState("Reviewd-by: |", "@jo<Enter>") == "Reviewd-by: @[John Doe](1) |")
        #expect(try harnessState("Co-authored-by: |", "@jo<Enter>", config: EditorConfig())
            == "Co-authored-by: @[John Doe](1) |")
        #expect(try harnessState("Co-authored-by: John |", "@jo<Enter>") == "Co-authored-by: John @[John Doe](1) |")
    }

    private func harnessState(_ start: String, _ keys: String, config: EditorConfig = commitMessage) throws -> String {
        var h = try harness(start, config: config)
        try h.keys(keys)
        return h.state
    }

    @Test func everyPersonTrailerAndTheConfigsOwn() throws {
        for key in PersonTrailers.standard + ["Mentored-by", "mentored-BY"] {
            #expect(try harnessState("Fix\n\n|", "\(key): @jo<Enter>") == "Fix\n\n\(key): John Doe <john@example.com>|", "\(key)")
        }
    }

    @Test func theTrailerKeyTest() {
        let trailers = PersonTrailers()
        #expect(trailers.isTrailerKey("Co-authored-by: "))
        #expect(trailers.isTrailerKey("CO-AUTHORED-BY:  \t"))
        #expect(trailers.isTrailerKey("Signed-off-by: ") && trailers.isTrailerKey("cc: "))
        #expect(!trailers.isTrailerKey("Co-authored-by:"))
        #expect(!trailers.isTrailerKey(" Co-authored-by: "))
        #expect(!trailers.isTrailerKey("Co-authored-by: x "))
        #expect(!trailers.isTrailerKey("Mentored-by: "))
        #expect(PersonTrailers(extra: ["Mentored-by"]).isTrailerKey("mentored-by: "))
        #expect(PersonTrailers.isValidKey("Mentored-by") && PersonTrailers.isValidKey("X2"))
        #expect(!PersonTrailers.isValidKey("Mentored by") && !PersonTrailers.isValidKey("-x") && !PersonTrailers.isValidKey("a:")
            && !PersonTrailers.isValidKey(""))
        #expect(PersonTrailers.trailerValue(Entity(id: "a", name: "A B", email: "a@b")) == "A B <a@b>")
        #expect(GitFile.kind(ofPath: "/repo/.git/COMMIT_EDITMSG") == .message)
        #expect(GitFile.kind(ofPath: ".git/MERGE_MSG") == .message && GitFile.kind(ofPath: "MERGE_MSG") == .message)
        #expect(GitFile.kind(ofPath: ".git/TAG_EDITMSG") == .message && GitFile.kind(ofPath: "SQUASH_MSG") == .message)
        #expect(GitFile.kind(ofPath: "COMMIT_EDITMSG.md") == nil && GitFile.kind(ofPath: "rebase-merge/git-rebase-todo") == .rebaseList)
        #expect(PersonTrailers.trailerValue(Entity(id: "a", name: "A B", email: "")) == nil)
    }
}

/// Alt-O: `Signed-off-by:` where `git commit -s` puts it (docs/git.md, "Signing off").
@Suite struct SignOffTests {
    static let line = "Signed-off-by: A U Thor <a@example.com>"

    @Test func afterTheTrailersOrAfterABlankLine() {
        let so = { (text: String) in PersonTrailers.signOff(Self.line, in: text) }
        // A message of a subject and a body: a blank line, then the trailer.
        #expect(so("Fix it\n\nBecause.\n# Please enter\n#\n")! == (16, "\n\n" + Self.line))
        // After a block of trailers: on the next line.
        #expect(so("Fix it\n\nReviewed-by: X <x@e>\n\n# c\n")! == (28, "\n" + Self.line))
        // The subject alone is no trailer block, even shaped like one.
        #expect(so("fix: the parser\n")! == (15, "\n\n" + Self.line))
        // An empty message: before everything, a subject line left to type.
        #expect(so("\n# Please enter the commit message\n")! == (0, "\n\n" + Self.line))
        #expect(so("")! == (0, "\n\n" + Self.line))
        // Once: the last trailer is the sign-off already.
        #expect(so("Fix\n\nSigned-off-by: A U Thor <a@example.com>  \n") == nil)
        #expect(so("Fix\n\n\(Self.line)\nCc: Z <z@e>\n")! == (56, "\n" + Self.line))
    }

    @Test func altOInsertsItAsOneUndoStep() throws {
        var config = EditorConfig()
        config.personTrailers = PersonTrailers()
        config.signOffIdent = "A U Thor <a@example.com>"
        var h = try Harness("Fix it|\n# Please enter\n", config: config)
        try h.keys("<M-o>")
        #expect(h.state == "Fix it\n\n\(Self.line)|\n# Please enter\n")
        try h.keys("<M-o>")
        #expect(h.effects.contains(.notice("Already signed off: \(Self.line)")))
        try h.keys("<C-z>")
        #expect(h.state == "Fix it|\n# Please enter\n")
        // Outside git's messages, or without git's identity: a line says why.
        var plain = try Harness("x|")
        try plain.keys("<M-o>")
        #expect(plain.state == "x|")
        #expect(plain.effects.contains(.notice("Alt-O signs off git's commit messages only")))
        config.signOffIdent = nil
        var unknown = try Harness("x|", config: config)
        try unknown.keys("<M-o>")
        #expect(unknown.effects.contains(.notice("Not signed off: git has no name and email (git config user.name, user.email)")))
    }
}
