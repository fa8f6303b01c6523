import AtpadCore
import AtpadDirectory

/// One key a config file may hold, as people read about it: where it is written, what
/// value it takes, its default, the option that sets the same, and what it does.
///
/// ``ConfigKey/all`` is the one list of the config's keys with their descriptions.
/// `atpad keys --config` prints it; `scripts/manpage.py` makes atpad.toml(5) from that
/// output and docs/config.md holds the same table, so neither can drift from the code.
/// The decoder's own `CodingKeys` must name exactly these keys (ConfigKeysTests checks).
struct ConfigKey: Equatable, Sendable {
    /// The table the key is in: "" (the top level), "terminal", "git", "post", "formats" or
    /// `triggers."CHAR"`.
    var table: String
    /// The key's name, as written in the file; `"PATTERN"` for the glob keys of `[formats]`.
    var name: String
    /// The kind of value it takes.
    var value: String
    /// The value used when the key is not set ("" when there is none).
    var defaultValue: String
    /// The command-line option that sets the same ("" when there is none).
    var option: String
    /// What the key does, in a sentence or two.
    var summary: String

    /// The key as a dotted path, as config errors name it: `terminal.graphemes`.
    var dotted: String { table.isEmpty ? name : table + "." + name }

    /// The trigger table's name in the list.
    static let triggerTable = "triggers.\"CHAR\""

    static let all: [ConfigKey] = {
        let formats = Config.formats.joined(separator: ", ")
        let readable = DocumentFormat.allCases.filter { !$0.isOutputOnly }.map(\.rawValue).joined(separator: ", ")
        let rows = Config.chooserRowsRange
        let presets = Preset.allCases.map(\.rawValue).joined(separator: ", ")
        let t = triggerTable
        return [
            ConfigKey(table: "", name: "implicit", value: "integer, 0 or more", defaultValue: "\(EditorConfig.defaultImplicitThreshold)", option: "--implicit",
                      summary: "Word characters typed in a row that start an implicit search of the @ directory; 0 turns it off."),
            ConfigKey(table: "", name: "trim_mentions", value: "true or false", defaultValue: "false", option: "--trim-mentions",
                      summary: "Backspace on a selected mention of several words first trims it to its first word."),
            ConfigKey(table: "", name: "format", value: "one of: \(formats)", defaultValue: "github", option: "-f, --format",
                      summary: "The format of a comment whose name says nothing: a new comment, stdin (atpad -) and .txt "
                          + "files; never git's message files or other files (docs/formats.md). matrix is output only."),
            ConfigKey(table: "", name: "theme", value: "a bundled theme name or a theme file's path", defaultValue: "default",
                      option: "--theme", summary: "The colours: default or mono, or a TOML theme file."),
            ConfigKey(table: "", name: "no_color", value: "true or false", defaultValue: "false", option: "--no-color",
                      summary: "Draw with attributes only (bold, underline, reverse), as a non-empty NO_COLOR does."),
            ConfigKey(table: "", name: "clipboard", value: Clipboard.listed, defaultValue: "terminal", option: "--clipboard",
                      summary: "Where copies go: atpad's clipboard and the terminal's (OSC 52), or atpad's only."),
            ConfigKey(table: "", name: "chooser_rows", value: "integer, \(rows.lowerBound) to \(rows.upperBound)",
                      defaultValue: "\(EditorConfig.defaultChooserRows)", option: "", summary: "Rows the chooser shows at once."),
            ConfigKey(table: "", name: "limit", value: "integer, 1 or more", defaultValue: "\(SourceDefaults.limit)", option: "--limit (search)",
                      summary: "The most results kept for one query."),
            ConfigKey(table: "", name: "command_timeout", value: "seconds, above 0 (2.5 is fine)",
                      defaultValue: SourceDefaults.seconds(SourceDefaults.timeout),
                      option: "--command-timeout",
                      summary: "How long a directory command or URL may take to answer one query, and a post or a participants call (a post waits \(SourceDefaults.seconds(PostPreparation.defaultTimeout)) when unset)."),
            ConfigKey(table: "", name: "spell", value: "\"off\", a language such as \"en_US\", or an array of languages",
                      defaultValue: "from LANG, else en_US", option: "--spell (check), --no-spell (off)",
                      summary: "The languages spelling checks in, by their Hunspell dictionaries' names (a word is right "
                          + "when any of them knows it); \"off\" checks nothing (docs/spelling.md)."),
            ConfigKey(table: "terminal", name: "graphemes", value: "one of: \(Config.graphemeModes.joined(separator: ", "))",
                      defaultValue: "auto", option: "",
                      summary: "How characters of several code points (👍🏽, flags, families) are sent: whole, their first "
                          + "code point, or auto (asks the terminal, mode 2027)."),
            ConfigKey(table: "git", name: "person_trailers", value: "an array of trailer keys", defaultValue: "", option: "",
                      summary: "Trailers that name a person besides \(PersonTrailers.standard.joined(separator: ", ")): in git's "
                          + "message files @ after KEY: at the start of a line inserts Name <email>."),
            ConfigKey(table: "git", name: "subject", value: "an integer of 1 or more",
                      defaultValue: "\(EditorConfig.defaultSubjectLimit)", option: "",
                      summary: "Characters of a commit message's subject line past this many are marked (commit.overflow); "
                          + "the title bar shows the subject's length against it."),
            ConfigKey(table: "git", name: "body", value: "an integer of 1 or more",
                      defaultValue: "\(EditorConfig.defaultBodyWidth)", option: "",
                      summary: "The body width: Alt-Q reflows paragraphs to it, and a commit message's body lines past it "
                          + "are marked."),
        ] + Config.PostKeys.allCases.map { key in
            ConfigKey(table: "post", name: key.rawValue, value: "a string; ${NAME} is read from the environment",
                      defaultValue: "", option: "",
                      summary: "Stands for the environment variable \(key.variable) when it is not set (posting with "
                          + "--to and atpad post).")
        } + [
            ConfigKey(table: "formats", name: "\"PATTERN\"", value: "one of: \(readable)", defaultValue: "", option: "",
                      summary: "The format of files whose name matches the glob PATTERN (* ? [a-z]; with a / the whole path). "
                          + "The first pattern in the file that matches wins; .atpad and .json keep their own format."),
            ConfigKey(table: t, name: "directory", value: "a file path or an array of them", defaultValue: "",
                      option: "-d, -t", summary: "Directory files (.json, .ndjson, .csv) for the trigger CHAR "
                          + "(one of @ # $ % + ~ :); ~ is the home folder, a relative path starts at the config's folder."),
            ConfigKey(table: t, name: "command", value: "a command line for sh -c", defaultValue: "",
                      option: "--directory-command",
                      summary: "Run for every query, the query as $1; prints one JSON entity per line."),
            ConfigKey(table: t, name: "url", value: "an http:// or https:// URL", defaultValue: "", option: "--directory-url",
                      summary: "Asked for every query, {query} replaced by the percent-encoded query. Not with command."),
            ConfigKey(table: t, name: "preset", value: "one of: \(presets)", defaultValue: "", option: "--preset",
                      summary: "Ready-made settings for a service; keys set next to it override the preset's."),
            ConfigKey(table: t, name: "items", value: "a JSON path", defaultValue: "", option: "--items",
                      summary: "Where the array of people is in the answer (\"\" = the answer itself)."),
            ConfigKey(table: t, name: "map", value: "an inline table of strings", defaultValue: "", option: "--map",
                      summary: "For \(EntityMapping.fields.joined(separator: ", ")): a path, alternatives (a // b) or a "
                          + "template ({title} · {team})."),
            ConfigKey(table: t, name: "exclude", value: "an array of JSON paths", defaultValue: "", option: "",
                      summary: "Items where any of these paths is true are skipped."),
            ConfigKey(table: t, name: "method", value: "an HTTP method", defaultValue: SourceDefaults.method, option: "",
                      summary: "The method a url source sends."),
            ConfigKey(table: t, name: "body", value: "a string (a template)", defaultValue: "", option: "",
                      summary: "A JSON body for a url source; {query} is JSON-escaped in it."),
            ConfigKey(table: t, name: "headers", value: "an inline table of strings", defaultValue: "", option: "",
                      summary: "Request headers; ${NAME} comes from the environment and is never shown or written."),
            ConfigKey(table: t, name: "next", value: "a JSON path", defaultValue: "", option: "",
                      summary: "Where an answer gives the next page: a URL, or a cursor sent back as cursor_param."),
            ConfigKey(table: t, name: "max_pages", value: "integer, 1 or more", defaultValue: "\(SourceDefaults.maxPages)", option: "",
                      summary: "The most pages one query follows."),
            ConfigKey(table: t, name: "cursor_param", value: "a string", defaultValue: SourceDefaults.cursorParam, option: "",
                      summary: "The query parameter, or body member, that carries a cursor."),
            ConfigKey(table: t, name: "cache", value: "an age: 45s, 30m, 1h, 2d", defaultValue: "", option: "",
                      summary: "Fetch the whole list once, keep it this long and rank it locally, refreshing it in the background."),
            ConfigKey(table: t, name: "list_limit", value: "integer, 1 or more", defaultValue: "\(SourceDefaults.listLimit)", option: "",
                      summary: "With cache (and the github and gitlab presets): the most people the list may hold; a longer "
                          + "one is asked at each keystroke instead, as a command or URL without cache is."),
        ]
    }()

    /// The Markdown table `atpad keys --config` prints and docs/config.md holds.
    static var markdown: String {
        var lines = ["| key | value | default | option | what it does |", "|---|---|---|---|---|"]
        func cell(_ text: String) -> String {
            text.isEmpty ? "" : text.replacingEvery("|", with: "\\|")
        }
        for key in all {
            let name = key.table.isEmpty ? "`\(key.name)`" : "`[\(key.table)]` `\(key.name)`"
            let option = key.option.isEmpty ? "" : "`\(key.option)`"
            let defaultValue = key.defaultValue.isEmpty ? "" : "`\(key.defaultValue)`"
            lines.append("| \(cell(name)) | \(cell(key.value)) | \(cell(defaultValue)) | \(cell(option)) | \(cell(key.summary)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
