import AtpadCore
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import Glibc
import TOMLKit

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
    /// Reads a theme from TOML text; `file` names it in errors. The text is read as the
    /// config's is (``TOMLReader``): decoded as a ``ThemeFile``, the first problem in the
    /// file reported with its line.
    public static func parse(_ source: String, file: String, name: String) throws(ThemeError) -> Theme {
        do {
            let reader = TOMLReader(table: try TOMLReader.table(source), source: source)
            return Theme(name: name, entries: try reader.decode(ThemeFile.self, whole: "not a theme table").entries)
        } catch {
            throw ThemeError(file: file, error)
        }
    }

    /// Reads the theme file at `url`, checking it is UTF-8 text first; the theme is named
    /// for the file.
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
        let source: String
        do {
            source = try TOMLReader.text(of: bytes)
        } catch {
            throw ThemeError(file: path, error)
        }
        return try parse(source, file: path, name: url.deletingPathExtension().lastPathComponent)
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

/// A theme file as decoded: each table is a role (`[mention]`), a group of roles
/// (`[markup]`, holding `code`), or both (`[mention]`, holding `selected`); a dotted role
/// may also be a quoted key (`["mention.selected"]`) or an inline table. Decoded by
/// ``TOMLReader/decode(_:whole:)``, which gives it the reader its problems are noted in.
struct ThemeFile: Decodable {
    /// What the file says about each role.
    var entries: [Role: Theme.Entry] = [:]

    /// The keys of a role's table, besides the roles nested in it.
    enum StyleKeys: String, CodingKey, CaseIterable {
        case foreground, background, attributes
    }

    static let colorNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
    static let colorHelp = "use a colour name (black red green yellow blue magenta cyan white, bright-NAME), "
        + "\"default\", or a number 0–255"
    static let attributeNames = Theme.Attribute.allCases.map(\.rawValue).joined(separator: ", ")

    init(from decoder: any Decoder) throws {
        let reader = TOMLReader.of(decoder)
        let table = try decoder.container(keyedBy: AnyTOMLKey.self)
        let path = table.codingPath.map(\.stringValue)
        let role = path.isEmpty ? nil : Role(rawValue: ThemeFile.name(path))
        for key in table.allKeys {
            let at = path + [key.stringValue]
            let name = ThemeFile.name(at)
            if reader.value(at: at)?.table != nil {
                guard Role(rawValue: name) != nil || ThemeFile.isGroup(name) else {
                    reader.note(at, ThemeFile.unknownRole(name))
                    continue
                }
                if let nested = try? table.decode(ThemeFile.self, forKey: key) { merge(nested) }
            } else if role == nil {
                reader.note(at, "\"\(name)\" is not a role table: write [ROLE] with foreground, background, attributes")
            }
        }
        guard let role else { return }
        let style = try decoder.container(keyedBy: StyleKeys.self)
        style.noteUnknownKeys(reader, hint: "a role has foreground, background, attributes") { key in
            reader.value(at: path + [key])?.table != nil
        }
        guard StyleKeys.allCases.contains(where: style.contains) else { return }
        merge([role: Theme.Entry(foreground: style.color(.foreground, reader), background: style.color(.background, reader),
                                 attributes: style.attributes(reader))])
    }

    /// Takes what `other` sets, field by field (a role may be written twice: as
    /// `[mention.selected]` and as `["mention.selected"]`).
    private mutating func merge(_ other: ThemeFile) {
        merge(other.entries)
    }

    private mutating func merge(_ other: [Role: Theme.Entry]) {
        for (role, entry) in other {
            var merged = entries[role] ?? Theme.Entry()
            if let foreground = entry.foreground { merged.foreground = foreground }
            if let background = entry.background { merged.background = background }
            if let attributes = entry.attributes { merged.attributes = attributes }
            entries[role] = merged
        }
    }

    /// A role's name from its path: `mention.selected` however it is written.
    static func name(_ path: [String]) -> String {
        path.joined(separator: ".")
    }

    /// Whether `name` holds roles (`markup` holds `markup.code`).
    static func isGroup(_ name: String) -> Bool {
        Role.allCases.contains { $0.rawValue.hasPrefix(name + ".") }
    }

    /// `unknown role "mentoin"`, with the role it was most likely meant to be, else them all.
    static func unknownRole(_ name: String) -> String {
        let roles = Role.allCases.map(\.rawValue)
        if let near = TOMLReader.nearest(to: name, in: roles) {
            return "unknown role \"\(name)\" (did you mean \"\(near)\"?)"
        }
        return "unknown role \"\(name)\" (roles: \(roles.joined(separator: ", ")))"
    }
}

/// A colour as written: a number, or a name.
private enum WrittenColor: Decodable {
    case number(Int), name(String)

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Int.self) {
            self = .number(number)
        } else {
            self = .name(try single.decode(String.self))
        }
    }
}

/// One element of an `attributes` array: its text, nil when it is not a string.
private struct WrittenWord: Decodable {
    var text: String?

    init(from decoder: any Decoder) throws {
        text = try? decoder.singleValueContainer().decode(String.self)
    }
}

extension KeyedDecodingContainer where Key == ThemeFile.StyleKeys {
    /// `[mention.selected] foreground`, as a problem with the value at `key` starts.
    private func subject(_ key: Key) -> String {
        "[\(ThemeFile.name(codingPath.map(\.stringValue)))] \(key.stringValue)"
    }

    private func note(_ key: Key, _ reader: TOMLReader, _ message: String) {
        reader.note(codingPath.map(\.stringValue) + [key.stringValue], "\(subject(key)): \(message)")
    }

    /// The colour at `key`: a name, bright-NAME, `"default"`, or a number 0–255.
    func color(_ key: Key, _ reader: TOMLReader) -> Theme.Color? {
        guard contains(key) else { return nil }
        switch try? decode(WrittenColor.self, forKey: key) {
        case let .number(n)?:
            guard (0...255).contains(n) else {
                note(key, reader, "colour \(n) is out of range (0–255)")
                return nil
            }
            return .indexed(n)
        case let .name(text)?:
            let name = text.lowercased()
            if name == "default" { return .terminalDefault }
            if let i = ThemeFile.colorNames.firstIndex(of: name) { return .indexed(i) }
            if name.hasPrefix("bright-"), let i = ThemeFile.colorNames.firstIndex(of: String(name.dropFirst(7))) {
                return .indexed(i + 8)
            }
            note(key, reader, "unknown colour \(TOMLReader.quoted(text)); " + ThemeFile.colorHelp)
        case nil:
            let found = reader.value(at: codingPath.map(\.stringValue) + [key.stringValue]).map(TOMLReader.describe)
            note(key, reader, "expected a colour, found \(found ?? "nothing"); " + ThemeFile.colorHelp)
        }
        return nil
    }

    /// The attributes at `.attributes`: an array of their names, perhaps empty.
    func attributes(_ reader: TOMLReader) -> Set<Theme.Attribute>? {
        guard contains(.attributes) else { return nil }
        guard let words = try? decode([WrittenWord].self, forKey: .attributes) else {
            note(.attributes, reader, "expected an array of attribute names (\(ThemeFile.attributeNames))")
            return nil
        }
        var set = Set<Theme.Attribute>()
        for (i, word) in words.enumerated() {
            guard let text = word.text, let attribute = Theme.Attribute(rawValue: text.lowercased()) else {
                let element = reader.value(at: codingPath.map(\.stringValue) + ["attributes"])?.array?[i]
                let found = word.text.map(TOMLReader.quoted) ?? element.map(TOMLReader.describe) ?? "element \(i + 1)"
                note(.attributes, reader, "unknown attribute \(found) (use \(ThemeFile.attributeNames))")
                return nil
            }
            set.insert(attribute)
        }
        return set
    }
}
