/// What a key does, as ``Keymap`` names it: the core's editing commands and the app's.
///
/// The app's commands (save, find, quit…) are named here too so that one table holds every
/// key; ``Editor/handle(_:)`` runs the core's and leaves the others to the app.
public enum Command: Hashable, Sendable {
    // The core's, while editing.
    /// Unselects (a selection or a selected mention) and dismisses a search; never edits.
    case unselect
    case newline, insertTab, backspace, deleteForward
    /// Moves the cursor (collapsing a selection); `select` extends the selection instead.
    case move(Motion)
    case select(Motion)
    case deleteWordBack, deleteWordForward, deleteToLineEnd, deleteToLineStart
    case undo, redo, copy, cut, paste
    /// Ctrl-Space: an explicit search at the cursor, or re-targeting a selected mention.
    case mentionHere
    /// Adds `Signed-off-by:` with git's identity to a commit message (``PersonTrailers``).
    case signOff
    /// Refills the paragraph at the cursor to the body width (``Reflow``).
    case reflow
    /// F7: the chooser of corrections for the misspelt word at or after the cursor;
    /// `nextMisspelling` (Alt-N) for the one after it (docs/spelling.md).
    case correctSpelling, nextMisspelling

    // The core's, while a chooser is shown.
    case choosePrevious, chooseNext, choosePageUp, choosePageDown
    /// Picks the selected result; `pickRow(n)` the n-th visible row (1…9).
    case pick
    case pickRow(Int)
    case dismiss

    // The app's, while editing.
    case save, saveAs, quit, find, findNext, findPrevious, replace, goToLine, selectAll, preview, help
    /// Stops atpad as SIGTSTP does; the shell's `fg` brings it back.
    case suspend
    /// Loads the unsaved draft the message line names (docs/drafts.md).
    case recoverDraft

    // The app's, in a prompt.
    case submit, cancel, completePath

    // The app's, answering a question (the answers its line names, ``Binding/answer``).
    /// To quitting (saving first), overwriting another file, replacing this match, posting.
    case yes, no
    /// Replace: this match and every one after it.
    case all
    /// A FILE's recovery draft: load it, remove it, keep it aside and open the file.
    case recover, discard, keepBoth
    /// The file changed on disk: save over it, or read it again.
    case overwrite, reload
    /// The file is gone: write it again, or edit on with it deleted.
    case saveAgain, keepEditing

    /// Up and down keep the goal column between them; every other command forgets it.
    public var isVerticalMotion: Bool {
        switch self {
        case let .move(motion), let .select(motion): motion.isVertical
        default: false
        }
    }
}

/// Where a ``Command/move(_:)`` or ``Command/select(_:)`` goes.
public enum Motion: Hashable, Sendable {
    case left, right, up, down, lineStart, lineEnd, wordLeft, wordRight
    case pageUp, pageDown, documentStart, documentEnd

    /// Up and down keep the goal column between them (the others forget it).
    public var isVertical: Bool {
        switch self {
        case .up, .down, .pageUp, .pageDown: true
        default: false
        }
    }
}

/// When a binding applies: the state of the screen that decides what a key means.
public enum KeyMode: Hashable, Sendable, CaseIterable {
    /// In every mode, before the mode's own bindings (Ctrl-Q).
    case anywhere
    /// Editing the document.
    case editing
    /// An explicit search's chooser owns the navigation keys.
    case chooser
    /// An implicit (or quiet) chooser: never steals Enter or the arrows.
    case quietChooser
    /// The prompts (docs/keys.md, "Prompts and the chooser"); `replace` is both `Replace:`
    /// and `With:`.
    case saveAs, find, replace, goToLine
    /// The questions on the bottom row, one mode each: their answers are the keys their
    /// line names (`(y)es (n)o`), and the line is made from those bindings. Typed
    /// characters are bindings only here.
    case quitQuestion, draftQuestion, overwriteQuestion, changedOnDiskQuestion, deletedQuestion
    case replaceQuestion, postQuestion
    /// Editing while the message line names an unsaved draft left by an atpad that is gone
    /// (`1 unsaved draft from 10:32 — Alt-D recovers it`); looked up before `editing`.
    case draftNotice

    /// The modes of a prompt.
    public static let prompts: Set<KeyMode> = [.saveAs, .find, .replace, .goToLine]

    /// The modes of a question.
    public static let questions: Set<KeyMode> = [
        .quitQuestion, .draftQuestion, .overwriteQuestion, .changedOnDiskQuestion, .deletedQuestion, .replaceQuestion,
        .postQuestion,
    ]

    /// What a question asks before its answers, as its line, F1 and docs/keys.md say it
    /// (`NAME` and `TARGET` stand for the file and the post's target); nil for the other modes.
    public var question: String? {
        switch self {
        case .quitQuestion: "Save changes before quitting?"
        case .draftQuestion: "Recover unsaved draft?"
        case .overwriteQuestion: "Overwrite NAME?"
        case .changedOnDiskQuestion: "NAME changed on disk:"
        case .deletedQuestion: "NAME was deleted:"
        case .replaceQuestion: "Replace?"
        case .postQuestion: "Post to TARGET?"
        case .anywhere, .editing, .chooser, .quietChooser, .saveAs, .find, .replace, .goToLine, .draftNotice: nil
        }
    }

    /// Whether this is a question's mode (a switch: asked for every key typed).
    public var isQuestion: Bool {
        switch self {
        case .quitQuestion, .draftQuestion, .overwriteQuestion, .changedOnDiskQuestion, .deletedQuestion,
             .replaceQuestion, .postQuestion:
            true
        case .anywhere, .editing, .chooser, .quietChooser, .saveAs, .find, .replace, .goToLine, .draftNotice:
            false
        }
    }
}
