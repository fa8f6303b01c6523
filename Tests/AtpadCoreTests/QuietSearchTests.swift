import AtpadCore
import Testing

/// Quiet searches (docs/keys.md) in the core alone (the harness's prefix-matching people):
/// the quiet-word rule of implicit searches, strong matches only, insert completions and
/// quiet triggers.
@Suite struct QuietSearchTests {
    @Test func quietWordsSilenceWordsAndTheirBeginnings() {
        let quiet = QuietWords(list: "# a comment\nthe\nJohn\n\nhello\n")
        #expect(quiet.silences("the") && quiet.silences("th") && quiet.silences("THE"))
        #expect(quiet.silences("hel") && quiet.silences("joh"))
        #expect(!quiet.silences("johnn") && !quiet.silences("then") && !quiet.silences("# a"))
        #expect(!QuietWords().silences("the"))
    }

    @Test func anImplicitSearchWaitsUntilTheWordLeavesTheList() throws {
        let config = EditorConfig(quietWords: QuietWords(["john"]))
        var h = try Harness("|", config: config)
        try h.keys("joh")
        #expect(h.editor.search == nil)
        try h.keys("n")
        #expect(h.editor.search == nil)
        #expect(h.queries.isEmpty, "nothing was asked")
        let people = [Entity(id: "9", name: "Johnny Cash")] + samplePeople
        h = try Harness("|", config: config, people: people)
        try h.keys("johnn")
        #expect(h.editor.search?.isOpen == true)
        #expect(h.chooserIDs == ["9"])
    }

    @Test func implicitSearchesKeepOnlyStrongMatches() throws {
        var h = try Harness("|")
        h.answer = { _ in
            [Candidate(entity: Entity(id: "1", name: "Aisha Bello"), isStrong: false),
             Candidate(entity: Entity(id: "2", name: "Bellona Ray"), isStrong: true),
             Candidate(entity: Entity(id: "3", name: "From a command"))]
        }
        try h.keys("bell")
        #expect(h.chooserIDs == ["2", "3"])
        var explicit = try Harness("|")
        explicit.answer = h.answer
        try explicit.keys("@bell")
        #expect(explicit.chooserIDs == ["1", "2", "3"], "an explicit search shows every class")
    }

    @Test func anInsertCompletionReplacesTriggerAndQueryWithPlainText() throws {
        var h = try Harness("see |", config: EditorConfig(triggers: ["@", ":"]))
        h.answer = { _ in [Candidate(entity: Entity(id: "1f389", name: "party popper", handle: "tada", insert: "🎉"))] }
        try h.keys(":tada<Tab>")
        #expect(h.state == "see 🎉|")
        #expect(h.editor.mentions.isEmpty)
        try h.keys("<C-z>")
        #expect(h.state == "see :tada|", "one undo step")
    }

    @Test func aQuietTriggerAsksNothingBeforeTwoCharacters() throws {
        var h = try Harness("|", config: EditorConfig(triggers: ["@", ":"]))
        try h.keys(":)")
        #expect(h.queries.isEmpty)
        #expect(h.editor.search?.isOpen == false)
        try h.keys(" ")
        #expect(h.editor.search == nil, "a space after an empty answer ends it")
    }
}
