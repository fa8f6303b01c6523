@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation
import Testing

/// Issue 32, "What you see is what the file holds": the exit status after a save
/// (docs/exit-status.md), the unnamed draft named on the message line instead of asked
/// about, Alt-D recovering it, and the keys held while a FILE's draft question is up
/// (docs/drafts.md). The app model driven by key scripts; no terminal, no files.
@Suite struct WhatTheFileHoldsTests {
    // MARK: - Exit status

    /// Saves what the model asked to save (as the runtime does when the write succeeds).
    func completeSave(_ app: inout AppHarness) throws {
        let save = try #require(app.lastSave)
        app.send(.saved(save))
    }

    @Test func savedThenDiscardingLaterChangesExitsZero() throws {
        // git commit: type, Ctrl-S, type more, Ctrl-Q, n — the file holds what was saved.
        var app = try AppHarness("\n# comment", path: "COMMIT_EDITMSG", format: .github)
        try app.keys("Fix it<C-s>")
        try completeSave(&app)
        try app.keys(" and more<C-q>")
        #expect(app.promptLine == "Save changes before quitting? (y)es (n)o (Esc) cancel")
        try app.keys("n")
        #expect(app.quit?.status == 0)
        #expect(app.quit?.output == nil)
        #expect(app.effects.last == .quit(status: 0, output: nil))
        #expect(app.effects.contains(.discardDraft))
    }

    @Test func nothingSavedThenDiscardingExitsOne() throws {
        var app = try AppHarness("msg", path: "COMMIT_EDITMSG", format: .github)
        try app.keys("x<C-q>n")
        #expect(app.quit?.status == 1)
        // A save that failed is no save.
        var failed = try AppHarness("msg", path: "COMMIT_EDITMSG", format: .github)
        try failed.keys("x<C-s>")
        failed.send(.saveFailed(try #require(failed.lastSave), message: "disk full"))
        try failed.keys("<C-q>n")
        #expect(failed.quit?.status == 1)
    }

    @Test func savedThenQuitWithNothingUnsavedExitsZero() throws {
        var app = try AppHarness("msg", path: "a.md")
        try app.keys("x<C-s>")
        try completeSave(&app)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
        // Undoing back to the saved text is nothing unsaved either.
        var undone = try AppHarness("msg", path: "a.md")
        try undone.keys("x<C-s>")
        try completeSave(&undone)
        try undone.keys("y<C-z><C-q>")
        #expect(undone.quit?.status == 0)
    }

    @Test func saveAsThenDiscardingExitsZero() throws {
        var app = try AppHarness("")
        try app.keys("words<C-s>out.md<Enter>")
        try completeSave(&app)
        try app.keys(" more<C-q>n")
        #expect(app.quit?.status == 0)
    }

    @Test func printWithoutConfirmingExitsOne() throws {
        var app = try AppHarness("", print: true)
        try app.keys("typed<C-q>n")
        #expect(app.quit?.status == 1)
        #expect(app.quit?.output == nil)
        var untouched = try AppHarness("", print: true)
        try untouched.keys("<C-q>")
        #expect(untouched.quit?.status == 1)
    }

    @Test func printConfirmedExitsZeroAndPrints() throws {
        var app = try AppHarness("", print: true)
        try app.keys("typed<C-s>")
        #expect(app.quit?.status == 0)
        #expect(app.quit?.output == "typed")
    }

    @Test func printWithAFileSavedThenDiscardedPrintsWhatWasSaved() throws {
        var app = try AppHarness("a & b", path: "n.slack", format: .slack, print: true)
        try app.keys("<C-End> c<C-s>")
        try completeSave(&app)
        try app.keys(" later<C-q>n")
        #expect(app.quit?.status == 0)
        // What the file holds, in its format — not the text given up.
        #expect(app.quit?.output == "a &amp; b c")
    }

    @Test func theTerminalGoingAwayWithChangesIsOneEvenAfterASave() throws {
        // Nobody chose to give them up: they are in the draft, and git must not go on.
        var app = try AppHarness("msg", path: "a.md")
        try app.keys("x<C-s>")
        try completeSave(&app)
        try app.keys("y")
        app.send(.endOfInput)
        #expect(app.effects.contains(.flushDraft))
        #expect(app.quit?.status == 1)
        // With nothing unsaved it is a quit like Ctrl-Q's.
        var clean = try AppHarness("msg", path: "a.md")
        try clean.keys("x<C-s>")
        try completeSave(&clean)
        clean.send(.endOfInput)
        #expect(clean.quit?.status == 0)
        #expect(clean.effects.contains(.discardDraft))
        var printing = try AppHarness("", print: true)
        printing.send(.endOfInput)
        #expect(printing.quit?.status == 1)
    }

    // MARK: - The unnamed draft on the message line

    func unnamedDraft(_ text: String = "left behind", cursor: Int? = nil) -> Draft {
        Draft(path: "/state/unnamed-20250601T120005Z-42.draft", originalPath: nil,
              modified: .init(timeIntervalSince1970: 0), written: nil, writerPID: 42,
              document: MarkedText(text: text), damage: nil, cursor: cursor)
    }

    func notice(count: Int = 1, draft: Draft? = nil) -> DraftNotice {
        DraftNotice(draft: draft ?? unnamedDraft(), count: count, time: "10:32")
    }

    func messageLine(_ app: AppHarness) -> String {
        app.model.view(viewport: Viewport()).message
    }

    @Test func theNoticeNamesTheDraftAndTheKeyAndAsksNothing() throws {
        var app = try AppHarness()
        #expect(app.model.start(naming: notice()) == [.startDrafts(path: nil)])
        #expect(app.model.mode == .editing)
        #expect(app.promptLine == nil)
        #expect(messageLine(app) == "1 unsaved draft from 10:32 — Alt-D recovers it")
        var many = try AppHarness()
        _ = many.model.start(naming: notice(count: 3))
        #expect(messageLine(many) == "3 unsaved drafts, the newest from 10:32 — Alt-D recovers it")
    }

    @Test func typingGoesOnAndTheNoticeStays() throws {
        var app = try AppHarness()
        _ = app.model.start(naming: notice())
        try app.keys("@johnny")
        #expect(app.text == "@johnny")
        #expect(messageLine(app) == "1 unsaved draft from 10:32 — Alt-D recovers it")
        try app.keys("<Esc> ok<Left>")
        #expect(app.text == "@johnny ok")
        #expect(messageLine(app).hasSuffix("Alt-D recovers it"))
    }

    @Test func altDRecoversIntoAnEmptyComment() throws {
        var app = try AppHarness()
        _ = app.model.start(naming: notice(draft: unnamedDraft(cursor: 4)))
        let effects = try app.keys("<M-d>")
        #expect(app.text == "left behind")
        #expect(app.cursor == 4)
        #expect(app.model.editor.isModified)
        // This session's draft takes the text before the old one goes.
        #expect(effects == [.core(.documentChanged), .flushDraft, .removeDraft(unnamedDraft(cursor: 4))])
        #expect(messageLine(app) == "Draft recovered; Ctrl-S saves it")
        #expect(app.model.draftNotice == nil)
        // Recovered once: Alt-D deletes the word forward again.
        try app.keys("<M-d>")
        #expect(app.text == "left")
    }

    @Test func altDAfterTypingIsOneUndoStep() throws {
        var app = try AppHarness()
        _ = app.model.start(naming: notice())
        try app.keys("typed first words")
        try app.keys("<M-d>")
        #expect(app.text == "left behind")
        try app.keys("<C-z>")
        #expect(app.text == "typed first words")
        try app.keys("<C-y>")
        #expect(app.text == "left behind")
        // Typing after the recovery is a step of its own.
        try app.keys("<C-End>!<C-z>")
        #expect(app.text == "left behind")
    }

    @Test func altDEndsASearchFirst() throws {
        var app = try AppHarness()
        _ = app.model.start(naming: notice())
        try app.keys("@jo")
        #expect(app.model.editor.search != nil)
        try app.keys("<M-d>")
        #expect(app.model.editor.search == nil)
        #expect(app.text == "left behind")
    }

    @Test func theNoticeEndsWhenTheMessageLineSaysSomethingElse() throws {
        var app = try AppHarness("|hello world")
        _ = app.model.start(naming: notice())
        app.send(.notice("Directory for @ not loaded: gone"))
        try app.keys("<End><Home>")
        #expect(messageLine(app) == "")
        try app.keys("<M-d>")
        #expect(app.text == " world", "Alt-D deletes the word forward once the notice is gone")

        var saved = try AppHarness()
        _ = saved.model.start(naming: notice())
        try saved.keys("x<C-s>n.md<Enter>")
        try completeSave(&saved)
        #expect(messageLine(saved).hasPrefix("Saved n.md"))
        #expect(saved.model.draftNotice == nil)
    }

    @Test func theNoticeIsTheDraftNoticeModeOfTheKeymap() {
        #expect(Keymap.command(for: .alt("d"), in: .draftNotice) == .recoverDraft)
        #expect(Keymap.command(for: .alt("d"), in: .editing) == .deleteWordForward)
        #expect(Keymap.rows().contains { $0.keys == "Alt-D" && $0.help == "Recover the draft" })
    }

    @Test func aNoticeCountsTheDraftsAndTellsTheTime() throws {
        #expect(DraftNotice(drafts: []) == nil)
        let now = Date()
        let drafts = [unnamedDraft("new"), unnamedDraft("old")]
        var first = drafts[0]
        first.written = now
        let made = try #require(DraftNotice(drafts: [first, drafts[1]], now: now))
        #expect(made.count == 2)
        #expect(made.draft.document.text == "new")
        #expect(made.time.wholeMatch(of: /\d\d:\d\d/) != nil, "\(made.time)")
        #expect(DraftNotice.clock(now, now: now) == made.time)
        #expect(DraftNotice.clock(now, now: now.addingTimeInterval(24 * 60 * 60)) == "yesterday " + made.time)
    }

    // MARK: - The named draft question holds keys

    func namedDraft() -> Draft {
        Draft(path: "/state/a.md.draft", originalPath: "/w/a.md", modified: .init(timeIntervalSince1970: 0),
              written: nil, writerPID: nil, document: MarkedText(text: "from the draft"), damage: nil, cursor: 14)
    }

    @Test func keysTypedAtTheQuestionAreAppliedInOrderAfterTheAnswer() throws {
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: namedDraft())
        try app.keys(" @johnny")
        #expect(app.text == "file text")
        #expect(app.model.mode.isDraftQuestion)
        #expect(messageLine(app) == "8 keys typed meanwhile, applied once you answer")
        try app.keys("r")
        #expect(app.text == "from the draft @johnny")
        #expect(app.model.mode == .editing)
        #expect(app.model.heldKeys.isEmpty)
        #expect(messageLine(app) == "Draft recovered; Ctrl-S saves it")

        var discarded = try AppHarness("file text|", path: "a.md")
        _ = discarded.model.start(offering: namedDraft())
        try discarded.keys("<BS><BS>xt!d")
        #expect(discarded.text == "file text!", "Backspace twice, then x t !")
        #expect(discarded.effects.contains(.removeDraft(namedDraft())))
    }

    @Test func heldKeysMayBeCommands() throws {
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: namedDraft())
        // (no r, d or k before the answer: those are answers)
        try app.keys("<C-End> next<C-s>k")
        #expect(app.effects.contains(.keepDraftAside(namedDraft())))
        #expect(app.text == "file text next")
        #expect(app.lastSave?.contents == Array("file text next".utf8))
    }

    @Test func keysTypedAheadNeverAnswerTheQuestion() throws {
        // Typed before the first frame: `d` is a letter of a word, not "discard".
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: namedDraft())
        for key in try KeyScript.parse("done") { app.send(.typedAhead(key)) }
        #expect(app.model.mode.isDraftQuestion)
        #expect(!app.effects.contains(.removeDraft(namedDraft())))
        try app.keys("k")
        #expect(app.text == "donefile text")
        // Ctrl-Q typed ahead is held too, and asks about the held text once answered.
        var quitting = try AppHarness("file text", path: "a.md")
        _ = quitting.model.start(offering: namedDraft())
        for key in try KeyScript.parse("x<C-q>") { quitting.send(.typedAhead(key)) }
        #expect(quitting.quit == nil)
        try quitting.keys("d")
        #expect(quitting.model.mode == .quitQuestion)
        // Without a question they are typed at once.
        var plain = try AppHarness()
        for key in try KeyScript.parse("@jo") { plain.send(.typedAhead(key)) }
        #expect(plain.text == "@jo")
    }

    @Test func ctrlQAtTheQuestionQuitsAndGivesUpWhatWasHeld() throws {
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: namedDraft())
        try app.keys("abc<C-q>")
        #expect(app.quit?.status == 0)
        #expect(app.model.heldKeys.isEmpty)
        #expect(!app.effects.contains(.removeDraft(namedDraft())))
    }

    // MARK: - The loop: keys typed during start-up, a real drafts folder

    @Test func keysTypedBeforeTheFirstFrameReachTheTextAndAltDRecovers() throws {
        let dir = NSTemporaryDirectory() + "atpad-holds-\(UUID().uuidString)"
        let store = DraftStore(folder: dir + "/drafts")
        // Left by an atpad that is gone (no process has this pid).
        let left = store.unnamedDraftPath(started: Date(), pid: 2_000_000_001)
        try store.write(MarkedText(text: "left behind"), originalPath: nil, to: left, pid: 2_000_000_001)
        var options = EditOptions(path: nil, document: MarkedText(), sources: [:], config: EditorConfig(),
                                  theme: Theme(name: "test"), noColor: true, print: false)
        options.drafts = store
        let terminal = try FakeTerminal(keys: "<M-d><C-z><C-q>n")
        terminal.typedAhead = try KeyScript.parse("@johnny").map { .key($0) }
        let session = EditSession(options, terminal: terminal)
        let (status, _) = session.run()
        let first = terminal.screens[0].lines
        #expect(first[1].hasPrefix("@johnny"), "typed ahead, in the first frame")
        #expect(first.contains { $0.contains("1 unsaved draft from ") && $0.contains("Alt-D recovers it") })
        #expect(!first.contains { $0.contains("Recover unsaved draft?") })
        #expect(terminal.screens[1].lines[1].hasPrefix("left behind"), "Alt-D recovered it")
        #expect(terminal.screens[2].lines[1].hasPrefix("@johnny"), "Ctrl-Z brought the typed text back")
        #expect(status == 1, "nothing saved, changes given up")
        #expect(!FileManager.default.fileExists(atPath: left), "the recovered draft is gone")
    }
}
