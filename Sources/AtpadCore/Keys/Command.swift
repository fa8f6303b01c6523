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
    /// A question on the bottom row (its answers are the letters its text names).
    case question
    /// Editing while the message line names an unsaved draft left by an atpad that is gone
    /// (`1 unsaved draft from 10:32 — Alt-D recovers it`); looked up before `editing`.
    case draftNotice

    /// The modes of a prompt.
    public static let prompts: Set<KeyMode> = [.saveAs, .find, .replace, .goToLine]
}
