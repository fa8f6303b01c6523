import TOMLKit
import ArgumentParser
import AtpadCore
import FoundationEssentials
import Glibc
import AtpadDirectory
import AtpadTerminal

/// The settings of a config file (docs/config.md): the same things the options set. Every field
/// is optional — nil, or no entry in `triggers`, means "not set" — so the command line can
/// write its options over the file's (``EditCommand/apply(to:)``).
///
/// The file's keys are the `CodingKeys` below, decoded with TOMLKit's `TOMLDecoder`
/// (``Config/parse(_:file:environment:)``); each key is declared there once.
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
        /// Where the people are in any JSON (docs/directories.md, "Connect your directory").
        var items: String?
        var map: [String: String]?
        var exclude: [String]?
        /// How a URL is asked, config only (docs/directories.md, "Connect your directory").
        var method: String?
        var body: String?
        /// Header templates, `${NAME}` filled from the environment when the source is set up.
        var headers: [String: String]?
        var next: String?
        var maxPages: Int?
        var cursorParam: String?
        /// Keep the whole list and rank it locally, refreshing it when older than this.
        var cache: Duration?
        /// With `cache`: the most people the list may hold; a longer list is asked per
        /// query instead (the github and gitlab presets: 20,000).
        var listLimit: Int?
        /// A named set of the above (``Preset``).
        var preset: String?
        /// Set by presets only: extra environment for the command (never a secret: it is
        /// part of a cache file's name), and what the command prints.
        var environment: [String: String]?
        var answer: CommandSource.Output?
        /// Set by presets only: the command that prints the whole list for `cache` (the
        /// `command` asked with an empty query otherwise).
        var listCommand: String?

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
    /// Where copies go.
    var clipboard: Clipboard?
    /// A theme name, or a theme file path (resolved like directory files).
    var theme: String?
    /// Draw without colours, as `--no-color` does.
    var noColor: Bool?
    /// Rows the chooser shows at once, 1…50.
    var chooserRows: Int?
    /// `spell`: the languages spelling checks in (`en_US`), or `["off"]`
    /// (docs/spelling.md, "Languages").
    var spell: [String]?
    /// The most results kept for one query, 1 or more.
    var limit: Int?
    /// How long a directory command may take to answer one query.
    var commandTimeout: Duration?
    /// `[terminal] graphemes`: how clusters of several code points are sent to the terminal.
    var graphemes: Graphemes?
    /// `[git] person_trailers`: trailer keys besides git's and the kernel's that name a
    /// person (docs/git.md, "People in trailers").
    var personTrailers: [String]?
    /// `[git] subject`: characters of a commit message's subject past this many are marked.
    var subjectLimit: Int?
    /// `[git] body`: the body width — Alt-Q fills to it, and a commit message's body lines
    /// past it are marked.
    var bodyWidth: Int?
    /// `[post]`: where posts go and with which tokens, by the environment variable each key
    /// stands for (`slack_token` → `SLACK_TOKEN`); values may hold `${NAME}`.
    var post: [String: String]?

    /// What decides a file's format when `-f` does not
    /// (docs/formats.md, "Which format a file is in"): the `[formats]` patterns, then
    /// `format`. Meant for the config file's own settings, not merged with the command
    /// line's `-f`, which wins over the whole rule.
    var formatRule: FormatRule {
        FormatRule(patterns: formatPatterns ?? [], fallback: format.flatMap { DocumentFormat(rawValue: $0) },
                   currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The format names `format` accepts (docs/config.md, "Every key").
    static let formats = DocumentFormat.allCases.map(\.rawValue)

    /// The widest chooser a config may ask for.
    static let chooserRowsRange = 1 ... 50

    /// The values of `[terminal] graphemes`.
    static let graphemeModes = Graphemes.allCases.map(\.rawValue)
}

/// Where copies go (`--clipboard`, `clipboard =`): atpad's clipboard and the terminal's
/// (OSC 52), or atpad's only.
enum Clipboard: String, CaseIterable, Sendable, Decodable, ExpressibleByArgument {
    case terminal, `internal`

    /// `"terminal" or "internal"`, as messages list the values.
    static let listed = allCases.map { ConfigReader.quoted($0.rawValue) }.joined(separator: " or ")
}

// MARK: - Decoding

extension Config: Decodable {
    /// The keys a config may hold at its top level.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case triggers, implicit, trimMentions = "trim_mentions", format, formats, clipboard, theme, noColor = "no_color"
        case chooserRows = "chooser_rows", limit, commandTimeout = "command_timeout", spell, terminal, post, git
    }

    /// The keys of `[git]`.
    enum GitKeys: String, CodingKey, CaseIterable {
        case personTrailers = "person_trailers", subject, body
    }

    /// The keys of `[post]`: each the environment variable of the same name (`slack_api`:
    /// `ATPAD_SLACK_API`), which wins when it is set.
    enum PostKeys: String, CodingKey, CaseIterable {
        case slackAPI = "slack_api", slackToken = "slack_token", jiraURL = "jira_url", jiraUser = "jira_user"
        case jiraToken = "jira_token", zulipSite = "zulip_site", zulipEmail = "zulip_email", zulipAPIKey = "zulip_api_key"
        case matrixHomeserver = "matrix_homeserver", matrixToken = "matrix_token"

        /// The environment variable the key stands for.
        var variable: String { self == .slackAPI ? "ATPAD_SLACK_API" : rawValue.uppercased() }
    }

    /// The keys of `[terminal]`.
    enum TerminalKeys: String, CodingKey, CaseIterable {
        case graphemes
    }

    init(from decoder: any Decoder) throws {
        let reader = ConfigReader.of(decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        c.noteUnknownKeys(reader)
        implicit = c.setting(.implicit, "must be an integer of 0 or more", reader) { (n: Int) in n >= 0 }
        trimMentions = c.setting(.trimMentions, "must be true or false", reader)
        noColor = c.setting(.noColor, "must be true or false", reader)
        format = c.setting(.format, "must be one of \(Config.formats.joined(separator: ", "))", reader) { (name: String) in
            Config.formats.contains(name.lowercased())
        }?.lowercased()
        if c.contains(.formats) { readFormatPatterns(c, reader) }
        clipboard = c.setting(.clipboard, "must be \(Clipboard.listed)", reader)
        theme = c.setting(.theme, "must be a theme name or the path of a theme file", reader) { (text: String) in
            !text.isEmpty
        }.map { ConfigPaths.isThemePath($0) ? reader.paths.resolve($0) : $0 }
        let rows = Config.chooserRowsRange
        chooserRows = c.setting(.chooserRows, "must be an integer from \(rows.lowerBound) to \(rows.upperBound)", reader) {
            rows.contains($0)
        }
        limit = c.setting(.limit, "must be an integer of 1 or more", reader) { (n: Int) in n >= 1 }
        spell = c.setting(.spell, "must be \"off\", a language such as \"en_US\" or an array of languages", reader) {
            (languages: OneOrSeveral) in Config.isSpellSetting(languages.all)
        }?.all
        commandTimeout = c.setting(.commandTimeout, "must be a number of seconds greater than 0", reader) { (s: Seconds) in
            s.value.isFinite && s.value > 0
        }.map { .seconds($0.value) }
        if c.contains(.terminal) {
            if let terminal = try? c.nestedContainer(keyedBy: TerminalKeys.self, forKey: .terminal) {
                terminal.noteUnknownKeys(reader)
                graphemes = terminal.setting(.graphemes, "must be one of \(Config.graphemeModes.joined(separator: ", "))",
                                             reader) { (text: String) in Config.graphemeModes.contains(text) }.flatMap(Graphemes.init(rawValue:))
            } else {
                reader.fail(["terminal"], "must be a table, such as [terminal]")
            }
        }
        if c.contains(.git) {
            if let git = try? c.nestedContainer(keyedBy: GitKeys.self, forKey: .git) {
                git.noteUnknownKeys(reader)
                personTrailers = git.setting(.personTrailers, "must be an array of trailer keys (letters, digits and -, "
                                             + "such as \"Mentored-by\")", reader) { (keys: [String]) in
                    keys.allSatisfy(PersonTrailers.isValidKey)
                }
                subjectLimit = git.setting(.subject, "must be an integer of 1 or more", reader) { (n: Int) in n >= 1 }
                bodyWidth = git.setting(.body, "must be an integer of 1 or more", reader) { (n: Int) in n >= 1 }
            } else {
                reader.fail(["git"], "must be a table, such as [git]")
            }
        }
        if c.contains(.post) {
            if let table = try? c.nestedContainer(keyedBy: PostKeys.self, forKey: .post) {
                table.noteUnknownKeys(reader)
                var values: [String: String] = [:]
                for key in PostKeys.allCases {
                    if let value = table.setting(key, "must be a text (it may hold ${NAME})", reader, accept: { (text: String) in !text.isEmpty }) {
                        values[key.variable] = value
                    }
                }
                post = values
            } else {
                reader.fail(["post"], "must be a table, such as [post]")
            }
        }
        if c.contains(.triggers) { readTriggers(c, reader) }
    }

    private mutating func readTriggers(_ c: KeyedDecodingContainer<CodingKeys>, _ reader: ConfigReader) {
        guard let table = try? c.nestedContainer(keyedBy: AnyTOMLKey.self, forKey: .triggers) else {
            reader.fail(["triggers"], "must be a table of triggers, such as [triggers.\"@\"]")
            return
        }
        for key in table.allKeys {
            let at = ["triggers", key.stringValue]
            guard key.stringValue.unicodeScalars.count == 1, let trigger = key.stringValue.unicodeScalars.first,
                  EditorConfig.triggerSet.contains(trigger) else {
                reader.note(at, "unknown trigger \(ConfigReader.quoted(key.stringValue)) in [triggers] "
                    + "(a trigger is one of \(ConfigReader.triggerList))")
                continue
            }
            guard reader.value(at: at)?.table != nil else {
                reader.fail(at, "must be a table with directory, command or url")
                continue
            }
            if let decoded = try? table.decode(TriggerSources.Decoded.self, forKey: key), decoded.isComplete {
                triggers[trigger] = decoded.sources
            }
        }
    }
}

/// A number of seconds, written as an integer or not.
struct Seconds: Decodable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let seconds = try? single.decode(Double.self) {
            value = seconds
        } else {
            value = Double(try single.decode(Int.self))
        }
    }
}

/// One string or an array of them: file paths (`directory = "a.json"` or
/// `["a.json", "b.csv"]`), languages (`spell = "en_US"` or `["en_US", "de_DE"]`).
private enum OneOrSeveral: Decodable {
    case one(String), several([String])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            self = .one(text)
        } else {
            self = .several(try single.decode([String].self))
        }
    }

    var all: [String] {
        switch self {
        case let .one(text): [text]
        case let .several(texts): texts
        }
    }
}

extension Config {
    /// Whether `languages` is a value `spell` takes: `off` alone, or one or more language
    /// names as dictionaries are named (`en_US`, `de_DE_frami`, `pt-BR`).
    static func isSpellSetting(_ languages: [String]) -> Bool {
        if languages == ["off"] { return true }
        return !languages.isEmpty && languages.allSatisfy { isLanguageName($0) && $0 != "off" }
    }

    /// Letters first, then letters, digits, `_` and `-`: a dictionary's file name, never a path.
    static func isLanguageName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0" ... "9").contains($0) || $0 == "_" || $0 == "-" }
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a" ... "z").contains(self) || ("A" ... "Z").contains(self) }
}

extension Config.TriggerSources {
    /// A trigger table as decoded: the sources, and whether every key of it was right (a
    /// table with a problem sets nothing).
    struct Decoded: Decodable {
        var sources = Config.TriggerSources()
        var isComplete = true

        /// The keys of a trigger table.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case directory, command, url, preset, items, map, exclude, method, body, headers, next
            case maxPages = "max_pages", cursorParam = "cursor_param", cache, listLimit = "list_limit"
        }

        init(from decoder: any Decoder) throws {
            let reader = ConfigReader.of(decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let at = c.codingPath.map(\.stringValue)
            let before = reader.problems.count
            c.noteUnknownKeys(reader, hint: "a trigger has directory, command, url or preset")
            sources.files = directory(c, reader)
            sources.command = c.setting(.command, "must be a command line for sh -c", reader) { !$0.isEmpty }
            sources.url = c.setting(.url, "must be an http:// or https:// URL", reader, accept: ConfigReader.isURLTemplate)
            let presets = Preset.allCases.map(\.rawValue)
            sources.preset = c.setting(.preset, "must be one of \(presets.joined(separator: ", "))", reader) {
                presets.contains($0)
            }
            sources.items = c.setting(.items, "must be a string", reader)
            sources.method = c.setting(.method, "must be a string", reader) { !$0.isEmpty }
            sources.body = c.setting(.body, "must be a string", reader)
            sources.next = c.setting(.next, "must be a string", reader) { !$0.isEmpty }
            sources.cursorParam = c.setting(.cursorParam, "must be a string", reader) { !$0.isEmpty }
            sources.maxPages = c.setting(.maxPages, "must be an integer of 1 or more", reader) { (n: Int) in n >= 1 }
            sources.cache = c.setting(.cache, "must be an age such as \"30m\", \"1h\" or \"2d\"", reader) { (text: String) in
                ConfigReader.age(text) != nil
            }.flatMap(ConfigReader.age)
            sources.listLimit = c.setting(.listLimit, "must be an integer of 1 or more", reader) { (n: Int) in n >= 1 }
            sources.exclude = c.setting(.exclude, "must be an array of paths, such as [\"deleted\", \"is_bot\"]", reader) {
                (paths: [String]) in paths.allSatisfy { !$0.isEmpty }
            }
            let strings = "must be an inline table of strings, such as { id = \"login\" }"
            sources.headers = c.setting(.headers, strings, reader)
            sources.map = c.setting(.map, strings, reader)
            if let map = sources.map, let unknown = map.keys.sorted().first(where: { !EntityMapping.fields.contains($0) }) {
                reader.note(at + ["map", unknown], "unknown map field \(ConfigReader.quoted(unknown)) (the fields are "
                    + EntityMapping.fields.joined(separator: ", ") + ")")
            }
            if reader.problems.count > before {
                isComplete = false
            } else if sources.command != nil, sources.url != nil {
                reader.note(at + ["url"], "\(ConfigReader.table(at)) has both a command and a url; a trigger asks one of them")
                isComplete = false
            } else if !sources.hasSource {
                reader.note(at, "\(ConfigReader.table(at)) sets no directory, command, url or preset")
                isComplete = false
            }
        }

        /// `directory`: a path or a non-empty array of paths, resolved.
        private func directory(_ c: KeyedDecodingContainer<CodingKeys>, _ reader: ConfigReader) -> [String]? {
            guard c.contains(.directory) else { return nil }
            let expected = "must be a file path or an array of file paths"
            let at = c.codingPath.map(\.stringValue) + ["directory"]
            if let paths = try? c.decode(OneOrSeveral.self, forKey: .directory).all, !paths.isEmpty, paths.allSatisfy({ !$0.isEmpty }) {
                return paths.map(reader.paths.resolve)
            }
            // Name the element that is wrong when the array is what it should be otherwise.
            if let elements = reader.value(at: at)?.array, !elements.isEmpty,
               let bad = elements.first(where: { $0.string?.isEmpty != false }) {
                reader.note(at, "\(ConfigReader.subject(at)) \(expected) (found \(ConfigReader.describe(bad)) in the array)")
            } else {
                reader.fail(at, expected)
            }
            return nil
        }
    }
}
