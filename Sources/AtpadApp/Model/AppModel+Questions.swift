import AtpadCore

/// The questions: quit with unsaved changes, a recovery draft at start, overwriting
/// another file on Save as. Each takes its answer keys, Esc, and Ctrl-Q.
extension AppModel {
    /// `Save changes before quitting? (y)es (n)o (Esc) cancel`.
    mutating func answerQuit(_ key: Key) -> [AppEffect] {
        if Keymap.command(for: key, in: .question) == .cancel {
            mode = .editing
            message = ""
            return []
        }
        switch key {
        case .char("y"), .char("Y"):
            mode = .editing
            return save(then: .quit)
        case .char("n"), .char("N"):
            // Quitting on purpose: the changes, and their draft, are given up.
            mode = .editing
            return [.discardDraft, .quit(status: quitStatus(discarding: true), output: nil)]
        default:
            return []  // Ctrl-Q here is the question already being asked
        }
    }

    /// `Recover unsaved draft? (r)ecover (d)iscard (k)eep both`: other keys wait for one
    /// of these; Ctrl-Q quits and keeps the draft for next time. An unnamed draft (offered
    /// when atpad starts without a FILE) is asked `(r)ecover (d)iscard`: keeping both is
    /// what not recovering already does, so instead Esc leaves it for later (SPEC §11).
    mutating func answerDraft(_ draft: Draft, _ key: Key) -> [AppEffect] {
        let unnamed = draft.originalPath == nil
        if Keymap.command(for: key, in: .question) == .quit {
            mode = .editing
            // Nothing unsaved yet: `--print` with a FILE prints it as it is (status 0).
            let status = quitStatus(discarding: false)
            return [.quit(status: status, output: status == 0 ? output : nil)]
        }
        var effects: [AppEffect]
        switch key {
        case .char("r"), .char("R"):
            // The draft's text becomes the document, as an unsaved change to the file.
            editor.replaceDocument(with: draft.document, cursor: draft.cursor ?? 0)
            message = draft.damage.map { "Draft recovered as plain text: \($0)" } ?? "Draft recovered; Ctrl-S saves it"
            effects = [.startDrafts(path: document.path), .core(.documentChanged)]
            // This session's own draft takes the text over at once, and only then does
            // the old one go: a crash in between leaves one of them, never neither.
            if unnamed { effects += [.flushDraft, .removeDraft(draft)] }
        case .char("d"), .char("D"):
            message = "Draft discarded"
            effects = [.removeDraft(draft), .startDrafts(path: document.path)]
        case .char("k") where !unnamed, .char("K") where !unnamed:
            effects = [.keepDraftAside(draft), .startDrafts(path: document.path)]
        case .escape where unnamed:
            message = "Draft left for later (atpad drafts lists it)"
            effects = [.startDrafts(path: document.path)]
        default:
            return []
        }
        mode = .editing
        return effects
    }

    /// `Overwrite NAME? (y)es (n)o`: yes saves there, no goes back to the name.
    mutating func answerOverwrite(_ request: SaveRequest, _ key: Key) -> [AppEffect] {
        if let left = leaveQuestion(key) { return left }
        switch key {
        case .char("y"), .char("Y"):
            var confirmed = request
            confirmed.confirmOverwrite = false
            return [.save(confirmed)]
        case .char("n"), .char("N"):
            mode = .prompt(Prompt(kind: .saveAs(then: request.then), field: TextField(request.path)))
            return []
        default:
            return []
        }
    }

    /// `NAME changed on disk: (o)verwrite (r)eload (c)ancel`: overwrite saves anyway,
    /// reload reads the file again (one undo step back to the text before).
    mutating func answerChangedOnDisk(_ request: SaveRequest, _ key: Key) -> [AppEffect] {
        if request.fileIsGone { return answerDeleted(request, key) }
        if let left = leaveQuestion(key) { return left }
        switch key {
        case .char("o"), .char("O"):
            var anyway = request
            anyway.checkDisk = false
            return [.save(anyway)]
        case .char("r"), .char("R"):
            mode = .editing
            return [.reload]
        case .char("c"), .char("C"):
            mode = .editing
            message = "Not saved"
            return []
        default:
            return []
        }
    }

    /// Cancel (Esc) gives a question up (`cancelled` on the message line); Quit (Ctrl-Q)
    /// asks to quit instead; nil for the question's own answers.
    mutating func leaveQuestion(_ key: Key, cancelled: String = "Not saved") -> [AppEffect]? {
        switch Keymap.command(for: key, in: .question) {
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
        switch Keymap.command(for: key, in: .question) {
        case .cancel?:
            return keepEditingDeleted(request)
        case .quit?:
            mode = .editing
            return requestQuit()
        default:
            break
        }
        switch key {
        case .char("s"), .char("S"), .char("y"), .char("Y"):
            var again = request
            again.checkDisk = false
            again.fileIsGone = false
            return [.save(again)]
        case .char("k"), .char("K"), .char("c"), .char("C"), .char("n"), .char("N"):
            return keepEditingDeleted(request)
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

    /// What the bottom row asks in a question mode (nil in other modes).
    var question: String? {
        switch mode {
        case .quitQuestion: "Save changes before quitting? (y)es (n)o (Esc) cancel"
        case let .draftQuestion(draft) where draft.originalPath == nil:
            "Recover unsaved draft? (r)ecover (d)iscard"
        case .draftQuestion: "Recover unsaved draft? (r)ecover (d)iscard (k)eep both"
        case let .overwriteQuestion(request): "Overwrite \(AppModel.fileName(request.path))? (y)es (n)o"
        case .replaceQuestion: "Replace? (y)es (n)o (a)ll"
        case let .changedOnDiskQuestion(request) where request.fileIsGone:
            "\(AppModel.fileName(request.path)) was deleted: (s)ave it again (k)eep editing"
        case let .changedOnDiskQuestion(request):
            "\(AppModel.fileName(request.path)) changed on disk: (o)verwrite (r)eload (c)ancel"
        case let .postQuestion(target): "Post to \(target)? (y)es (n)o"
        default: nil
        }
    }
}
