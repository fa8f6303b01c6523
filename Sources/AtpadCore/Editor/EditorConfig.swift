/// The editor's settings: triggers, implicit search, trimming and the geometry it needs.
public struct EditorConfig: Sendable, Equatable {
    /// Configured trigger characters (from `@ # $ % + ~ :`).
    public var triggers: [Unicode.Scalar]
    /// The trigger Ctrl-Space inserts and implicit searches ask.
    public var defaultTrigger: Unicode.Scalar
    /// Word characters that start an implicit search (0 turns it off).
    public var implicitThreshold: Int
    /// Backspace on a selected multi-word mention trims it to its first word first.
    public var trimMentions: Bool
    /// Rows the chooser shows at once (PgUp/PgDn and Alt-digits use it).
    public var chooserRows: Int
    /// Text-area width in columns, for soft wrap and Up/Down.
    public var width: Int
    /// Text-area height in rows, for PgUp/PgDn.
    public var pageRows: Int
    public var tabWidth: Int
    /// Words an implicit search stays quiet on, with their beginnings (docs/keys.md).
    public var quietWords: QuietWords
    /// Triggers of insert completions (`:` → emoji): their chooser opens only from two
    /// characters of query with results, and keeps Enter and arrows until Tab or
    /// Ctrl-N/Ctrl-P, like an implicit one (docs/keys.md, "Emoji (`:`)").
    public var quietTriggers: [Unicode.Scalar]
    /// The trailers that name a person, when the document is one of git's message files
    /// (`COMMIT_EDITMSG`, `MERGE_MSG`, …): `@` after `Signed-off-by: ` and the like at the
    /// start of a line inserts `Name <email>` (``PersonTrailers``). Nil elsewhere.
    public var personTrailers: PersonTrailers?
    /// git's committer (`Name <email>`) for Alt-O's `Signed-off-by:`, in git's message
    /// files; nil when git has none (or elsewhere).
    public var signOffIdent: String?
    /// The git file the document is (a commit message, a rebase list), read as git reads
    /// it (``GitFile``, docs/git.md); nil for every other file.
    public var git: GitFile?
    /// Characters of a commit message's subject line past this many are marked
    /// (`[git] subject`).
    public var subjectLimit = EditorConfig.defaultSubjectLimit
    /// The body width: Alt-Q reflows paragraphs to it (``Reflow``), and a commit message's
    /// body lines past it are marked (`[git] body`).
    public var bodyWidth = EditorConfig.defaultBodyWidth
    /// Spelling is checked (docs/spelling.md): off with `spell = "off"` or `--no-spell`,
    /// and then F7 says so.
    public var checksSpelling = true
    /// The document's format: how a paste is read (as a file in it is), whether typed
    /// triggers start searches (not in `text`), and in a Markdown format (`github`,
    /// `gitlab`, `mattermost`, `markdown`) GitHub's parser decides where a search may
    /// start and the front end draws Markdown in the `markup.*` roles.
    public var format: DocumentFormat
    /// The format of the place the comment goes (`--to`'s service), when it is not the
    /// file's: its readers decide whether a picked mention shows the handle or the name.
    public var readersFormat: DocumentFormat?

    /// Whether the document is in a Markdown format.
    public var markdown: Bool { format.isMarkdown }

    /// Whether a mention shows what its readers see as a handle (`@jdoe`) rather than the
    /// name (docs/formats.md, "How a mention is shown").
    public var showsHandles: Bool { (readersFormat ?? format).showsHandles }

    /// Word characters typed in a row that start an implicit search when nothing sets it
    /// (`implicit`; declared once here, docs/config.md shows it).
    public static let defaultImplicitThreshold = 3
    /// The subject length git's documentation and GitHub suggest (`[git] subject`).
    public static let defaultSubjectLimit = 50
    /// The body width git's documentation and the Linux kernel use (`[git] body`).
    public static let defaultBodyWidth = 72
    /// Rows the chooser shows at once when nothing sets it (`chooser_rows`).
    public static let defaultChooserRows = 8

    public init(triggers: [Unicode.Scalar] = ["@"], defaultTrigger: Unicode.Scalar = "@",
                implicitThreshold: Int = EditorConfig.defaultImplicitThreshold, trimMentions: Bool = false,
                chooserRows: Int = EditorConfig.defaultChooserRows,
                width: Int = 80, pageRows: Int = 20, tabWidth: Int = 4, quietWords: QuietWords = QuietWords(),
                quietTriggers: [Unicode.Scalar] = [":"], format: DocumentFormat = .atpad) {
        self.triggers = triggers
        self.defaultTrigger = defaultTrigger
        self.implicitThreshold = implicitThreshold
        self.trimMentions = trimMentions
        self.chooserRows = chooserRows
        self.width = width
        self.pageRows = pageRows
        self.tabWidth = tabWidth
        self.quietWords = quietWords
        self.quietTriggers = quietTriggers
        self.format = format
    }

    /// Every character that may be a trigger at all.
    public static let triggerSet: [Unicode.Scalar] = ["@", "#", "$", "%", "+", "~", ":"]
}
