import AtpadCore

/// Posting from the editor (`atpad --to TARGET`, docs/posting.md, "From the editor"):
/// Ctrl-S (after saving the file, when there is one) asks `Post to TARGET? (y)es (n)o` with
/// who it notifies on the message line; `y` posts while keys other than Ctrl-Q wait; the
/// result ends the session (printed, draft removed) or comes back as one line with
/// everything kept, and Ctrl-S asks again. The model decides; the runtime sends
/// (`AppEffect.post`).
extension AppModel {
    /// Opens the question: the notify list on the message line, the question below it.
    mutating func askToPost(_ target: PostTarget) {
        // Every service refuses an empty comment; said here, before anything is sent.
        if editor.marked.text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            mode = .editing
            message = "Not posted: the comment is empty"
            return
        }
        let notified = NotifyList(editor.writtenDocument, target: target, lookup: document.lookup)
        mode = .postQuestion(target)
        message = notified.summary
    }

    /// `Post to TARGET? (y)es (n)o`: `y` posts, `n` and Esc go back to editing, Ctrl-Q
    /// asks to quit as anywhere.
    mutating func answerPost(_ target: PostTarget, _ key: Key) -> [AppEffect] {
        switch Keymap.command(for: key, in: .postQuestion) {
        case .yes?:
            mode = .posting(target)
            message = "Posting to \(target)… (Ctrl-Q quits; the post may still arrive)"
            // The draft holds the text before anything leaves, whatever happens next.
            // As written: a pick's soft space at the end of a line is not posted.
            return [.flushDraft, .post(target, editor.writtenDocument)]
        case .no?:
            mode = .editing
            message = "Not posted"
            return []
        case let command:
            return leaveQuestion(command, cancelled: "Not posted") ?? []
        }
    }

    /// A key while posting: Ctrl-Q quits at once, keeping the draft, and says that the
    /// post may still arrive and where the text is; every other key waits, and is applied
    /// if the post fails (a post that succeeds ends the session with what was posted).
    mutating func postingKey(_ target: PostTarget, _ key: Key) -> [AppEffect] {
        guard Keymap.command(for: key, in: .editing) == .quit else {
            heldKeys.append(key)
            let n = heldKeys.count
            message = "Posting to \(target)… \(n) key\(n == 1 ? "" : "s") typed meanwhile, applied if it fails (Ctrl-Q quits)"
            return []
        }
        heldKeys = []
        // A FILE holds what was saved before the post; the draft holds the rest.
        let kept = document.path.map { "the text is in \($0) as saved, and its draft (atpad drafts)" }
            ?? "the text is kept (atpad drafts)"
        return [.flushDraft,
                .noteOnExit("atpad: quit while posting to \(target): the comment may still arrive there; \(kept)"),
                .quit(status: 1, output: nil)]
    }

    /// The post's result: success prints it and ends the session without a draft; a
    /// failure shows its line and keeps the text, the mentions and the draft.
    mutating func postFinished(_ outcome: PostOutcome) -> [AppEffect] {
        guard case .posting = mode else { return [] }
        mode = .editing
        switch outcome {
        case let .posted(result):
            message = "Posted: \(result)"
            return [.discardDraft, .quit(status: 0, output: Array((result + "\n").utf8))]
        case .failed, .unknown:
            let said = outcome.message ?? "Not posted"
            // Keys typed while it was posting, as if typed now; the outcome stays on the line.
            let keys = heldKeys
            heldKeys = []
            var effects: [AppEffect] = [.flushDraft]
            for key in keys { effects += update(.key(key)) }
            if mode == .editing { message = said }
            return effects
        }
    }
}
