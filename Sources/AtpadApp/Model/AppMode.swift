import AtpadCore
import AtpadTerminal

/// What the app is doing besides holding the document: the one place a key goes first
/// (docs/keys.md). Prompts, questions and overlays are modes, not flags: exactly one is active.
enum AppMode: Equatable, Sendable {
    /// Keys go to the editor core (and the app's own keys: Ctrl-S, Ctrl-Q, F1…).
    case editing
    /// The F1 key list: any key closes it.
    case help
    /// F2: the comment as its format writes it, read-only; any key returns.
    case preview(String)
    /// Ctrl-Q with unsaved changes: `Save changes before quitting? (y)es (n)o (Esc) cancel`.
    case quitQuestion
    /// The FILE's recovery draft is newer than the file: (r)ecover (d)iscard (k)eep both.
    /// Other keys wait in `AppModel.heldKeys` for the answer.
    case draftQuestion(Draft)
    /// A one-line prompt with a text field.
    case prompt(Prompt)
    /// Save as named another existing file: `Overwrite NAME? (y)es (n)o`.
    case overwriteQuestion(SaveRequest)
    /// Replace is stopped at a match: `Replace? (y)es (n)o (a)ll`.
    case replaceQuestion(ReplaceRun)
    /// Another program changed the file since atpad read it (docs/editor.md):
    /// `NAME changed on disk: (o)verwrite (r)eload (c)ancel`.
    case changedOnDiskQuestion(SaveRequest)
    /// `--to`: `Post to TARGET? (y)es (n)o`, who it notifies on the message line.
    case postQuestion(PostTarget)
    /// The post is on its way: keys other than Ctrl-Q wait for its result.
    case posting(PostTarget)
}

extension AppMode {
    var isDraftQuestion: Bool {
        if case .draftQuestion = self { return true }
        return false
    }

    /// The ``Keymap`` mode of a question, whose bindings are its answers and make its line;
    /// nil when no question is asked. A changed file that is gone is asked about as deleted.
    var questionKeys: KeyMode? {
        switch self {
        case .quitQuestion: .quitQuestion
        case .draftQuestion: .draftQuestion
        case .overwriteQuestion: .overwriteQuestion
        case .replaceQuestion: .replaceQuestion
        case let .changedOnDiskQuestion(request): request.fileIsGone ? .deletedQuestion : .changedOnDiskQuestion
        case .postQuestion: .postQuestion
        case .editing, .help, .preview, .prompt, .posting: nil
        }
    }
}

/// A prompt: what it asks for, and the text typed so far.
struct Prompt: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// `Save as:`; after the save, `then` happens (go on editing, or quit).
        case saveAs(then: SaveRequest.Then)
        /// `Find:`; `origin` is the selection to return to on Esc, `current` the index of
        /// the current match in `matches`.
        case find(origin: Selection, matches: [Range<Int>], current: Int?)
        /// `Replace:` (what to look for).
        case replace
        /// `With:` (what to put instead of `search`).
        case with(search: String)
        /// `Go to line:` (`N` or `N:C`).
        case goToLine
    }

    var kind: Kind
    var field: TextField

    /// Which bindings of ``Keymap`` the prompt's keys follow.
    var keyMode: KeyMode {
        switch kind {
        case .saveAs: .saveAs
        case .find: .find
        case .replace, .with: .replace
        case .goToLine: .goToLine
        }
    }

    /// The keys the prompt row lists at its right end.
    var hint: PromptHint {
        switch kind {
        case .saveAs: .saveAs
        case .find: .find
        case .replace, .with: .replace
        case .goToLine: .goToLine
        }
    }

    var label: String {
        switch kind {
        case .saveAs: "Save as:"
        case .find: "Find:"
        case .replace: "Replace:"
        case .with: "With:"
        case .goToLine: "Go to line:"
        }
    }
}

/// A save the model asks the runtime for: where, what bytes, and what happens after.
struct SaveRequest: Equatable, Sendable {
    enum Then: Equatable, Sendable {
        case keepEditing
        /// The quit question was answered "yes": quit once saved.
        case quit
        /// `--to`: ask to post once saved.
        case post
    }

    var path: String
    var format: DocumentFormat
    /// The file's bytes (they may hold bytes that are not UTF-8, docs/editor.md).
    var contents: [UInt8]
    var mentionCount: Int
    /// Ask before replacing a file that exists and is not the one being edited.
    var confirmOverwrite: Bool
    /// Ask before replacing the edited file when another program changed it meanwhile.
    var checkDisk: Bool = true
    /// Set by the runner when it asks about the file because the file it read is gone
    /// (deleted or moved away): the question offers to save it again, never to reload.
    var fileIsGone = false
    /// The save came from the `Save as:` prompt (a failure reopens it).
    var fromPrompt: Bool
    var then: Then
}

/// Alt-R's walk over the matches, between its questions.
struct ReplaceRun: Equatable, Sendable {
    var search: String
    var replacement: String
    /// The undo group every replacement of this run joins (one undo step).
    var group: Int
    /// The matches still to ask about, in the order asked: from the cursor to the end of
    /// the text, then from its start back to the cursor. The first is the current one.
    var walk: ArraySlice<Range<Int>>
    /// Every match not replaced, in document order (highlighted).
    var matches: [Range<Int>]
    var replaced = 0
    /// Matches that overlap a mention or a kept construct: never replaced, only counted.
    var skipped = 0
    /// Matches in git's diff under a commit message's scissors line: never replaced either.
    var inDiff = 0

    /// The match the question is about.
    var current: Range<Int> { walk.first ?? 0 ..< 0 }

    /// Moves the matches the run holds through a change to the document.
    mutating func map(through changes: ChangeSet) {
        walk = ArraySlice(walk.map(changes.mapRange))
        matches = matches.map(changes.mapRange)
    }
}
