import AtpadCore
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import Glibc
import TOMLKit

/// What ``Config``'s `Decodable` conformance needs besides the decoder: the parsed table
/// (to show a wrong value as it was written), how paths resolve, and the problems found.
///
/// Decoding never stops at a problem: each one is noted with its dotted key and the value
/// is left unset, so the caller can report the one that comes first in the file.
final class ConfigReader {
    /// A problem found in the table: the dotted key it is about, and what is wrong.
    struct Problem: Equatable {
        var key: String
        var message: String
    }

    let table: TOMLTable
    let paths: ConfigPaths
    /// The text the table was parsed from, read again only to find where keys are written.
    let source: String
    private(set) var problems: [Problem] = []

    /// Where a decoder finds its reader.
    static let userInfoKey = CodingUserInfoKey(rawValue: "atpad.configReader")!

    init(table: TOMLTable, paths: ConfigPaths, source: String = "") {
        self.table = table
        self.paths = paths
        self.source = source
    }

    /// The reader a config decoder was given.
    static func of(_ decoder: any Decoder) -> ConfigReader {
        // Set by `Config.parse`, the only place a Config is decoded.
        decoder.userInfo[userInfoKey] as! ConfigReader
    }

    // MARK: - Noting problems

    /// `"key" must be EXPECTED (found VALUE)`, about the value at `path`.
    func fail(_ path: [String], _ expected: String) {
        let found = value(at: path).map(ConfigReader.describe) ?? "nothing"
        note(path, "\(ConfigReader.subject(path)) \(expected) (found \(found))")
    }

    func note(_ path: [String], _ message: String) {
        problems.append(Problem(key: ConfigReader.dotted(path), message: message))
    }

    /// Notes the keys of the table at `path` that are not `known`, suggesting a near one.
    func unknownKeys(_ keys: [String], at path: [String], known: [String], hint: String?) {
        for key in keys where !known.contains(key) {
            var message = "unknown key \(ConfigReader.quoted(key))"
            if !path.isEmpty { message += " in \(ConfigReader.table(path))" }
            if let near = ConfigReader.nearest(to: key, in: known) {
                message += " (did you mean \"\(near)\"?)"
            } else if let hint {
                message += " (\(hint))"
            }
            note(path + [key], message)
        }
    }

    /// The value written at `path`, as TOMLKit parsed it.
    func value(at path: [String]) -> TOMLValueConvertible? {
        var current: TOMLValueConvertible = table
        for key in path {
            guard let next = current.table?[key] else { return nil }
            current = next
        }
        return current
    }

    /// The keys of the table at `path` in the order the file writes them: TOMLKit hands a
    /// table's keys back sorted, so where order matters (`[formats]`, first match wins)
    /// it is found from the text's lines, and only when there are keys to order.
    func keysInFileOrder(at path: [String]) -> [String] {
        let keys = value(at: path)?.table?.keys ?? []
        guard keys.count > 1 else { return keys }
        let lines = TOMLKeyLines(source)
        return keys.map { ($0, lines.line(of: ConfigReader.dotted(path + [$0])) ?? .max) }
            .enumerated()
            .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map(\.element.0)
    }

    // MARK: - Values

    /// Whether `text` is a URL template a URL source can use: http(s). It need not hold
    /// `{query}` (a POST body or a cached list carries none:
    /// docs/directories.md, "Directory URLs: `--directory-url URL`").
    static func isURLTemplate(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// An age such as `45s`, `30m`, `1h`, `2d`.
    static func age(_ text: String) -> Duration? {
        let trimmed = text.trimmed()
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

    // MARK: - Naming keys and values

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
        "\"" + text.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
    }

    /// A value as a message shows it: the value itself when short, else its kind.
    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string:
            let text = value.string ?? ""
            let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return quoted(short.replacingEvery("\n", with: "\\n"))
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
        let typed = Array(key.lowercased().replacingEvery("-", with: "_"))
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

/// Any key of a TOML table, to list the keys a `CodingKey` enum does not know.
struct AnyConfigKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key: CaseIterable {
    /// The value at `key` when it decodes as a `T` that `accept` takes; otherwise the
    /// problem is noted (`"key" must be EXPECTED (found …)`) and the answer is nil.
    func setting<T: Decodable>(_ key: Key, _ expected: String, _ reader: ConfigReader,
                               accept: (T) -> Bool = { _ in true }) -> T? {
        guard contains(key) else { return nil }
        if let value = try? decode(T.self, forKey: key), accept(value) { return value }
        reader.fail(codingPath.map(\.stringValue) + [key.stringValue], expected)
        return nil
    }

    /// Notes every key of this table that `Key` does not name.
    func noteUnknownKeys(_ reader: ConfigReader, hint: String? = nil) {
        let path = codingPath.map(\.stringValue)
        let written = reader.value(at: path)?.table?.keys ?? []
        reader.unknownKeys(written, at: path, known: Key.allCases.map(\.stringValue), hint: hint)
    }
}
