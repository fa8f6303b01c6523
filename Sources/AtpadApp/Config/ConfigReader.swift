import AtpadCore
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import Glibc
import TOMLKit

/// What ``Config``'s `Decodable` conformance needs besides what every TOML file's reading
/// has (``TOMLReader``: the parsed table, to show a wrong value as it was written, and the
/// problems found): how paths written in the config resolve.
final class ConfigReader: TOMLReader {
    let paths: ConfigPaths

    init(table: TOMLTable, paths: ConfigPaths, source: String = "") {
        self.paths = paths
        super.init(table: table, source: source)
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

    static let triggerList = EditorConfig.triggerSet.map { String($0) }.joined(separator: " ")
}
