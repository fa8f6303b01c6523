import AtpadCore
import AtpadDirectory
import AtpadTerminal
import FoundationEssentials
import Glibc

/// Everything the editor needs from the command line, as plain values.
struct EditOptions: Sendable {
    var path: String?
    var document: MarkedText
    /// What followed the part of the file its format reads (a `json` file's final
    /// newline, `DecodedDocument.ending`), written back after it on save.
    var ending: [UInt8] = []
    /// The file's format, to save it (and to print it with `--print`).
    var format: DocumentFormat = .atpad
    /// The directory as the format sees it (handles and urls by id), when it needs one.
    var lookup: EntityLookup = .empty
    var sources: [Unicode.Scalar: any EntitySource]
    /// Directories still loading on their own threads, by trigger.
    var loading: [Unicode.Scalar: LoadingDirectory] = [:]
    /// Notes about the directories for the message line.
    var warnings: [String] = []
    var config: EditorConfig
    var theme: Theme
    var noColor: Bool
    /// How clusters of several code points are sent to the terminal (`[terminal] graphemes`).
    var graphemes = Graphemes.auto
    var print: Bool
    /// `-f` named the format (Save as keeps it rather than taking the one the new name
    /// gives it; the config's `format` is part of ``formatRule`` instead).
    var formatIsFixed = false
    /// What gives a file its format from its name (Save as asks it when `-f` was not given).
    var formatRule = FormatRule()
    /// The file as it was read (nil: it does not exist yet), to notice other programs'
    /// changes before a save.
    var disk: DiskState? = nil
    /// The file exists and this person may not write it.
    var isReadOnly = false
    /// Copies also go to the terminal's clipboard with OSC 52 (`--clipboard internal`: no).
    var terminalClipboard = true
    /// The starting comment came from stdin (`atpad -`): the title says `[stdin]` until
    /// Save as names a file, and no unnamed draft is offered (the person brought a text).
    var fromStandardInput = false
    /// Where recovery drafts go (nil: no home folder, no drafts).
    var drafts: DraftStore? = nil
    /// The frecency file, updated on each pick (nil: none kept).
    var frecency: FrecencyRecord? = nil
    /// Notes the sources make while answering (skipped items, a failed cache refresh),
    /// shown on the message line as they come (docs/directories.md, "Connect your directory").
    var sourceNotes: SourceNotes? = nil
    /// `--to`: where Ctrl-S posts, and what posting needs from the process.
    var post: (target: PostTarget, context: PostingContext)? = nil
    /// The conversation's participants being fetched for `@` (`--to`, or the github
    /// preset's pull request), which the runtime watches to say how it went.
    var participants: ConversationPeople? = nil
    /// What spelling checks with (nil: `spell = "off"`, `--no-spell`).
    var spelling: SpellChecker.Settings? = nil
}
