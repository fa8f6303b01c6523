import AtpadCore
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import Glibc
import TOMLKit

/// Why a theme could not be read: one line naming the file, and the line and key where
/// they are known (`mine.toml:4: [mention] foreground: unknown colour "cyna" …`).
public struct ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line in the file, when known.
    public var line: Int?
    /// 1-based column, for TOML syntax errors.
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, with what is unknown left out; always one line.
    public var description: String {
        let place = [line, line == nil ? nil : column].compactMap { $0 }.map { ":\($0)" }.joined()
        return "\(file)\(place): " + message.replacingEvery("\n", with: " ")
    }
}

/// Reading themes from TOML files: one table per role,
///
/// ```toml
/// [mention]
/// foreground = "cyan"          # a name, bright-NAME, "default", or 0–255
/// background = 4
/// attributes = ["bold", "underline"]
///
/// [mention.selected]           # a dotted role is a nested table, or a quoted key
/// attributes = ["reverse"]
/// ```
extension Theme {
    /// Reads a theme from TOML text; `file` names it in errors.
    public static func parse(_ source: String, file: String, name: String) throws(ThemeError) -> Theme {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: source)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            throw ThemeError(file: file, line: at.line, column: at.column, message: error.description)
        } catch {
            throw ThemeError(file: file, message: "not a TOML file: \(error)")
        }
        var reader = ThemeReader(lines: TOMLKeyLines(source), file: file)
        reader.read(table, path: nil)
        if let first = reader.errors.min(by: { ($0.line ?? .max) < ($1.line ?? .max) }) { throw first }
        return Theme(name: name, entries: reader.entries)
    }

    /// Reads the theme file at `url`; the theme is named for the file.
    public static func load(contentsOf url: URL) throws(ThemeError) -> Theme {
        let path = url.path
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path)
        } catch .missing {
            throw ThemeError(file: path, message: "no such theme file")
        } catch {
            throw ThemeError(file: path, message: "cannot read the theme file")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ThemeError(file: path, message: "the theme file is not UTF-8 text")
        }
        return try parse(text, file: path, name: url.deletingPathExtension().lastPathComponent)
    }

    /// Reads the theme called `name` (`name.toml`) from the first of `directories` that
    /// has it (for example the person's themes folder, then the bundled one); `default`
    /// is built in when no folder has it.
    public static func load(named name: String, in directories: [URL]) throws(ThemeError) -> Theme {
        for directory in directories {
            let url = directory.appendingPathComponent(name + ".toml")
            if FileManager.default.fileExists(atPath: url.path) { return try load(contentsOf: url) }
        }
        if name == defaultName { return builtInDefault }
        let known = Set(directories.flatMap(names(in:)) + [defaultName]).sorted()
        throw ThemeError(file: name + ".toml", message: "no theme named \"\(name)\""
            + (known.isEmpty ? "" : " (themes: \(known.joined(separator: ", ")))"))
    }

    /// Reads `--theme NAME|PATH`: a path when it has a `/` or ends in `.toml` (`~/` is the
    /// home folder), else a name looked up in `directories`.
    public static func load(_ nameOrPath: String, themesIn directories: [URL]) throws(ThemeError) -> Theme {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            let path = PathName.expandingTilde(nameOrPath, home: ProcessEnvironment.value("HOME"))
            return try load(contentsOf: URL(fileURLWithPath: path))
        }
        return try load(named: nameOrPath, in: directories)
    }

    /// The names of the themes in `directory` (its `.toml` files), sorted.
    public static func names(in directory: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }.sorted()
    }
}

/// Walks a parsed theme table into entries, collecting every error with its line.
private struct ThemeReader {
    let lines: TOMLKeyLines
    let file: String
    var entries: [Role: Theme.Entry] = [:]
    var errors: [ThemeError] = []

    static let colorNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
    static let colorHelp = "use a colour name (black red green yellow blue magenta cyan white, bright-NAME), "
        + "\"default\", or a number 0–255"

    mutating func read(_ table: TOMLTable, path: String?) {
        for key in table.keys {
            guard let value = table[key] else { continue }
            let full = path.map { "\($0).\(key)" } ?? key
            if let sub = value.table {
                // `[markup.code]` is a table `markup` holding `code`: a group of roles.
                let isGroup = Role.allCases.contains { $0.rawValue.hasPrefix(full + ".") }
                guard Role(rawValue: full) != nil || isGroup else {
                    let roles = Role.allCases.map(\.rawValue).joined(separator: ", ")
                    fail(full, "unknown role \"\(full)\" (roles: \(roles))")
                    continue
                }
                read(sub, path: full)
                continue
            }
            guard let path, let role = Role(rawValue: path) else {
                fail(full, "\"\(full)\" is not a role table: write [ROLE] with foreground, background, attributes")
                continue
            }
            var entry = entries[role] ?? Theme.Entry()
            switch key {
            case "foreground": entry.foreground = color(value, at: full)
            case "background": entry.background = color(value, at: full)
            case "attributes": entry.attributes = attributes(value, at: full)
            default:
                fail(full, "[\(path)] \(key): unknown key (a role has foreground, background, attributes)")
            }
            entries[role] = entry
        }
    }

    private mutating func color(_ value: TOMLValueConvertible, at path: String) -> Theme.Color? {
        let (role, key) = split(path)
        if let n = value.int {
            guard (0...255).contains(n) else {
                fail(path, "[\(role)] \(key): colour \(n) is out of range (0–255)")
                return nil
            }
            return .indexed(n)
        }
        guard let text = value.string else {
            fail(path, "[\(role)] \(key): expected a colour, found a \(value.type); " + ThemeReader.colorHelp)
            return nil
        }
        let name = text.lowercased()
        if name == "default" { return .terminalDefault }
        if let i = ThemeReader.colorNames.firstIndex(of: name) { return .indexed(i) }
        if name.hasPrefix("bright-"), let i = ThemeReader.colorNames.firstIndex(of: String(name.dropFirst(7))) {
            return .indexed(i + 8)
        }
        fail(path, "[\(role)] \(key): unknown colour \"\(text)\"; " + ThemeReader.colorHelp)
        return nil
    }

    private mutating func attributes(_ value: TOMLValueConvertible, at path: String) -> Set<Theme.Attribute>? {
        let (role, key) = split(path)
        let names = Theme.Attribute.allCases.map(\.rawValue).joined(separator: ", ")
        guard let array = value.array else {
            fail(path, "[\(role)] \(key): expected an array of attribute names (\(names))")
            return nil
        }
        var set = Set<Theme.Attribute>()
        for element in array {
            guard let text = element.string, let attribute = Theme.Attribute(rawValue: text.lowercased()) else {
                fail(path, "[\(role)] \(key): unknown attribute \(element.string.map { "\"\($0)\"" } ?? "\(element)") (use \(names))")
                return nil
            }
            set.insert(attribute)
        }
        return set
    }

    private func split(_ path: String) -> (role: String, key: String) {
        guard let dot = path.lastIndex(of: ".") else { return ("", path) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    private mutating func fail(_ path: String, _ message: String) {
        errors.append(ThemeError(file: file, line: lines.line(of: path), message: message))
    }
}
