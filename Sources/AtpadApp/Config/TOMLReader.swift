import AtpadCore
import FoundationEssentials
import Glibc
import TOMLKit

/// The one way atpad reads its TOML files, the config (``Config``) and themes
/// (``ThemeFile``): the text is checked and parsed into a table, the table is decoded with
/// TOMLKit's `TOMLDecoder` into `Decodable` types that find the reader in the decoder's
/// `userInfo`, and whatever is wrong is noted here rather than thrown.
///
/// Decoding never stops at a problem: each one is noted with its dotted key and the value
/// is left unset, so ``decode(_:whole:)`` can report the one that comes first in the file,
/// with its line (``TOMLKeyLines``), whatever order TOMLKit lists keys in.
class TOMLReader {
    /// A problem found in the table: the dotted key it is about, and what is wrong.
    struct Problem: Equatable {
        var key: String
        var message: String
    }

    let table: TOMLTable
    /// The text the table was parsed from, read again only to find where keys are written.
    let source: String
    private(set) var problems: [Problem] = []

    /// Where a decoder finds its reader.
    static let userInfoKey = CodingUserInfoKey(rawValue: "atpad.tomlReader")!

    init(table: TOMLTable, source: String) {
        self.table = table
        self.source = source
    }

    /// The reader a decoder was given (by ``decode(_:whole:)``, the only place atpad's
    /// TOML types are decoded).
    static func of(_ decoder: any Decoder) -> Self {
        decoder.userInfo[userInfoKey] as! Self
    }

    // MARK: - Reading a file

    /// `bytes` as text: UTF-8 without a NUL (TOMLKit hands the text to its parser as a C
    /// string, which would end at one).
    static func text(of bytes: [UInt8]) throws(TOMLFileProblem) -> String {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw TOMLFileProblem(line: line(ofByte: bad, in: bytes), message: "not valid UTF-8 text")
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw TOMLFileProblem(line: line(ofByte: nul, in: bytes), message: "syntax error: a NUL character")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `source` parsed; a syntax error names its line and column.
    static func table(_ source: String) throws(TOMLFileProblem) -> TOMLTable {
        do {
            return try TOMLTable(string: source)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            throw TOMLFileProblem(line: at.line, column: at.column, message: "syntax error: " + error.description)
        } catch {
            throw TOMLFileProblem(message: "syntax error: \(error)")
        }
    }

    /// The table decoded as a `T` with this reader; when anything was noted, the problem
    /// that comes first in the file instead, with its line. `whole` says what is wrong
    /// when decoding failed without a note.
    func decode<T: Decodable>(_ type: T.Type, whole: String) throws(TOMLFileProblem) -> T {
        var decoder = TOMLDecoder()
        decoder.userInfo[TOMLReader.userInfoKey] = self
        let value = try? decoder.decode(type, from: table)
        if let value, problems.isEmpty { return value }
        // Lines are looked for only now: a good file costs no second reading.
        let lines = TOMLKeyLines(source)
        let found = problems.map { problem in
            TOMLFileProblem(line: lines.line(of: problem.key), key: problem.key, message: problem.message)
        }
        throw found.min { ($0.line ?? .max) < ($1.line ?? .max) } ?? TOMLFileProblem(message: whole)
    }

    private static func line(ofByte offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    // MARK: - Noting problems

    /// `"key" must be EXPECTED (found VALUE)`, about the value at `path`.
    func fail(_ path: [String], _ expected: String) {
        let found = value(at: path).map(TOMLReader.describe) ?? "nothing"
        note(path, "\(TOMLReader.subject(path)) \(expected) (found \(found))")
    }

    func note(_ path: [String], _ message: String) {
        problems.append(Problem(key: TOMLReader.dotted(path), message: message))
    }

    /// Notes the keys of the table at `path` that are not `known`, suggesting a near one.
    func unknownKeys(_ keys: [String], at path: [String], known: [String], hint: String?) {
        for key in keys where !known.contains(key) {
            var message = "unknown key \(TOMLReader.quoted(key))"
            if !path.isEmpty { message += " in \(TOMLReader.table(path))" }
            if let near = TOMLReader.nearest(to: key, in: known) {
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
        return keys.map { ($0, lines.line(of: TOMLReader.dotted(path + [$0])) ?? .max) }
            .enumerated()
            .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
            .map(\.element.0)
    }

    // MARK: - Naming keys and values

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

/// What is wrong with a TOML file and where, before it becomes the ``ConfigError`` or
/// ``ThemeError`` that names the file.
struct TOMLFileProblem: Error, Equatable {
    /// 1-based line, when known.
    var line: Int?
    /// 1-based column, for syntax errors.
    var column: Int?
    /// The dotted key the problem is about, when there is one.
    var key: String?
    var message: String

    init(line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// The one line both errors print: `file:line:column: message`, with what is unknown
    /// left out (a column only after a line, the place when there is no file).
    static func description(file: String, line: Int?, column: Int?, message: String) -> String {
        let place = file + [line, line == nil ? nil : column].compactMap { $0 }.map { ":\($0)" }.joined()
        let text = message.replacingEvery("\r", with: " ").replacingEvery("\n", with: " ")
        return place.isEmpty ? text : "\(place): \(text)"
    }
}

/// Any key of a TOML table, to list the keys a `CodingKey` enum does not know (a table
/// of triggers, of patterns, of theme roles).
struct AnyTOMLKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key: CaseIterable {
    /// The value at `key` when it decodes as a `T` that `accept` takes; otherwise the
    /// problem is noted (`"key" must be EXPECTED (found …)`) and the answer is nil.
    func setting<T: Decodable>(_ key: Key, _ expected: String, _ reader: TOMLReader,
                               accept: (T) -> Bool = { _ in true }) -> T? {
        guard contains(key) else { return nil }
        if let value = try? decode(T.self, forKey: key), accept(value) { return value }
        reader.fail(codingPath.map(\.stringValue) + [key.stringValue], expected)
        return nil
    }

    /// Notes every key of this table that `Key` does not name, but for those `except`
    /// takes (a theme role's nested roles).
    func noteUnknownKeys(_ reader: TOMLReader, hint: String? = nil, except: (String) -> Bool = { _ in false }) {
        let path = codingPath.map(\.stringValue)
        let written = (reader.value(at: path)?.table?.keys ?? []).filter { !except($0) }
        reader.unknownKeys(written, at: path, known: Key.allCases.map(\.stringValue), hint: hint)
    }
}
