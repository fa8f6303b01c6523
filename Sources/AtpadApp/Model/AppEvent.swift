import AtpadCore

/// Everything that can happen to the app: input (already mapped to document positions by
/// the runtime, which owns the last frame), answers from sources, and the results of the
/// effects the model asked for.
enum AppEvent: Equatable, Sendable {
    case key(Key)
    /// A key already waiting when the first frame was drawn (typed during start-up): no
    /// question can have been seen yet, so a question holds it instead of taking it as
    /// an answer (docs/drafts.md).
    case typedAhead(Key)
    /// A click (or drag, `extend`) at a document position.
    case click(position: Int, extend: Bool)
    /// A click on chooser row `index`.
    case pickRow(Int)
    /// The mouse wheel: `up` or down by three rows.
    case wheel(up: Bool)
    case resize(rows: Int, columns: Int)
    /// The terminal went away (input ended).
    case endOfInput
    /// SIGHUP, SIGTERM, SIGINT or SIGQUIT arrived (or SIGTSTP: suspend).
    case signal(Int32)
    /// An answer (or the end of one) from a directory source.
    case completion(CompletionEvent)
    /// A directory that was loading in the background is ready (or failed).
    case directoryLoaded(trigger: Unicode.Scalar, failure: String?)
    /// The runtime wrote the file.
    case saved(SaveRequest)
    /// The file exists and is not the one being edited: ask first.
    case saveNeedsConfirmation(SaveRequest)
    /// The file was changed by another program since atpad read or wrote it: ask first.
    case changedOnDisk(SaveRequest)
    /// The file as it is on disk now (asked for with `.reload`), and what follows the
    /// part its format reads (`DecodedDocument.ending`).
    case reloaded(MarkedText, ending: [UInt8] = [])
    /// The file could not be written; `message` says why.
    case saveFailed(SaveRequest, message: String)
    /// Tab in `Save as:`: the paths that start with `typed` (folders end in `/`).
    case pathCompletions(typed: String, candidates: [String])
    /// A note for the message line (a draft that could not be written, say).
    case notice(String)
    /// The post asked for with `.post` ended.
    case postFinished(PostOutcome)
    /// The conversation's participants (`--to`) arrived for `trigger`'s directory, or
    /// could not be had (`failure`, said once; searches rank as without them).
    case participantsFetched(trigger: Unicode.Scalar, failure: String?)
    /// The misspelt words a background check of the text at `version` found
    /// (docs/spelling.md, "In the editor"): in `regions` only, or (nil) in the whole text.
    case spellingChecked(version: Int, words: [SpellMarks.Mark], regions: [Range<Int>]? = nil)
}

/// What the model asks the runtime to do. The model never does I/O itself.
enum AppEffect: Equatable, Sendable {
    /// An effect of the editor core: start or cancel a query, record a pick, arm a draft.
    case core(Effect)
    /// Write a file (checking first whether it exists, when the request says so).
    case save(SaveRequest)
    /// End the session with `status`, printing `output` to stdout after the screen is gone.
    case quit(status: Int32, output: [UInt8]?)
    /// Give the terminal back and stop, as Ctrl-Z in a shell does, until continued (`fg`).
    case suspend
    /// Put text on the terminal's clipboard (OSC 52).
    case setClipboard(String)
    /// Read the file again (its format, as when it was opened) and answer `.reloaded`.
    case reload
    /// List the paths that complete `typed` (answered with `.pathCompletions`).
    case completePath(String)
    /// Start writing recovery drafts for the document at `path` (nil: an unnamed comment),
    /// throwing away the previous draft.
    case startDrafts(path: String?)
    /// Remove the recovery draft (a clean save or quit).
    case discardDraft
    /// Write the recovery draft now (the terminal or the process is going away).
    case flushDraft
    /// The person answered the draft question.
    case removeDraft(Draft)
    case keepDraftAside(Draft)
    /// Post the document to the target (off the loop's thread); the result comes back
    /// as `.postFinished`.
    case post(PostTarget, MarkedText)
    /// A line for stderr once the screen is gone (quitting while a post is on its way).
    case noteOnExit(String)
}
