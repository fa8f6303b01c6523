import AtpadCore
import AtpadTerminal
import Glibc  // the signal numbers

/// The whole app as a value: the editor core, the file it edits, and one `mode`; one
/// `update(_:)` takes every event and returns the effects for the runtime to run
/// (Bubble Tea's Model/Update). The model does no I/O, so every key, prompt and question
/// is testable with a key script and no terminal.
struct AppModel {
    /// The file being edited, and how it is written.
    struct Document {
        /// nil for a comment not saved anywhere yet.
        var path: String?
        var format: DocumentFormat
        /// `-f` named the format: Save as keeps it instead of taking the one the new name
        /// implies.
        var formatIsFixed: Bool
        /// The directory as the format sees it (handles and urls by id).
        var lookup: EntityLookup = .empty
        /// This person may not write the file: Ctrl-S offers `Save as:` instead.
        var isReadOnly = false
        /// What the title calls a comment without a file (`[stdin]` for `atpad -`); nil:
        /// the layout's own `[new comment]`.
        var untitledName: String? = nil
        /// What gives a new name its format on Save as
        /// (docs/formats.md, "Which format a file is in").
        var formatRule = FormatRule()
        /// What followed the part of the file its format reads when it was opened or
        /// reloaded (a `json` file's final newline, or none): written back after it, so a
        /// file saved without edits keeps its bytes (docs/formats.md).
        var ending: [UInt8] = []
    }

    var editor: Editor
    var document: Document
    var mode: AppMode = .editing
    /// The message line ("" for none). Anything said there ends the draft notice: the
    /// line is used for something else (docs/drafts.md).
    var message = "" {
        didSet { if !message.isEmpty { draftNotice = nil } }
    }
    /// An unnamed draft of an atpad that is gone, named on the message line while nothing
    /// else is said there; Alt-D recovers it (docs/drafts.md).
    var draftNotice: DraftNotice?
    /// Keys typed while the draft question of a FILE is up that are not its answers (and
    /// every key typed before the first frame): applied in order once it is answered, so
    /// none is lost (docs/drafts.md).
    var heldKeys: [Key] = []
    /// `--print`: the comment goes to stdout on a successful exit.
    var print: Bool
    /// Copies also go to the terminal's clipboard (OSC 52); off with `--clipboard internal`.
    var terminalClipboard: Bool
    /// A save (or `--print` confirmation) happened in this session: quitting then exits 0
    /// even when later changes are given up, since the file holds what was saved
    /// (docs/exit-status.md).
    var savedOnce = false
    /// With `--print`, the bytes of the last save: what a quit giving up later changes
    /// prints, since that is what the file holds.
    var savedOutput: [UInt8]?
    /// The last query of Find (and Replace), for Ctrl-N / Ctrl-P after the prompt closed.
    var lastFind: String?
    /// The last undo group handed to a replace run.
    var replaceGroups = 0
    /// The terminal's size (keys are ignored while it is too small, docs/editor.md).
    var rows = 24
    var columns = 80
    /// Triggers whose directory is still loading.
    var loadingDirectories: Set<Unicode.Scalar> = []
    /// `--to`: where Ctrl-S posts the comment (after saving it, when there is a file).
    var postTarget: PostTarget?
    /// The home folder (`$HOME` at start-up), which `~` stands for in `Save as:`; nil when
    /// unset (then `~` is a name like any other).
    var home: String?

    init(editor: Editor, document: Document, print: Bool, terminalClipboard: Bool = true) {
        self.editor = editor
        self.document = document
        self.print = print
        self.terminalClipboard = terminalClipboard
    }

    /// The first effects of a session: ask about the FILE's recovery draft when it is newer
    /// than the file, or start writing drafts.
    mutating func start(offering draft: Draft?) -> [AppEffect] {
        if let draft {
            mode = .draftQuestion(draft)
            return []
        }
        return [.startDrafts(path: document.path)]
    }

    /// The first effects of a session without a FILE when unnamed drafts are waiting: a new
    /// comment at once, the newest draft named on the message line (docs/drafts.md).
    mutating func start(naming notice: DraftNotice) -> [AppEffect] {
        let effects = start(offering: nil)
        draftNotice = notice
        return effects
    }

    /// What the message row shows: the message, else the draft notice.
    var messageLine: String { message.isEmpty ? draftNotice?.line ?? "" : message }

    var isTooSmall: Bool { FrameLayout.isTooSmall(width: columns, height: rows) }

    // MARK: - Update

    /// Takes one event; returns what the runtime must do.
    mutating func update(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case let .key(key):
            if isTooSmall && Keymap.command(for: key, in: .editing) != .quit { return [] }
            return handle(key)
        case let .typedAhead(key):
            // Typed before the question was on the screen: never its answer (docs/drafts.md).
            if mode.isDraftQuestion { return hold(key) }
            return update(.key(key))
        case let .click(position, extend):
            guard mode == .editing else { return [] }
            return core(editor.click(at: position, extend: extend))
        case let .pickRow(index):
            guard mode == .editing else { return [] }
            return core(editor.pickResult(index))
        case let .wheel(up):
            guard mode == .editing else { return [] }
            var effects: [AppEffect] = []
            for _ in 0..<3 { effects += core(editor.handle(up ? .up : .down)) }
            return effects
        case let .resize(rows, columns):
            self.rows = rows
            self.columns = columns
            let area = FrameLayout.textArea(width: columns, height: rows)
            editor.config.width = area.columns
            editor.config.pageRows = area.rows
            return []
        case .endOfInput:
            // The terminal is gone: what was typed stays in the draft. Nobody chose to give
            // it up, so unsaved changes are a failure even after a save (docs/exit-status.md).
            guard !editor.isModified else { return [.flushDraft, .quit(status: 1, output: nil)] }
            let status = quitStatus(discarding: false)
            return [.discardDraft, .quit(status: status, output: status == 0 ? output : nil)]
        case let .signal(number):
            // The draft first: a stopped atpad may never be continued.
            if number == SIGTSTP { return [.flushDraft, .suspend] }
            return [.flushDraft, .quit(status: 128 + number, output: nil)]
        case let .completion(answer):
            return core(editor.receive(answer))
        case let .directoryLoaded(trigger, failure):
            loadingDirectories.remove(trigger)
            if let failure { message = "Directory for \(Character(trigger)) not loaded: \(failure)" }
            return []
        case let .saved(request):
            return saved(request)
        case let .saveNeedsConfirmation(request):
            mode = .overwriteQuestion(request)
            return []
        case let .changedOnDisk(request):
            mode = .changedOnDiskQuestion(request)
            return []
        case let .reloaded(doc, ending):
            editor.reload(doc)
            document.ending = ending
            mode = .editing
            message = "Reloaded \(document.path.map(AppModel.fileName) ?? "the file") from disk (Ctrl-Z goes back)"
            return [.discardDraft]
        case let .saveFailed(request, why):
            message = why
            if request.fromPrompt {
                mode = .prompt(Prompt(kind: .saveAs(then: request.then), field: TextField(request.path)))
            } else if case .overwriteQuestion = mode {
                mode = .editing
            }
            return []
        case let .pathCompletions(typed, candidates):
            completePath(typed: typed, candidates: candidates)
            return []
        case let .notice(text):
            message = text
            return []
        case let .participantsFetched(trigger, failure):
            if let failure {
                // Said once; a question's line (who a post notifies) keeps its words.
                let line = "\(failure); ranking without them"
                message = mode == .editing || message.isEmpty ? line : message + "; " + line
                return []
            }
            return core(editor.askAgain(trigger: trigger))
        case let .postFinished(outcome):
            return postFinished(outcome)
        case let .spellingChecked(version, words, regions):
            // A check of an older text is dropped: the one of this text is on its way.
            if let regions {
                editor.takeMisspellings(words, in: regions, version: version)
            } else {
                editor.takeMisspellings(words, version: version)
            }
            return []
        }
    }

    /// Runs the core's effects through the app: a copy also goes to the terminal's
    /// clipboard when that is on.
    mutating func core(_ effects: [Effect]) -> [AppEffect] {
        effects.compactMap { effect in
            if case let .copied(text) = effect { return terminalClipboard ? .setClipboard(text) : nil }
            if case let .notice(text) = effect {
                message = text
                return nil
            }
            return .core(effect)
        }
    }

    // MARK: - Keys

    private mutating func handle(_ key: Key) -> [AppEffect] {
        switch mode {
        case .editing:
            return editingKey(key)
        case .help, .preview:
            // Any key returns to the text and does nothing else; Ctrl-Q quits.
            mode = .editing
            return Keymap.command(for: key, in: .editing) == .quit ? requestQuit() : []
        case .quitQuestion:
            return answerQuit(key)
        case let .draftQuestion(draft):
            return answerDraft(draft, key)
        case let .prompt(prompt):
            return promptKey(prompt, key)
        case let .overwriteQuestion(request):
            return answerOverwrite(request, key)
        case let .replaceQuestion(run):
            return answerReplace(run, key)
        case let .changedOnDiskQuestion(request):
            return answerChangedOnDisk(request, key)
        case let .postQuestion(target):
            return answerPost(target, key)
        case let .posting(target):
            return postingKey(target, key)
        }
    }

    /// A key while editing: the app's own commands, else the core's (``Keymap``).
    private mutating func editingKey(_ key: Key) -> [AppEffect] {
        if draftNotice != nil, Keymap.command(for: key, in: .draftNotice) == .recoverDraft { return recoverNamedDraft() }
        let command = Keymap.command(for: key, in: .editing)
        switch command {
        case .quit?:
            return requestQuit()
        case .help?:
            mode = .help
            return []
        case .suspend?:
            // As SIGTSTP does; the text, the search and the mode stay as they are.
            return [.flushDraft, .suspend]
        default:
            break
        }
        // The app's commands end a search first, as a motion does
        // (docs/behaviour.md, "Help and preview").
        if let command, isAppCommand(command) {
            message = ""
            let ended = core(editor.endSearchForCommand())
            return ended + run(command)
        }
        message = ""
        return core(editor.handle(key))
    }

    /// Whether the app runs `command` rather than the core. Ctrl-N / Ctrl-P find the next /
    /// previous match only when no chooser is shown and something was searched.
    private func isAppCommand(_ command: Command) -> Bool {
        switch command {
        case .save, .saveAs, .find, .replace, .goToLine, .selectAll, .preview: true
        case .findNext, .findPrevious: editor.search?.isOpen != true && lastFind != nil
        default: false
        }
    }

    private mutating func run(_ command: Command) -> [AppEffect] {
        switch command {
        case .save:
            return save(then: postTarget == nil ? .keepEditing : .post)
        case .saveAs:
            openSaveAs(then: .keepEditing)
            return []
        case .find:
            openPrompt(.find(origin: editor.selection, matches: [], current: nil))
            return []
        case .findNext:
            return findAgain(forward: true)
        case .findPrevious:
            return findAgain(forward: false)
        case .replace:
            openPrompt(.replace)
            return []
        case .goToLine:
            openPrompt(.goToLine)
            return []
        case .selectAll:
            return core(editor.selectAll())
        case .preview:
            mode = .preview(document.format.encode(editor.writtenDocument, lookup: document.lookup))
            return []
        default:
            return []
        }
    }

    private mutating func openPrompt(_ kind: Prompt.Kind, text: String = "") {
        mode = .prompt(Prompt(kind: kind, field: TextField(text)))
    }

    mutating func openSaveAs(then: SaveRequest.Then) {
        openPrompt(.saveAs(then: then), text: document.path ?? "")
    }

    // MARK: - Saving and quitting

    /// Ctrl-S: write the file; without one, ask for a name (or, with `--print`, confirm
    /// the comment and end the edit).
    mutating func save(then: SaveRequest.Then) -> [AppEffect] {
        // `--to` without a file: nothing to save first, the question comes at once.
        if then == .post, document.path == nil, let postTarget {
            askToPost(postTarget)
            return []
        }
        guard let path = document.path else {
            if print {
                savedOnce = true
                draftNotice = nil
                return [.discardDraft, .quit(status: 0, output: output)]
            }
            openSaveAs(then: then)
            return []
        }
        if document.isReadOnly {
            // Never by renaming over it: the person picks another name (docs/editor.md).
            openSaveAs(then: then)
            message = "\(AppModel.fileName(path)) is read-only: save it under another name"
            return []
        }
        do {
            return [.save(try request(path: path, format: document.format, confirmOverwrite: false, fromPrompt: false,
                                      then: then))]
        } catch {
            message = "Not saved: \(error.message)"
            return []
        }
    }

    /// The save of the document to `path` in `format`; an error when the format cannot
    /// carry what the document holds (bytes that are not UTF-8 in `json`). What is saved
    /// is the document as written (`Editor.writtenDocument`: no soft space of a pick last
    /// on its line), and after a `json` object the ending the file had.
    func request(path: String, format: DocumentFormat, confirmOverwrite: Bool, fromPrompt: Bool,
                 then: SaveRequest.Then) throws(FormatError) -> SaveRequest {
        SaveRequest(path: path, format: format,
                    contents: try format.encodeBytes(editor.writtenDocument, lookup: document.lookup, ending: document.ending),
                    mentionCount: editor.storage.listedMentionCount, confirmOverwrite: confirmOverwrite,
                    fromPrompt: fromPrompt, then: then)
    }

    private mutating func saved(_ request: SaveRequest) -> [AppEffect] {
        let renamed = request.path != document.path
        document.path = request.path
        document.format = request.format
        editor.config.format = request.format
        document.isReadOnly = false
        editor.markSaved()
        savedOnce = true
        if print { savedOutput = request.contents }
        mode = .editing
        let n = request.mentionCount
        message = "Saved \(AppModel.fileName(request.path)) (\(n) mention\(n == 1 ? "" : "s"))"
        // Someone the saved format will not notify (no account on its service:
        // docs/people.md, "One person, many accounts").
        if let note = document.lookup.missingAccountNote(in: editor.marked, format: document.format) {
            message += " · " + note
        }
        var effects: [AppEffect] = renamed ? [.startDrafts(path: request.path)] : [.discardDraft]
        if request.then == .quit { effects.append(.quit(status: 0, output: output)) }
        if request.then == .post, let postTarget { askToPost(postTarget) }
        return effects
    }

    /// The comment as `--print` writes it (nil without `--print`).
    var output: [UInt8]? {
        guard print else { return nil }
        let written = editor.writtenDocument
        // json cannot carry bytes that are not UTF-8: it prints them as their escapes.
        return (try? document.format.encodeBytes(written, lookup: document.lookup, ending: document.ending))
            ?? document.format.encodeUTF8(written, lookup: document.lookup)
    }

    /// Ctrl-Q from anywhere: quit at once when nothing is unsaved, else ask.
    mutating func requestQuit() -> [AppEffect] {
        if editor.isModified {
            mode = .quitQuestion
            return []
        }
        mode = .editing
        let status = quitStatus(discarding: false)
        return [.discardDraft, .quit(status: status, output: status == 0 ? output : nil)]
    }

    /// *n* to the quit question: the changes since the last save, and their draft, are
    /// given up. After a save of this session that is no failure — the file holds what
    /// was saved, and `--print` prints that (docs/exit-status.md).
    mutating func quitDiscarding() -> [AppEffect] {
        mode = .editing
        let status = quitStatus(discarding: true)
        return [.discardDraft, .quit(status: status, output: status == 0 ? savedOutput : nil)]
    }

    /// The exit status of quitting without saving now (docs/exit-status.md): 0 after a
    /// save (or `--print` confirmation) of this session, whatever is given up since, and 0
    /// when nothing unsaved is given up; 1 when changes are discarded and nothing was
    /// saved (the file is as it was opened), or `--print` without a FILE was never
    /// confirmed. With a FILE, `--print` changes nothing here: a FILE left as it was is
    /// printed as it is, status 0.
    func quitStatus(discarding: Bool) -> Int32 {
        if savedOnce { return 0 }
        if discarding { return 1 }
        if print && document.path == nil { return 1 }
        return 0
    }

    static func fileName(_ path: String) -> String {
        // Asked for every frame: found in the UTF-8 (a `/` byte is always the character),
        // not by splitting into components or walking characters.
        var bytes = path.utf8[...]
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) { bytes = bytes[bytes.index(after: slash)...] }
        return bytes.isEmpty ? path : String(Substring(bytes))
    }
}
