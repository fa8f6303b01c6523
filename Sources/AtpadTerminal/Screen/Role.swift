/// The semantic roles the front end draws (docs/config.md, "Themes"). The layout says "this is a
/// mention"; a theme says how that looks.
public enum Role: String, CaseIterable, Sendable, Hashable {
    case text
    case mention
    case mentionSelected = "mention.selected"
    case search
    case selection
    case chooser
    case chooserSelected = "chooser.selected"
    case chooserMatch = "chooser.match"
    case chooserDetail = "chooser.detail"
    case chooserStatus = "chooser.status"
    case title
    case status
    case help
    case helpKey = "help.key"
    /// A match of the find prompt, and the current one.
    case match
    case matchCurrent = "match.current"
    /// The label or question of the prompt on the bottom row.
    case prompt
    /// Constructs a format keeps as they are
    /// (docs/formats.md, "Files come back as they were (kept constructs)").
    case verbatim
    /// Markdown as GitHub reads it, in Markdown formats: code spans and blocks, links and
    /// URLs, headings, emphasis, strong emphasis, block quotes (mentions stay on top).
    case markupCode = "markup.code"
    case markupLink = "markup.link"
    case markupHeading = "markup.heading"
    case markupEmphasis = "markup.emphasis"
    case markupStrong = "markup.strong"
    case markupQuote = "markup.quote"
    /// git's files (docs/git.md, "How git's files are drawn"): the lines git strips, the
    /// diff under a commit message's scissors line, the subject past its limit (and past
    /// the body width, more strongly) and body lines past the body width, a second line
    /// that is not blank, and a rebase list's command words, object names and subjects.
    case comment
    case diffAdded = "diff.added"
    case diffRemoved = "diff.removed"
    case diffHeader = "diff.header"
    case commitOverflow = "commit.overflow"
    case commitOverflowStrong = "commit.overflow.strong"
    case commitWarning = "commit.warning"
    case rebaseCommand = "rebase.command"
    case rebaseHash = "rebase.hash"
    case rebaseSubject = "rebase.subject"
    /// A word no dictionary knows (docs/spelling.md, "In the editor"): a curly underline
    /// where the terminal draws one, over whatever role the word has.
    case misspelled

    /// The role a theme falls back to when it does not style this one
    /// (`chooser.match` → `chooser`); nil for top-level roles.
    public var parent: Role? {
        let name = rawValue
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return Role(rawValue: String(name[..<dot]))
    }

    /// The role's index in `allCases` (a screen cell stores this).
    var code: Int {
        switch self {
        case .text: 0
        case .mention: 1
        case .mentionSelected: 2
        case .search: 3
        case .selection: 4
        case .chooser: 5
        case .chooserSelected: 6
        case .chooserMatch: 7
        case .chooserDetail: 8
        case .chooserStatus: 9
        case .title: 10
        case .status: 11
        case .help: 12
        case .helpKey: 13
        case .match: 14
        case .matchCurrent: 15
        case .prompt: 16
        case .verbatim: 17
        case .markupCode: 18
        case .markupLink: 19
        case .markupHeading: 20
        case .markupEmphasis: 21
        case .markupStrong: 22
        case .markupQuote: 23
        case .comment: 24
        case .diffAdded: 25
        case .diffRemoved: 26
        case .diffHeader: 27
        case .commitOverflow: 28
        case .commitOverflowStrong: 29
        case .commitWarning: 30
        case .rebaseCommand: 31
        case .rebaseHash: 32
        case .rebaseSubject: 33
        case .misspelled: 34
        }
    }

    /// The roles by `code`.
    static let byCode: [Role] = Role.allCases

    /// One letter per role, for screens asserted as text in tests.
    public var letter: Character {
        switch self {
        case .text: "."
        case .mention: "m"
        case .mentionSelected: "M"
        case .search: "s"
        case .selection: "v"
        case .chooser: "c"
        case .chooserSelected: "C"
        case .chooserMatch: "x"
        case .chooserDetail: "d"
        case .chooserStatus: "S"
        case .title: "t"
        case .status: "i"
        case .help: "h"
        case .helpKey: "k"
        case .match: "f"
        case .matchCurrent: "F"
        case .prompt: "p"
        case .verbatim: "b"
        case .markupCode: "`"
        case .markupLink: "l"
        case .markupHeading: "H"
        case .markupEmphasis: "e"
        case .markupStrong: "B"
        case .markupQuote: "q"
        case .comment: "#"
        case .diffAdded: "+"
        case .diffRemoved: "-"
        case .diffHeader: "@"
        case .commitOverflow: "o"
        case .commitOverflowStrong: "O"
        case .commitWarning: "w"
        case .rebaseCommand: "r"
        case .rebaseHash: "R"
        case .rebaseSubject: "u"
        case .misspelled: "~"
        }
    }
}
