import AtpadCore
import AtpadDirectory
import Foundation
import TOMLKit

/// Walks a parsed config table into a ``Config``, noting every problem with its key so
/// the caller can name the first one's line.
struct ConfigReader {
    /// A problem found in the table: the dotted key it is about, and what is wrong.
    struct Problem: Equatable {
        var key: String
        var message: String
    }

    let paths: ConfigPaths
    private(set) var config = Config()
    private(set) var problems: [Problem] = []

    /// The keys a config may hold at its top level.
    static let topKeys = ["triggers", "implicit", "trim_mentions", "format", "formats", "clipboard", "theme", "no_color",
                          "chooser_rows", "limit", "command_timeout"]
    /// The keys of a trigger table.
    static let triggerKeys = ["directory", "command", "url", "preset", "items", "map", "exclude", "method", "body",
                              "headers", "next", "max_pages", "cursor_param", "cache"]

    init(paths: ConfigPaths) {
        self.paths = paths
    }

    /// Reads the file's top-level table into ``config``, noting ``problems``.
    mutating func read(_ table: TOMLTable) {
        for key in table.keys {
            guard let value = table[key] else { continue }
            let at = [key]
            switch key {
            case "triggers": readTriggers(value)
            case "implicit":
                config.implicit = integer(value, at: at, in: 0..., "an integer of 0 or more")
            case "trim_mentions": config.trimMentions = boolean(value, at: at)
            case "no_color": config.noColor = boolean(value, at: at)
            case "format":
                let names = Config.formats
                if let text = value.string, names.contains(text.lowercased()) {
                    config.format = text.lowercased()
                } else {
                    fail(at, "must be one of \(names.joined(separator: ", "))", found: value)
                }
            case "formats": readFormatPatterns(value)
            case "clipboard":
                if let text = value.string, Config.clipboards.contains(text) {
                    config.clipboard = text
                } else {
                    fail(at, "must be \"terminal\" or \"internal\"", found: value)
                }
            case "theme":
                if let text = value.string, !text.isEmpty {
                    config.theme = ConfigPaths.isThemePath(text) ? paths.resolve(text) : text
                } else {
                    fail(at, "must be a theme name or the path of a theme file", found: value)
                }
            case "chooser_rows":
                let rows = Config.chooserRowsRange
                config.chooserRows = integer(value, at: at, in: rows, "an integer from \(rows.lowerBound) to \(rows.upperBound)")
            case "limit":
                config.limit = integer(value, at: at, in: 1..., "an integer of 1 or more")
            case "command_timeout":
                let seconds = value.double ?? value.int.map(Double.init)
                if let seconds, seconds.isFinite, seconds > 0 {
                    config.commandTimeout = .seconds(seconds)
                } else {
                    fail(at, "must be a number of seconds greater than 0", found: value)
                }
            default:
                unknown(at, known: ConfigReader.topKeys, hint: nil)
            }
        }
    }

    // MARK: - Formats

    /// `[formats]`: `"*.slack" = "slack"`, a glob of file names and a readable format each.
    /// The order is the file's (TOMLKit keeps it), so the first matching pattern wins.
    private mutating func readFormatPatterns(_ value: TOMLValueConvertible) {
        guard let table = value.table else {
            fail(["formats"], "must be a table of file name patterns, such as [formats] \"*.slack\" = \"slack\"",
                 found: value)
            return
        }
        let names = DocumentFormat.allCases.filter { !$0.isOutputOnly }.map(\.rawValue)
        var patterns: [FormatRule.Pattern] = []
        for key in table.keys {
            guard let entry = table[key] else { continue }
            guard !key.isEmpty else {
                fail(["formats", key], "must be a file name pattern, such as \"*.slack\"", found: entry)
                continue
            }
            guard let text = entry.string, let format = DocumentFormat(rawValue: text.lowercased()), !format.isOutputOnly else {
                fail(["formats", key], "must be one of \(names.joined(separator: ", "))", found: entry)
                continue
            }
            // `~/` is the home folder, as in every path of the config.
            let glob = key.hasPrefix("~/") ? paths.resolve(key) : key
            patterns.append(FormatRule.Pattern(glob: glob, format: format))
        }
        config.formatPatterns = patterns
    }

    // MARK: - Triggers

    private mutating func readTriggers(_ value: TOMLValueConvertible) {
        guard let table = value.table else {
            fail(["triggers"], "must be a table of triggers, such as [triggers.\"@\"]", found: value)
            return
        }
        for key in table.keys {
            guard let value = table[key] else { continue }
            let at = ["triggers", key]
            guard key.unicodeScalars.count == 1, let trigger = key.unicodeScalars.first,
                  EditorConfig.triggerSet.contains(trigger) else {
                problems.append(Problem(key: ConfigReader.dotted(at),
                                        message: "unknown trigger \(ConfigReader.quoted(key)) in [triggers] "
                                            + "(a trigger is one of \(ConfigReader.triggerList))"))
                continue
            }
            guard let sourcesTable = value.table else {
                fail(at, "must be a table with directory, command or url", found: value)
                continue
            }
            if let sources = readSources(sourcesTable, at: at) { config.triggers[trigger] = sources }
        }
    }

    private mutating func readSources(_ table: TOMLTable, at trigger: [String]) -> Config.TriggerSources? {
        var sources = Config.TriggerSources()
        var ok = true
        for key in table.keys {
            guard let value = table[key] else { continue }
            let at = trigger + [key]
            switch key {
            case "directory":
                sources.files = files(value, at: at)
                ok = ok && sources.files != nil
            case "command":
                if let text = value.string, !text.isEmpty {
                    sources.command = text
                } else {
                    fail(at, "must be a command line for sh -c", found: value)
                    ok = false
                }
            case "url":
                if let text = value.string, ConfigReader.isURLTemplate(text) {
                    sources.url = text
                } else {
                    fail(at, "must be an http:// or https:// URL", found: value)
                    ok = false
                }
            case "preset":
                if let text = value.string, Preset(rawValue: text) != nil {
                    sources.preset = text
                } else {
                    fail(at, "must be one of \(Preset.allCases.map(\.rawValue).joined(separator: ", "))", found: value)
                    ok = false
                }
            case "items": ok = string(value, at: at, into: &sources.items, allowEmpty: true) && ok
            case "method": ok = string(value, at: at, into: &sources.method) && ok
            case "body": ok = string(value, at: at, into: &sources.body, allowEmpty: true) && ok
            case "next": ok = string(value, at: at, into: &sources.next) && ok
            case "cursor_param": ok = string(value, at: at, into: &sources.cursorParam) && ok
            case "max_pages":
                sources.maxPages = integer(value, at: at, in: 1..., "an integer of 1 or more")
                ok = ok && sources.maxPages != nil
            case "cache":
                if let text = value.string, let age = ConfigReader.age(text) {
                    sources.cache = age
                } else {
                    fail(at, "must be an age such as \"30m\", \"1h\" or \"2d\"", found: value)
                    ok = false
                }
            case "exclude":
                if let array = value.array, array.allSatisfy({ $0.string?.isEmpty == false }) {
                    sources.exclude = array.compactMap(\.string)
                } else {
                    fail(at, "must be an array of paths, such as [\"deleted\", \"is_bot\"]", found: value)
                    ok = false
                }
            case "map", "headers":
                guard let table = value.table,
                      table.keys.allSatisfy({ table[$0]?.string != nil }) else {
                    fail(at, "must be an inline table of strings, such as { id = \"login\" }", found: value)
                    ok = false
                    continue
                }
                var strings: [String: String] = [:]
                for name in table.keys { strings[name] = table[name]?.string }
                if key == "map" {
                    if let unknown = strings.keys.sorted().first(where: { !EntityMapping.fields.contains($0) }) {
                        problems.append(Problem(key: ConfigReader.dotted(at + [unknown]),
                                                message: "unknown map field \(ConfigReader.quoted(unknown)) (the fields are "
                                                    + EntityMapping.fields.joined(separator: ", ") + ")"))
                        ok = false
                    }
                    sources.map = strings
                } else {
                    sources.headers = strings
                }
            default:
                unknown(at, known: ConfigReader.triggerKeys, hint: "a trigger has directory, command, url or preset")
                ok = false
            }
        }
        guard ok else { return nil }
        if sources.command != nil, sources.url != nil {
            problems.append(Problem(key: ConfigReader.dotted(trigger + ["url"]),
                                    message: "\(ConfigReader.table(trigger)) has both a command and a url; "
                                        + "a trigger asks one of them"))
            return nil
        }
        if !sources.hasSource {
            problems.append(Problem(key: ConfigReader.dotted(trigger),
                                    message: "\(ConfigReader.table(trigger)) sets no directory, command, url or preset"))
            return nil
        }
        return sources
    }

    /// A path or a non-empty array of paths, resolved.
    private mutating func files(_ value: TOMLValueConvertible, at: [String]) -> [String]? {
        let expected = "must be a file path or an array of file paths"
        if let text = value.string {
            guard !text.isEmpty else {
                fail(at, expected, found: value)
                return nil
            }
            return [paths.resolve(text)]
        }
        guard let array = value.array, !array.isEmpty else {
            fail(at, expected, found: value)
            return nil
        }
        var files: [String] = []
        for element in array {
            guard let text = element.string, !text.isEmpty else {
                problems.append(Problem(key: ConfigReader.dotted(at),
                                        message: "\(ConfigReader.subject(at)) \(expected) "
                                            + "(found \(ConfigReader.describe(element)) in the array)"))
                return nil
            }
            files.append(paths.resolve(text))
        }
        return files
    }

    /// Whether `text` is a URL template a URL source can use: http(s). It need not hold
    /// `{query}` (a POST body or a cached list carries none, SPEC §12).
    static func isURLTemplate(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// An age such as `45s`, `30m`, `1h`, `2d`.
    static func age(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last, let number = Double(trimmed.dropLast()), number > 0, number.isFinite else { return nil }
        let seconds: Double
        switch unit {
        case "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3600
        case "d": seconds = number * 86400
        default: return nil
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    private mutating func string(_ value: TOMLValueConvertible, at: [String], into field: inout String?,
                                 allowEmpty: Bool = false) -> Bool {
        guard let text = value.string, allowEmpty || !text.isEmpty else {
            fail(at, "must be a string", found: value)
            return false
        }
        field = text
        return true
    }

    // MARK: - Values

    private mutating func integer(_ value: TOMLValueConvertible, at: [String], in range: some RangeExpression<Int>,
                                  _ expected: String) -> Int? {
        guard let number = value.int, range.contains(number) else {
            fail(at, "must be \(expected)", found: value)
            return nil
        }
        return number
    }

    private mutating func boolean(_ value: TOMLValueConvertible, at: [String]) -> Bool? {
        guard let flag = value.bool else {
            fail(at, "must be true or false", found: value)
            return nil
        }
        return flag
    }

    // MARK: - Problems

    private mutating func fail(_ at: [String], _ expected: String, found value: TOMLValueConvertible) {
        problems.append(Problem(key: ConfigReader.dotted(at),
                                message: "\(ConfigReader.subject(at)) \(expected) (found \(ConfigReader.describe(value)))"))
    }

    private mutating func unknown(_ at: [String], known: [String], hint: String?) {
        let key = at.last!
        var message = "unknown key \(ConfigReader.quoted(key))"
        if at.count > 1 { message += " in \(ConfigReader.table(Array(at.dropLast())))" }
        if let near = ConfigReader.nearest(to: key, in: known) {
            message += " (did you mean \"\(near)\"?)"
        } else if let hint {
            message += " (\(hint))"
        }
        problems.append(Problem(key: ConfigReader.dotted(at), message: message))
    }

    static let triggerList = EditorConfig.triggerSet.map { String($0) }.joined(separator: " ")

    /// A key as it is named in messages: `"implicit"`, or `"url" in [triggers."@"]`.
    static func subject(_ at: [String]) -> String {
        at.count == 1 ? quoted(at[0]) : "\(quoted(at.last!)) in \(table(Array(at.dropLast())))"
    }

    /// A table header as written in TOML: `[triggers."@"]`.
    static func table(_ at: [String]) -> String {
        "[\(dotted(at))]"
    }

    /// Key parts joined with dots, each quoted unless it is a bare key.
    static func dotted(_ at: [String]) -> String {
        at.map { part in
            let bare = !part.isEmpty && part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
            return bare ? part : quoted(part)
        }.joined(separator: ".")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A value as a message shows it: the value itself when short, else its kind.
    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string:
            let text = value.string ?? ""
            let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return quoted(short.replacingOccurrences(of: "\n", with: "\\n"))
        case .int: return value.int.map(String.init) ?? "an integer"
        case .double: return value.double.map { "\($0)" } ?? "a number"
        case .bool: return value.bool.map { $0 ? "true" : "false" } ?? "a boolean"
        case .array: return value.array?.isEmpty == true ? "an empty array" : "an array"
        case .table: return "a table"
        case .date: return "a date"
        case .time: return "a time"
        case .dateTime: return "a date-time"
        }
    }

    /// The known key `key` was most likely meant to be: one at most two edits away.
    static func nearest(to key: String, in known: [String]) -> String? {
        let typed = Array(key.lowercased().replacingOccurrences(of: "-", with: "_"))
        let scored = known.map { ($0, distance(typed, Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= min(2, typed.count / 2) else { return nil }
        return best.0
    }

    /// Levenshtein distance between two short keys.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
