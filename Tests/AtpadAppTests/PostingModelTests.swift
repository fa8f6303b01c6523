@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Testing

/// Posting in the app model (`--to`, docs/posting.md, "From the editor"): the question and
/// who it names, y/n/Esc, the posting state, and what success and failure leave. No
/// network: the `.post` effect and the `.postFinished` event are the boundary.
@Suite struct PostingModelTests {
    let slack = PostTarget.slack(channel: "C1", thread: nil)

    func harness(_ markup: String, path: String? = nil) throws -> AppHarness {
        var app = try AppHarness(markup, path: path)
        app.model.postTarget = slack
        return app
    }

    @Test func withoutAFileCtrlSAsksAtOnceNamingWhoIsNotified() throws {
        var app = try harness("hi @[John Doe](U1), @[Jane Roe](U2) and @[John Doe](U1); @ghost|")
        #expect(try app.keys("<C-s>") == [])
        #expect(app.model.mode == .postQuestion(slack))
        #expect(app.promptLine == "Post to slack:C1? (y)es (n)o")
        #expect(app.model.message == "Notifies @John Doe and @Jane Roe; @ghost is not a mention")
        let effects = try app.keys("y")
        #expect(effects == [.flushDraft, .post(slack, app.model.editor.marked)])
        #expect(app.model.mode == .posting(slack))
        #expect(app.model.message.hasPrefix("Posting to slack:C1…"))
    }

    @Test func withAFileCtrlSSavesFirstThenAsks() throws {
        var app = try harness("hi", path: "c.atpad")
        try app.keys("<C-s>")
        let save = try #require(app.lastSave)
        #expect(save.then == .post)
        #expect(app.model.mode == .editing)
        app.send(.saved(save))
        #expect(app.model.mode == .postQuestion(slack))
        #expect(app.model.message == "Notifies nobody")
    }

    @Test func noAndEscGoBackToEditingAndCtrlQAsksToQuit() throws {
        for answer in ["n", "<Esc>"] {
            var app = try harness("hi|")
            try app.keys("<C-s>")
            #expect(try app.keys(answer) == [])
            #expect(app.model.mode == .editing)
            #expect(app.model.message == "Not posted")
            try app.keys("!")
            #expect(app.text == "hi!")
        }
        var app = try harness("hi|")
        try app.keys("x<C-s><C-q>")
        #expect(app.model.mode == .quitQuestion)
        // Other keys wait for an answer.
        var asked = try harness("hi|")
        try asked.keys("<C-s>zz")
        #expect(asked.model.mode == .postQuestion(slack))
        #expect(asked.text == "hi")
    }

    @Test func whilePostingKeysWaitAndCtrlQQuitsKeepingTheDraft() throws {
        var app = try harness("hi|")
        try app.keys("<C-s>y")
        #expect(try app.keys("abc<BS><C-s><Enter>") == [])
        #expect(app.text == "hi")
        #expect(app.model.mode == .posting(slack))
        let effects = try app.keys("<C-q>")
        #expect(effects.first == .flushDraft)
        #expect(effects.contains { if case let .noteOnExit(text) = $0 { text.contains("may still arrive") } else { false } })
        #expect(effects.last == .quit(status: 1, output: nil))
        #expect(!effects.contains(.discardDraft))
    }

    @Test func keysTypedWhilePostingApplyWhenItFails() throws {
        var app = try harness("hi|")
        try app.keys("<C-s>y")
        try app.keys(" there")
        #expect(app.text == "hi")
        #expect(app.model.message == "Posting to slack:C1… 6 keys typed meanwhile, applied if it fails (Ctrl-Q quits)")
        let effects = app.send(.postFinished(.failed("Not posted to slack:C1: HTTP 500")))
        #expect(effects.first == .flushDraft)
        #expect(app.text == "hi there")
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "Not posted to slack:C1: HTTP 500")
    }

    @Test func ctrlQWhilePostingAFileSaysWhereTheTextIs() throws {
        var app = try harness("hi", path: "c.atpad")
        try app.keys("<C-s>")
        app.send(.saved(try #require(app.lastSave)))
        try app.keys("y")
        let effects = try app.keys("<C-q>")
        #expect(effects.contains(.noteOnExit("atpad: quit while posting to slack:C1: the comment may still arrive there; the text is in c.atpad as saved, and its draft (atpad drafts)")))
    }

    @Test func successPrintsTheResultRemovesTheDraftAndExits0() throws {
        var app = try harness("hi|")
        try app.keys("<C-s>y")
        let effects = app.send(.postFinished(.posted(result: "C1 1.2")))
        #expect(effects == [.discardDraft, .quit(status: 0, output: Array("C1 1.2\n".utf8))])
    }

    @Test func failureKeepsTextMentionsAndDraftAndCtrlSAsksAgain() throws {
        var app = try harness("hi @[John Doe](U1)|")
        let before = app.model.editor.marked
        try app.keys("<C-s>y")
        let effects = app.send(.postFinished(.failed("Not posted to slack:C1: HTTP 500")))
        #expect(effects == [.flushDraft])
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "Not posted to slack:C1: HTTP 500")
        #expect(app.model.editor.marked == before)
        try app.keys("<C-s>")
        #expect(app.model.mode == .postQuestion(slack))
        // An outcome that arrives when nothing is posting changes nothing.
        var idle = try harness("x")
        #expect(idle.send(.postFinished(.posted(result: "late"))) == [])
    }

    @Test func anEmptyCommentIsNotAsked() throws {
        var app = try harness(" \n ")
        #expect(try app.keys("<C-s>") == [])
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "Not posted: the comment is empty")
    }

    @Test func withoutATargetCtrlSStillSaves() throws {
        var app = try AppHarness("hi", path: "c.atpad")
        try app.keys("<C-s>")
        #expect(app.lastSave?.then == .keepEditing)
    }
}
