import AtpadCore

/// The questions: quit with unsaved changes, a recovery draft at start, overwriting
/// another file on Save as, a file changed or deleted on disk. Each takes the answers its
/// mode binds in ``Keymap`` (which its line names), Esc, and Ctrl-Q. Also the draft
/// notice, which is not a question: Alt-D recovers the draft it names.
extension AppModel {
    /// `Save changes before quitting? (y)es (n)o (Esc) cancel`.
    mutating func answerQuit(_ key: Key) -> [AppEffect] {
        switch Keymap.command(for: key, in: .quitQuestion) {
        case .cancel?:
            mode = .editing
            message = ""
            return []
        case .yes?:
            mode = .editing
            return save(then: .quit)
        case .no?:
            // Quitting on purpose: the changes, and their draft, are given up.
            return quitDiscarding()
        default:
            return []  // Ctrl-Q here is the question already being asked
        }
    }

    /// `Recover unsaved draft? (r)ecover (d)iscard (k)eep both`, asked when a FILE's draft
    /// is newer than the file. Other keys are held and applied in order once it is
    /// answered, so nothing typed meanwhile is lost; Ctrl-Q quits at once and keeps the
    /// draft for next time (what was held is given up with it) (docs/drafts.md).
    mutating func answerDraft(_ draft: Draft, _ key: Key) -> [AppEffect] {
        var effects: [AppEffect]
        switch Keymap.command(for: key, in: .draftQuestion) {
        case .quit?:
            mode = .editing
            heldKeys = []
            // Nothing unsaved yet: `--print` with a FILE prints it as it is (status 0).
            let status = quitStatus(discarding: false)
            return [.quit(status: status, output: status == 0 ? output : nil)]
        case .recover?:
            // The draft's text becomes the document, as an unsaved change to the file.
            editor.replaceDocument(with: draft.document, cursor: draft.cursor ?? 0)
            message = draft.damage.map { "Draft recovered as plain text: \($0)" } ?? "Draft recovered; Ctrl-S saves it"
            effects = [.startDrafts(path: document.path), .core(.documentChanged)]
        case .discard?:
            message = "Draft discarded"
            effects = [.removeDraft(draft), .startDrafts(path: document.path)]
        case .keepBoth?:
            effects = [.keepDraftAside(draft), .startDrafts(path: document.path)]
        default:
            return hold(key)
        }
        mode = .editing
        // What the answer says stays unless a held key has something else to say.
        let said = message
        effects += applyHeldKeys()
        if message.isEmpty && mode == .editing { message = said }
        return effects
    }

    /// Keeps `key` for after the draft question, and says how many wait.
    mutating func hold(_ key: Key) -> [AppEffect] {
        heldKeys.append(key)
        let n = heldKeys.count
        message = "\(n) key\(n == 1 ? "" : "s") typed meanwhile, applied once you answer"
        return []
    }

    /// The keys held while the draft question was up, as if typed now.
    private mutating func applyHeldKeys() -> [AppEffect] {
        let keys = heldKeys
        heldKeys = []
        var effects: [AppEffect] = []
        for key in keys { effects += update(.key(key)) }
        return effects
    }

    /// Alt-D while the message line names an unnamed draft: its text replaces the document
    /// as one undo step (Ctrl-Z brings back what was typed before), and this session's own
    /// draft takes it over at once; only then does the old draft go, so a crash in between
    /// leaves one of them, never neither (docs/drafts.md).
    mutating func recoverNamedDraft() -> [AppEffect] {
        guard let draft = draftNotice?.draft else { return [] }
        draftNotice = nil
        let ended = core(editor.endSearchForCommand())
        editor.replaceDocument(with: draft.document, cursor: draft.cursor ?? 0)
        message = draft.damage.map { "Draft recovered as plain text: \($0)" } ?? "Draft recovered; Ctrl-S saves it"
        return ended + [.core(.documentChanged), .flushDraft, .removeDraft(draft)]
    }

    /// `Overwrite NAME? (y)es (n)o`: yes saves there, no goes back to the name.
    mutating func answerOverwrite(_ request: SaveRequest, _ key: Key) -> [AppEffect] {
        switch Keymap.command(for: key, in: .overwriteQuestion) {
        case .yes?:
            var confirmed = request
            confirmed.confirmOverwrite = false
            return [.save(confirmed)]
        case .no?:
            mode = .prompt(Prompt(kind: .saveAs(then: request.then), field: TextField(request.path)))
            return []
        case let command:
            return leaveQuestion(command) ?? []
        }
    }

    /// `NAME changed on disk: (o)verwrite (r)eload (c)ancel`: overwrite saves anyway,
    /// reload reads the file again (one undo step back to the text before).
    /// Cancel (*c*, Esc) says `Not saved`.
    mutating func answerChangedOnDisk(_ request: SaveRequest, _ key: Key) -> [AppEffect] {
        if request.fileIsGone { return answerDeleted(request, key) }
        switch Keymap.command(for: key, in: .changedOnDiskQuestion) {
        case .overwrite?:
            var anyway = request
            anyway.checkDisk = false
            return [.save(anyway)]
        case .reload?:
            mode = .editing
            return [.reload]
        case let command:
            return leaveQuestion(command) ?? []
        }
    }

    /// Cancel (Esc) gives a question up (`cancelled` on the message line); Quit (Ctrl-Q)
    /// asks to quit instead; nil for any other command (or none).
    mutating func leaveQuestion(_ command: Command?, cancelled: String = "Not saved") -> [AppEffect]? {
        switch command {
        case .cancel?:
            mode = .editing
            message = cancelled
            return []
        case .quit?:
            mode = .editing
            return requestQuit()
        default:
            return nil
        }
    }

    /// `NAME was deleted: (s)ave it again (k)eep editing`: the file read is gone. Saving
    /// writes it again; keeping on edits the text as it is (nothing reloads an empty
    /// file), and the quit question still guards it.
    mutating func answerDeleted(_ request: SaveRequest, _ key: Key) -> [AppEffect] {
        switch Keymap.command(for: key, in: .deletedQuestion) {
        case .saveAgain?:
            var again = request
            again.checkDisk = false
            again.fileIsGone = false
            return [.save(again)]
        case .keepEditing?, .cancel?:
            return keepEditingDeleted(request)
        case .quit?:
            mode = .editing
            return requestQuit()
        default:
            return []
        }
    }

    /// *k* (or cancel) to a deleted file: the text stays, unsaved, and the file deleted.
    private mutating func keepEditingDeleted(_ request: SaveRequest) -> [AppEffect] {
        mode = .editing
        message = "Not saved: \(AppModel.fileName(request.path)) stays deleted until you save"
        return []
    }

    /// What the bottom row asks in a question mode (nil in other modes): what it asks,
    /// then the answers its bindings name (``Keymap/answers(in:)``), so the line and the
    /// keys cannot disagree.
    var question: String? {
        guard let keys = mode.questionKeys, let asked else { return nil }
        return asked + " " + Keymap.answers(in: keys)
    }

    /// What a question asks, before its answers: its mode's words (``KeyMode/question``)
    /// with the file's name or the post's target in them.
    private var asked: String? {
        guard let words = mode.questionKeys?.question else { return nil }
        switch mode {
        case let .overwriteQuestion(request), let .changedOnDiskQuestion(request):
            return words.replacingEvery("NAME", with: AppModel.fileName(request.path))
        case let .postQuestion(target):
            return words.replacingEvery("TARGET", with: "\(target)")
        default:
            return words
        }
    }
}
