import AtpadCore
import Testing

/// Co-authors (docs/people.md): in a commit message, `@` after `Co-authored-by: ` at the start of
/// a line inserts `Name <email>` as text, with nothing after it.
@Suite struct CoAuthorTests {
    static let people = [
        Entity(id: "1", name: "John Doe", handle: "jdoe", email: "john@example.com"),
        Entity(id: "2", name: "Joan Noemail", handle: "joan"),
        Entity(id: "3", name: "Jane Roe", email: "12+jroe@users.noreply.github.com"),
    ]
    static var commitMessage: EditorConfig {
        var config = EditorConfig()
        config.coAuthorTrailers = true
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
        #expect(items.map(\.entity.detail) == ["john@example.com", CoAuthor.noEmail])
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
        #expect(try harnessState("Reviewed-by: |", "@jo<Enter>") == "Reviewed-by: @[John Doe](1) |")
        #expect(try harnessState("Co-authored-by: |", "@jo<Enter>", config: EditorConfig())
            == "Co-authored-by: @[John Doe](1) |")
        #expect(try harnessState("Co-authored-by: John |", "@jo<Enter>") == "Co-authored-by: John @[John Doe](1) |")
    }

    private func harnessState(_ start: String, _ keys: String, config: EditorConfig = commitMessage) throws -> String {
        var h = try harness(start, config: config)
        try h.keys(keys)
        return h.state
    }

    @Test func theTrailerKeyTest() {
        #expect(CoAuthor.isTrailerKey("Co-authored-by: "))
        #expect(CoAuthor.isTrailerKey("CO-AUTHORED-BY:  \t"))
        #expect(!CoAuthor.isTrailerKey("Co-authored-by:"))
        #expect(!CoAuthor.isTrailerKey(" Co-authored-by: "))
        #expect(!CoAuthor.isTrailerKey("Co-authored-by: x "))
        #expect(CoAuthor.trailerValue(Entity(id: "a", name: "A B", email: "a@b")) == "A B <a@b>")
        #expect(CoAuthor.isCommitMessage(path: "/repo/.git/COMMIT_EDITMSG"))
        #expect(CoAuthor.isCommitMessage(path: ".git/MERGE_MSG") && CoAuthor.isCommitMessage(path: "MERGE_MSG"))
        #expect(!CoAuthor.isCommitMessage(path: ".git/TAG_EDITMSG") && !CoAuthor.isCommitMessage(path: "COMMIT_EDITMSG.md"))
        #expect(CoAuthor.trailerValue(Entity(id: "a", name: "A B", email: "")) == nil)
    }
}
