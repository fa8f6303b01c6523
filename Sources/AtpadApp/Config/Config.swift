import AtpadCore
import Foundation
import AtpadDirectory

/// The settings of a config file (SPEC §8): the same things the options set. Every field
/// is optional — nil, or no entry in `triggers`, means "not set" — so a config read from
/// a file and one built from the command line merge with ``overridden(by:)``.
struct Config: Equatable, Sendable {
    /// Where one trigger's entities come from: files, and a command or a URL.
    struct TriggerSources: Equatable, Sendable {
        /// Directory files, as absolute paths once read from a file (`~` expanded,
        /// relative paths resolved against the config file's folder).
        var files: [String]?
        /// A directory command, run with `sh -c` and the query as `$1`.
        var command: String?
        /// A directory URL template; `{query}` is replaced by the percent-encoded query.
        var url: String?
        /// SPEC §12: where the people are in any JSON.
        var items: String?
        var map: [String: String]?
        var exclude: [String]?
        /// SPEC §12: how a URL is asked (config only).
        var method: String?
        var body: String?
        /// Header templates, `${NAME}` filled from the environment when the source is set up.
        var headers: [String: String]?
        var next: String?
        var maxPages: Int?
        var cursorParam: String?
        /// Keep the whole list and rank it locally, refreshing it when older than this.
        var cache: Duration?
        /// A named set of the above (``Preset``).
        var preset: String?
        /// Set by presets only: extra environment for the command (never a secret: it is
        /// part of a cache file's name), and what the command prints.
        var environment: [String: String]?
        var answer: CommandSource.Output?

        init(files: [String]? = nil, command: String? = nil, url: String? = nil) {
            self.files = files
            self.command = command
            self.url = url
        }

        /// Whether anything says where the people come from.
        var hasSource: Bool { !(files ?? []).isEmpty || command != nil || url != nil || preset != nil }
    }

    /// The sources of each configured trigger (keys from `@ # $ % + ~ :`).
    var triggers: [Unicode.Scalar: TriggerSources] = [:]
    /// Word characters that start an implicit search; 0 turns it off.
    var implicit: Int?
    /// Backspace trims a selected multi-word mention to its first word first.
    var trimMentions: Bool?
    /// The comment's format, one of ``formats``: for files whose name implies none
    /// (``formatRule``).
    var format: String?
    /// The `[formats]` table: glob patterns of file names and the format of such files,
    /// in the file's order (config only).
    var formatPatterns: [FormatRule.Pattern]?
    /// Where copies go: "terminal" (atpad's clipboard and the terminal's, OSC 52) or
    /// "internal" (atpad's only).
    var clipboard: String?
    /// A theme name, or a theme file path (resolved like directory files).
    var theme: String?
    /// Draw without colours, as `--no-color` does.
    var noColor: Bool?
    /// Rows the chooser shows at once, 1…50.
    var chooserRows: Int?
    /// The most results kept for one query, 1 or more.
    var limit: Int?
    /// How long a directory command may take to answer one query.
    var commandTimeout: Duration?

    /// What decides a file's format when `-f` does not (SPEC §7): the `[formats]`
    /// patterns, then `format`. Meant for the config file's own settings, not merged with
    /// the command line's `-f`, which wins over the whole rule.
    var formatRule: FormatRule {
        FormatRule(patterns: formatPatterns ?? [], fallback: format.flatMap { DocumentFormat(rawValue: $0) },
                   currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The format names `format` accepts (SPEC §7).
    static let formats = DocumentFormat.allCases.map(\.rawValue)

    /// The values `clipboard` (and `--clipboard`) accept.
    static let clipboards = ["terminal", "internal"]

    /// The widest chooser a config may ask for.
    static let chooserRowsRange = 1 ... 50

    /// This config with every setting `other` makes taking its place: `other` is the
    /// command line, and options override the file. A trigger `other` names keeps only
    /// the sources `other` gives it — `-d people.json` replaces the file's `@` table as a
    /// whole rather than adding to its command — so what a trigger reads is always what
    /// one place says.
    func overridden(by other: Config) -> Config {
        var merged = self
        merged.triggers.merge(other.triggers) { _, command in command }
        merged.implicit = other.implicit ?? implicit
        merged.trimMentions = other.trimMentions ?? trimMentions
        merged.format = other.format ?? format
        merged.formatPatterns = other.formatPatterns ?? formatPatterns
        merged.clipboard = other.clipboard ?? clipboard
        merged.theme = other.theme ?? theme
        merged.noColor = other.noColor ?? noColor
        merged.chooserRows = other.chooserRows ?? chooserRows
        merged.limit = other.limit ?? limit
        merged.commandTimeout = other.commandTimeout ?? commandTimeout
        return merged
    }
}
