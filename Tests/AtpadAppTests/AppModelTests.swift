@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Testing

/// The app model driven by key scripts: every mode, prompt and question, with Esc and
/// Ctrl-Q from each (docs/editor.md, docs/keys.md). No terminal and no files: the effects
/// are checked.
@Suite struct AppModelTests {
    // MARK: Saving

    @Test func ctrlSWithoutAFileAsksSaveAsAndTakesTheFormatFromTheName() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>")
        #expect(app.promptLine == "Save as:")
        try app.keys("notes.json<Enter>")
        let save = try #require(app.lastSave)
        #expect(save.path == "notes.json")
        #expect(save.format == .json)
        #expect(save.confirmOverwrite)
        #expect(save.contents == DocumentFormat.json.encodeUTF8(app.model.editor.marked, lookup: .empty))
        app.send(.saved(save))
        #expect(app.model.mode == .editing)
        #expect(app.model.document.path == "notes.json")
        #expect(app.model.document.format == .json)
        #expect(!app.model.editor.isModified)
        #expect(app.model.message == "Saved notes.json (0 mentions)")
    }

    /// Saving in a format whose service someone has no account on says so
    /// (docs/people.md, "One person, many accounts").
    @Test func savingSaysWhoTheFormatHasNoAccountFor() throws {
        var app = try AppHarness("hi", path: "c.slack", format: .slack, formatIsFixed: true)
        app.model.document.lookup = EntityLookup(["@": [Entity(id: "p2", name: "Ann Lee", accounts: [.jira: "5b10"])]])
        let doc = AtpadMarkup.decode("hi @[Ann Lee](p2)")
        app.model.editor = Editor(doc, cursor: 0)
        try app.keys("<C-s>")
        let save = try #require(app.lastSave)
        // Her name alone: no `@` that notifies no one (docs/people.md).
        #expect(save.contents == Array("hi Ann Lee".utf8))
        app.send(.saved(save))
        #expect(app.model.message == "Saved c.slack (1 mention) · 1 mention has no slack account and will not be notified: @Ann Lee")
    }

    @Test func saveAsKeepsAFormatNamedWithF() throws {
        var app = try AppHarness("hi", format: .slack, formatIsFixed: true)
        try app.keys("<C-s>out.json<Enter>")
        #expect(app.lastSave?.format == .slack)
    }

    @Test func altSAlwaysAsksPrefilledWithTheCurrentName() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("<M-s>")
        #expect(app.promptLine == "Save as: a.md")
        try app.keys("<BS><BS>txt<Enter>")
        #expect(app.lastSave?.path == "a.txt")
        #expect(app.lastSave?.format == .github)
    }

    @Test func saveAsTakesTheFormatTheNewNameGives() throws {
        var app = try AppHarness("hi", path: "a.md")
        app.model.document.formatRule = FormatRule(patterns: [.init(glob: "*.slack", format: .slack)], fallback: .zulip)
        for (name, format) in [("b.atpad", DocumentFormat.atpad), ("c.slack", .slack), ("d.txt", .zulip), ("e.json", .json)] {
            try app.keys("<M-s><C-u>\(name)<Enter>")
            #expect(app.lastSave?.path == name)
            #expect(app.lastSave?.format == format, "\(name)")
            app.send(.saved(try #require(app.lastSave)))
        }
    }

    @Test func ctrlSWithAFileSavesWithoutAsking() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("x<C-s>")
        let save = try #require(app.lastSave)
        #expect(save.path == "a.md" && !save.confirmOverwrite && save.then == .keepEditing)
        #expect(app.model.mode == .editing)
    }

    @Test func ctrlSWithPrintAndNoFileConfirmsAndPrints() throws {
        var app = try AppHarness("hi @[Jo](1)", print: true)
        try app.keys("<C-s>")
        #expect(app.quit?.status == 0)
        #expect(app.quit?.output == "hi @[Jo](1)")
    }

    @Test func anExistingOtherFileAsksBeforeOverwriting() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>old.md<Enter>")
        let asked = try #require(app.lastSave)
        app.send(.saveNeedsConfirmation(asked))
        #expect(app.promptLine == "Overwrite old.md? (y)es (n)o")
        // Typing is not an answer.
        try app.keys("x")
        #expect(app.text == "hi")
        try app.keys("y")
        #expect(app.lastSave?.confirmOverwrite == false)
        #expect(app.lastSave?.path == "old.md")
    }

    @Test func noToOverwriteGoesBackToTheNameAndEscCancels() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>old.md<Enter>")
        app.send(.saveNeedsConfirmation(try #require(app.lastSave)))
        try app.keys("n")
        #expect(app.promptLine == "Save as: old.md")
        try app.keys("<Enter>")
        app.send(.saveNeedsConfirmation(try #require(app.lastSave)))
        try app.keys("<Esc>")
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "Not saved")
        #expect(app.model.editor.isModified == false)  // nothing was typed
    }

    @Test func ctrlQAtTheOverwriteQuestionQuitsAsAnywhere() throws {
        var app = try AppHarness("hi")
        try app.keys("!<C-s>old.md<Enter>")
        app.send(.saveNeedsConfirmation(try #require(app.lastSave)))
        try app.keys("<C-q>")
        #expect(app.model.mode == .quitQuestion)
    }

    @Test func aFailedSaveAsSaysWhyAndReopensThePrompt() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>nowhere/x.md<Enter>")
        app.send(.saveFailed(try #require(app.lastSave), message: "cannot save nowhere/x.md: no such folder"))
        #expect(app.promptLine == "Save as: nowhere/x.md")
        #expect(app.model.message == "cannot save nowhere/x.md: no such folder")
    }

    @Test func anEmptyNameIsNotSaved() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s><Enter>")
        #expect(app.lastSave == nil)
        #expect(app.promptLine == "Save as:")
    }

    @Test func saveAsPromptEscAndCtrlQ() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>abc<Esc>")
        #expect(app.model.mode == .editing)
        #expect(app.lastSave == nil)
        try app.keys("<C-s>abc<C-q>")
        // Nothing unsaved: Ctrl-Q quits at once, with status 0.
        #expect(app.quit?.status == 0)
    }

    @Test func tabCompletesPaths() throws {
        var app = try AppHarness("hi")
        try app.keys("<C-s>no<Tab>")
        #expect(app.effects.contains(.completePath("no")))
        app.send(.pathCompletions(typed: "no", candidates: ["notes.md"]))
        #expect(app.promptLine == "Save as: notes.md")
        try app.keys("<C-u>d<Tab>")
        app.send(.pathCompletions(typed: "d", candidates: ["docs/", "draft-1.md", "draft-2.md"]))
        #expect(app.promptLine == "Save as: d")
        #expect(app.model.message == "docs/  draft-1.md  draft-2.md")
        try app.keys("r")
        app.send(.pathCompletions(typed: "dr", candidates: ["draft-1.md", "draft-2.md"]))
        #expect(app.promptLine == "Save as: draft-")
        // A late answer for text that has changed since is ignored.
        app.send(.pathCompletions(typed: "x", candidates: ["xyz"]))
        #expect(app.promptLine == "Save as: draft-")
    }

    // MARK: Quitting

    @Test func ctrlQWithNothingUnsavedQuitsWithZero() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
        #expect(app.effects.contains(.discardDraft))
    }

    @Test func ctrlQWithPrintAndNoConfirmationIsOne() throws {
        var app = try AppHarness("hi", print: true)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 1)
        #expect(app.quit?.output == nil)
    }

    @Test func ctrlQWithPrintAndAnUnchangedFilePrintsItAndIsZero() throws {
        // Issue 22: as without --print, a FILE left as it was is no failure; it is printed.
        var app = try AppHarness("notes @[Jo](1)", path: "notes.md", format: .atpad, print: true)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
        #expect(app.quit?.output == "notes @[Jo](1)")
        // In -f's format.
        var slack = try AppHarness("a & b", path: "notes.md", format: .slack, print: true)
        try slack.keys("<C-q>")
        #expect(slack.quit?.status == 0)
        #expect(slack.quit?.output == "a &amp; b")
        // Changed and given up: 1, nothing printed.
        var changed = try AppHarness("notes", path: "notes.md", print: true)
        try changed.keys("x<C-q>n")
        #expect(changed.quit?.status == 1)
        #expect(changed.quit?.output == nil)
        // At the draft question too.
        var asked = try AppHarness("notes", path: "notes.md", print: true)
        _ = asked.model.start(offering: draft())
        try asked.keys("<C-q>")
        #expect(asked.quit?.status == 0)
        #expect(asked.quit?.output == "notes")
    }

    @Test func quitQuestionYesSavesThenQuits() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("x<C-q>")
        #expect(app.promptLine == "Save changes before quitting? (y)es (n)o (Esc) cancel")
        try app.keys("<C-q>")  // asking again changes nothing
        #expect(app.model.mode == .quitQuestion)
        try app.keys("y")
        let save = try #require(app.lastSave)
        #expect(save.then == .quit)
        #expect(app.quit == nil)
        app.send(.saved(save))
        #expect(app.quit?.status == 0)
    }

    @Test func quitQuestionYesWithoutAFileAsksForAName() throws {
        var app = try AppHarness("")
        try app.keys("x<C-q>y")
        #expect(app.promptLine == "Save as:")
        try app.keys("new.md<Enter>")
        let save = try #require(app.lastSave)
        #expect(save.then == .quit)
        app.send(.saved(save))
        #expect(app.quit?.status == 0)
    }

    @Test func quitQuestionNoDiscardsWithOneAndEscCancels() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("x<C-q><Esc>")
        #expect(app.model.mode == .editing)
        #expect(app.quit == nil)
        try app.keys("<C-q>n")
        #expect(app.quit?.status == 1)
        #expect(app.effects.contains(.discardDraft))
    }

    @Test func endOfInputKeepsTheDraftOfUnsavedText() throws {
        var app = try AppHarness("hi", path: "a.md")
        try app.keys("x")
        app.send(.endOfInput)
        #expect(app.effects.contains(.flushDraft))
        #expect(app.quit?.status == 1)
    }

    // MARK: The draft question

    func draft() -> Draft {
        Draft(path: "/state/a.md.draft", originalPath: "/w/a.md", modified: .init(timeIntervalSince1970: 0),
              written: nil, writerPID: nil, document: MarkedText(text: "from the draft"), damage: nil)
    }

    @Test func draftQuestionRecoverDiscardKeep() throws {
        var app = try AppHarness("file text", path: "a.md")
        #expect(app.model.start(offering: draft()).isEmpty)
        #expect(app.promptLine == "Recover unsaved draft? (r)ecover (d)iscard (k)eep both")
        try app.keys("x<Enter>")  // not answers: held until the answer
        #expect(app.text == "file text")
        try app.keys("r")
        #expect(app.text == "x\nfrom the draft")
        #expect(app.model.editor.isModified)
        #expect(app.effects.contains(.startDrafts(path: "a.md")))

        var discard = try AppHarness("file text", path: "a.md")
        _ = discard.model.start(offering: draft())
        try discard.keys("d")
        #expect(discard.effects.contains(.removeDraft(draft())))
        #expect(discard.text == "file text")

        var keep = try AppHarness("file text", path: "a.md")
        _ = keep.model.start(offering: draft())
        try keep.keys("k")
        #expect(keep.effects.contains(.keepDraftAside(draft())))
    }

    @Test func ctrlQAtTheDraftQuestionQuitsAndKeepsTheDraft() throws {
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: draft())
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
        #expect(!app.effects.contains(.discardDraft))
        #expect(!app.effects.contains(.removeDraft(draft())))

        var printing = try AppHarness("", print: true)
        _ = printing.model.start(offering: draft())
        try printing.keys("<C-q>")
        #expect(printing.quit?.status == 1)
    }

    @Test func escAtTheDraftQuestionIsHeldNotAnAnswer() throws {
        var named = try AppHarness("file text", path: "a.md")
        _ = named.model.start(offering: draft())
        try named.keys("<Esc>")
        #expect(named.model.mode.isDraftQuestion)
        #expect(named.model.heldKeys == [.escape])
    }

    @Test func aCommentFromStdinIsTitledAndSavedAs() throws {
        var app = try AppHarness("from stdin")
        app.model.document.untitledName = "[stdin]"
        #expect(app.model.view(viewport: Viewport()).fileName == "[stdin]")
        try app.keys("<C-s>")
        #expect(app.promptLine == "Save as:")
    }

    // MARK: Help and preview

    @Test func helpClosesOnAnyKeyWithoutActing() throws {
        var app = try AppHarness("hi|")
        try app.keys("<F1>")
        #expect(app.model.view(viewport: Viewport()).overlay == .help)
        try app.keys("x")
        #expect(app.model.mode == .editing)
        #expect(app.text == "hi")
        try app.keys("<F1><Esc>")
        #expect(app.model.mode == .editing)
        try app.keys("<F1><C-q>")
        #expect(app.quit?.status == 0)
    }

    @Test func previewShowsTheSavedFormAndAnyKeyReturns() throws {
        var app = try AppHarness("a < b @[Jo](U1)|", format: .slack)
        try app.keys("<F2>")
        #expect(app.model.view(viewport: Viewport()).overlay == .preview(format: "slack", text: "a &lt; b <@U1>"))
        try app.keys("z")
        #expect(app.model.mode == .editing)
        #expect(app.text == "a < b @Jo")
        try app.keys("<F2><Esc>")
        #expect(app.model.mode == .editing)
        try app.keys("x<F2><C-q>")
        #expect(app.model.mode == .quitQuestion)
    }

    // MARK: Find

    @Test func findIsIncrementalAndEnterKeepsTheMatch() throws {
        var app = try AppHarness("hello world, hello moon")
        try app.keys("<C-f>hel")
        let view = app.model.view(viewport: Viewport())
        #expect(view.prompt?.label == "Find:")
        #expect(view.matches == [0..<3, 13..<16])
        #expect(view.currentMatch == 0)
        try app.keys("<C-f>")
        #expect(app.model.view(viewport: Viewport()).currentMatch == 1)
        #expect(app.cursor == 13)
        try app.keys("<Down>")
        #expect(app.model.view(viewport: Viewport()).currentMatch == 0)
        try app.keys("<Up>")
        #expect(app.cursor == 13)
        try app.keys("<Enter>")
        #expect(app.model.mode == .editing)
        #expect(app.cursor == 13)
        #expect(app.model.view(viewport: Viewport()).matches.isEmpty)
        // Ctrl-N / Ctrl-P afterwards, wrapping.
        try app.keys("<C-n>")
        #expect(app.cursor == 0)
        try app.keys("<C-p>")
        #expect(app.cursor == 13)
    }

    @Test func findStartsAtTheCursorAndEscReturns() throws {
        var app = try AppHarness("ab ab a|b ab")
        try app.keys("<C-f>ab")
        #expect(app.cursor == 9)
        try app.keys("<Esc>")
        #expect(app.cursor == 7)
        #expect(app.model.mode == .editing)
        #expect(app.model.lastFind == nil)
    }

    @Test func findWithNoMatchesSaysSo() throws {
        var app = try AppHarness("abc|")
        try app.keys("<C-f>zz")
        #expect(app.model.message == "No matches")
        #expect(app.cursor == 3)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
    }

    @Test func anEmptyFindAndNextSearchesForTheLastQuery() throws {
        var app = try AppHarness("one two one")
        try app.keys("<C-f>one<Enter>")
        try app.keys("<C-f><C-f>")
        #expect(app.promptLine == "Find: one")
    }

    // MARK: Replace

    @Test func replaceAsksAtEachMatch() throws {
        var app = try AppHarness("a b a b a")
        try app.keys("<M-r>")
        #expect(app.promptLine == "Replace:")
        try app.keys("a<Enter>")
        #expect(app.promptLine == "With:")
        try app.keys("xy<Enter>")
        #expect(app.promptLine == "Replace? (y)es (n)o (a)ll")
        try app.keys("ynq")  // q is not an answer
        try app.keys("y")
        #expect(app.text == "xy b a b xy")
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "Replaced 2 occurrences")
    }

    @Test func replaceAllWrapsFromTheCursor() throws {
        var app = try AppHarness("a a |a a")
        try app.keys("<M-r>a<Enter>b<Enter>a")
        #expect(app.text == "b b b b")
        #expect(app.model.message == "Replaced 4 occurrences")
    }

    @Test func replaceWithTheSearchedTextInsideDoesNotLoop() throws {
        var app = try AppHarness("a a")
        try app.keys("<M-r>a<Enter>aa<Enter>a")
        #expect(app.text == "aa aa")
    }

    @Test func replaceEscAndCtrlQ() throws {
        var app = try AppHarness("a a a")
        try app.keys("<M-r>a<Enter>b<Enter>y<Esc>")
        #expect(app.text == "b a a")
        #expect(app.model.mode == .editing)
        try app.keys("<M-r>a<Esc>")
        #expect(app.model.mode == .editing)
        try app.keys("<M-r>a<Enter>b<Enter><C-q>")
        #expect(app.model.mode == .quitQuestion)
    }

    @Test func replaceWithoutMatchesSaysSo() throws {
        var app = try AppHarness("abc")
        try app.keys("<M-r>zz<Enter>y<Enter>")
        #expect(app.model.mode == .editing)
        #expect(app.model.message == "No matches for zz")
    }

    // MARK: Go to line, select all

    @Test func goToLine() throws {
        var app = try AppHarness("one\ntwo\nthree")
        try app.keys("<C-l>")
        #expect(app.promptLine == "Go to line:")
        try app.keys("2<Enter>")
        #expect(app.cursor == 4)
        try app.keys("<C-l>3:3<Enter>")
        #expect(app.cursor == 10)
        try app.keys("<C-l>99<Enter>")
        #expect(app.cursor == 8)
        // Any number of digits: past the end is the last line, past a line's end its end.
        try app.keys("<C-l>99999999999999999999<Enter>")
        #expect(app.cursor == 8)
        #expect(app.model.message == "")
        try app.keys("<C-l>2:99999999999999999999<Enter>")
        #expect(app.cursor == 7)
        try app.keys("<C-l>99999999999999999999:99999999999999999999<Enter>")
        #expect(app.cursor == 13)
        try app.keys("<C-l>-99999999999999999999<Enter>")
        #expect(app.cursor == 0)
        try app.keys("<C-l>99<Enter>")
        try app.keys("<C-l>x<Enter>")
        #expect(app.model.message == "Type a line number, or line:column")
        #expect(app.promptLine == "Go to line: x")
        try app.keys("<Esc>")
        #expect(app.model.mode == .editing)
        #expect(app.cursor == 8)
    }

    @Test func altASelectsAll() throws {
        var app = try AppHarness("hello|")
        try app.keys("<M-a>")
        #expect(app.model.editor.selection.range == 0..<5)
        try app.keys("X")
        #expect(app.text == "X")
    }

    // MARK: The document through undo, searches, the clipboard

    @Test func undoingBackToTheSavedTextClearsModifiedAndQuitsWithoutAsking() throws {
        var app = try AppHarness("hi|", path: "a.md")
        try app.keys("!")
        #expect(app.model.view(viewport: Viewport()).isModified)
        try app.keys("<C-z>")
        #expect(!app.model.view(viewport: Viewport()).isModified)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
    }

    @Test func replaceAllIsOneUndoStep() throws {
        var app = try AppHarness("a b a b a", path: "a.md")
        try app.keys("<M-r>a<Enter>c<Enter>a")
        #expect(app.text == "c b c b c")
        try app.keys("<C-z>")
        #expect(app.text == "a b a b a")
        #expect(!app.model.editor.isModified)
    }

    /// The matches still highlighted follow each replacement (mapped through its change),
    /// and (y)es then (a)ll is still one undo step.
    @Test func yesThenAllIsOneUndoStepAndTheMatchesFollow() throws {
        var app = try AppHarness("a b a b a", path: "a.md")
        try app.keys("<M-r>a<Enter>xyz<Enter>y")
        #expect(app.text == "xyz b a b a")
        let view = app.model.view(viewport: Viewport())
        #expect(view.matches == [6 ..< 7, 10 ..< 11])
        #expect(view.currentMatch == 0)
        #expect(app.cursor == 6)
        try app.keys("a")
        #expect(app.text == "xyz b xyz b xyz")
        #expect(app.model.message == "Replaced 3 occurrences")
        try app.keys("<C-z>")
        #expect(app.text == "a b a b a")
        #expect(!app.model.editor.isModified)
    }

    @Test func appCommandsEndASearchFirst() throws {
        for command in ["<C-s>", "<M-s>", "<C-f>", "<M-r>", "<C-l>", "<M-a>", "<F2>"] {
            var app = try AppHarness("", path: "a.md")
            try app.keys("hi @jo")
            #expect(app.model.editor.search != nil)
            try app.keys(command)
            #expect(app.model.editor.search == nil, "\(command)")
            #expect(app.text == "hi @jo")
        }
    }

    @Test func findSelectsAWholeMentionForAMatchInsideIt() throws {
        var app = try AppHarness("see @[John Doe](u1) soon")
        try app.keys("<C-f>doe<Enter>")
        #expect(app.model.editor.selection.range == 4..<13)
    }

    @Test func findFoldsCaseAndAccentsUnlessTheQueryHasCapitals() throws {
        var app = try AppHarness("José jose JOSE")
        try app.keys("<C-f>jose")
        #expect(app.model.view(viewport: Viewport()).matches.count == 3)
        try app.keys("<Esc><C-f>JOSE")
        #expect(app.model.view(viewport: Viewport()).matches == [10..<14])
    }

    @Test func copyAndCutGoToTheTerminalClipboardUnlessInternal() throws {
        var app = try AppHarness("hello @[Jo Doe](1)|")
        try app.keys("<M-a><C-c>")
        #expect(app.effects.contains(.setClipboard("hello @Jo Doe")))
        var quiet = try AppHarness("hello|", clipboard: false)
        try quiet.keys("<M-a><C-x>")
        #expect(!quiet.effects.contains { if case .setClipboard = $0 { return true } else { return false } })
        #expect(quiet.text == "")
    }

    // MARK: Files that change or may not be written (docs/editor.md)

    @Test func aReadOnlyFileIsSavedUnderAnotherName() throws {
        var app = try AppHarness("hi", path: "ro.md")
        app.model.document.isReadOnly = true
        #expect(app.model.view(viewport: Viewport()).isReadOnly)
        try app.keys("x<C-s>")
        #expect(app.lastSave == nil)
        #expect(app.promptLine == "Save as: ro.md")
        #expect(app.model.message == "ro.md is read-only: save it under another name")
        try app.keys("<C-u>copy.md<Enter>")
        app.send(.saved(try #require(app.lastSave)))
        #expect(!app.model.document.isReadOnly)
    }

    @Test func aFileChangedOnDiskAsksOverwriteReloadOrCancel() throws {
        var app = try AppHarness("mine", path: "f.md")
        try app.keys("<C-e>!<C-s>")
        let save = try #require(app.lastSave)
        #expect(save.checkDisk)
        app.send(.changedOnDisk(save))
        #expect(app.promptLine == "f.md changed on disk: (o)verwrite (r)eload (c)ancel")
        try app.keys("x")  // not an answer
        #expect(app.text == "mine!")
        try app.keys("c")
        #expect(app.model.mode == .editing && app.model.message == "Not saved")
        app.send(.changedOnDisk(save))
        try app.keys("o")
        #expect(app.lastSave?.checkDisk == false)
        app.send(.changedOnDisk(save))
        try app.keys("r")
        #expect(app.effects.last == .reload)
        app.send(.reloaded(MarkedText(text: "theirs")))
        #expect(app.text == "theirs")
        #expect(!app.model.editor.isModified)
        try app.keys("<C-z>")
        #expect(app.text == "mine!")
        #expect(app.model.editor.isModified)
        app.send(.changedOnDisk(save))
        try app.keys("<C-q>")
        #expect(app.model.mode == .quitQuestion)
    }

    // MARK: Esc and Ctrl-Q from every prompt and question

    /// Key scripts that leave the app in each prompt or question, on a modified document.
    static let openers: [(String, String)] = [
        ("Save as", "<C-s>name"), ("Find", "<C-f>a"), ("Replace", "<M-r>a"), ("With", "<M-r>a<Enter>b"),
        ("Go to line", "<C-l>2"), ("Replace?", "<M-r>a<Enter>b<Enter>"), ("Help", "<F1>"), ("Preview", "<F2>"),
    ]

    @Test(arguments: openers) func escReturnsToEditingAndChangesNothing(_ opener: (String, String)) throws {
        var app = try AppHarness("a a a|")
        try app.keys("!" + opener.1)
        #expect(app.model.mode != .editing, "\(opener.0)")
        try app.keys("<Esc>")
        #expect(app.model.mode == .editing, "\(opener.0)")
        #expect(app.text == "a a a!", "\(opener.0)")
        #expect(app.lastSave == nil && app.quit == nil)
    }

    @Test(arguments: openers) func ctrlQLeavesAndAsksAboutUnsavedText(_ opener: (String, String)) throws {
        var app = try AppHarness("a a a|")
        try app.keys("!" + opener.1 + "<C-q>")
        #expect(app.model.mode == .quitQuestion, "\(opener.0)")
        try app.keys("n")
        #expect(app.quit?.status == 1, "\(opener.0)")
    }

    // MARK: The terminal

    @Test func keysAreIgnoredWhileTheTerminalIsTooSmall() throws {
        var app = try AppHarness("hi|")
        app.send(.resize(rows: 3, columns: 10))
        try app.keys("abc<C-s><F1>")
        #expect(app.text == "hi")
        #expect(app.model.mode == .editing)
        try app.keys("<C-q>")
        #expect(app.quit?.status == 0)
    }
}
