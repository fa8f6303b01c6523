import AtpadCore
import Foundation

/// A directory file that cannot be used, described in one line: the file, the line and
/// what is wrong (`people.json:12: entry 4 has no "name"`).
public struct DirectoryError: Error, CustomStringConvertible, LocalizedError, Equatable, Sendable {
    /// The file as it was named.
    public var path: String
    /// The 1-based line of the problem, when there is one (not for an unreadable file).
    public var line: Int?
    /// What is wrong, without the location.
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        // One line of visible text, always: the app prints this as the first line on
        // stderr, so control characters from the file are shown as escapes.
        var oneLine = ""
        for scalar in message.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                oneLine += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                oneLine.unicodeScalars.append(scalar)
            }
        }
        if let line { return "\(path):\(line): \(oneLine)" }
        return "\(path): \(oneLine)"
    }

    public var errorDescription: String? { description }
}

/// Reads directory files: a JSON array of entities (SPEC §8 "Directory entity").
///
/// `{"id": "u42", "name": "John Doe", "handle": "jdoe", "detail": "iOS engineer", "url": "…"}`:
/// `id` (a string, or an integer taken as its decimal digits) and `name` are required and
/// non-empty; `handle`, `detail` and `url` are strings or null (an empty string counts as
/// absent); other keys are ignored. An empty file or `[]` is an empty directory. A UTF-8
/// byte order mark is skipped.
public enum DirectoryFile {
    /// Loads the entities of the JSON array file at `path`.
    public static func load(path: String) throws -> [Entity] {
        try entities(fromJSON: read(path), path: path)
    }

    /// Loads the entities of the JSON array file at a file URL.
    public static func load(contentsOf url: URL) throws -> [Entity] {
        try load(path: url.path)
    }

    /// Parses a JSON array of entities; `path` only names the file in errors.
    public static func entities(fromJSON data: [UInt8], path: String) throws -> [Entity] {
        var start = 0
        if data.count >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { start = 3 }
        let fail = { (offset: Int, message: String) in
            DirectoryError(path: path, line: lineNumber(in: data, at: offset), message: message)
        }
        if let bad = UTF8Validation.firstInvalidByte(in: data, from: start) {
            throw fail(bad, "not valid UTF-8 (byte 0x\(String(data[bad], radix: 16, uppercase: true)) at offset \(bad))")
        }
        return try data.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, offset: start)
            do {
                return try readEntities(&reader, fail: fail)
            } catch let error as JSONSyntaxError {
                throw fail(error.offset, "not valid JSON: \(error.message)")
            }
        }
    }

    // MARK: - Entities

    private static func readEntities(
        _ reader: inout JSONReader,
        fail: (Int, String) -> DirectoryError
    ) throws -> [Entity] {
        reader.skipWhitespace()
        guard let first = reader.peek() else { return [] }
        guard first == UInt8(ascii: "[") else {
            let found = first == UInt8(ascii: "{") ? "an object" : "something else"
            throw fail(reader.offset, "expected a JSON array of entities, found \(found)")
        }
        reader.offset += 1
        var entities: [Entity] = []
        reader.skipWhitespace()
        var closed = reader.peek() == UInt8(ascii: "]")
        if closed { reader.offset += 1 }
        while !closed {
            reader.skipWhitespace()
            let value = try reader.readValue()
            // Checked as soon as it is read, so the first bad entry is the one reported.
            entities.append(try entity(from: value, number: entities.count + 1, fail: fail))
            reader.skipWhitespace()
            switch reader.peek() {
            case UInt8(ascii: ","):
                reader.offset += 1
                reader.skipWhitespace()
                if reader.peek() == UInt8(ascii: "]") {
                    throw JSONSyntaxError(offset: reader.offset, message: "trailing comma before ']'")
                }
            case UInt8(ascii: "]"):
                reader.offset += 1
                closed = true
            case nil:
                throw JSONSyntaxError(offset: reader.offset, message: "the array is not closed (missing ']')")
            default:
                throw JSONSyntaxError(
                    offset: reader.offset,
                    message: "expected ',' or ']' after entry \(entities.count), found \(reader.describe(at: reader.offset))"
                )
            }
        }
        reader.skipWhitespace()
        if reader.peek() != nil {
            throw JSONSyntaxError(offset: reader.offset, message: "unexpected text after the array")
        }
        return entities
    }

    /// The known fields of one entry; a struct rather than a dictionary because hashing
    /// keys dominated loading a million entries.
    private struct Fields {
        var id, name, handle, detail, url: JSONValue?

        subscript(key: String) -> JSONValue? {
            get {
                switch key {
                case "id": id
                case "name": name
                case "handle": handle
                case "detail": detail
                case "url": url
                default: nil
                }
            }
            set {
                switch key {
                case "id": id = newValue
                case "name": name = newValue
                case "handle": handle = newValue
                case "detail": detail = newValue
                case "url": url = newValue
                default: break
                }
            }
        }

        static func isKnown(_ key: String) -> Bool {
            switch key {
            case "id", "name", "handle", "detail", "url": true
            default: false
            }
        }
    }

    private static func entity(
        from value: JSONValue,
        number: Int,
        fail: (Int, String) -> DirectoryError
    ) throws -> Entity {
        guard case .object(let members) = value.kind else {
            throw fail(value.offset, "entry \(number) is not an object but \(value.kind.noun)")
        }
        var found = Fields()
        for member in members where Fields.isKnown(member.key) {
            if found[member.key] != nil {
                throw fail(member.value.offset, "entry \(number) has \"\(member.key)\" twice")
            }
            found[member.key] = member.value
        }

        let id: String
        switch found["id"]?.kind {
        case nil:
            throw fail(value.offset, "entry \(number) has no \"id\"")
        case .string(let text):
            guard !text.isEmpty else { throw fail(found["id"]!.offset, "entry \(number) has an empty \"id\"") }
            id = text
        case .number(let literal) where literal.allSatisfy({ $0 == "-" || $0.isASCII && $0.isNumber }):
            id = literal
        case .some(let kind):
            throw fail(found["id"]!.offset, "entry \(number): \"id\" must be a string or an integer, not \(kind.noun)")
        }

        let name: String
        switch found["name"]?.kind {
        case nil:
            throw fail(value.offset, "entry \(number) has no \"name\"")
        case .string(let text):
            guard text.contains(where: { !$0.isWhitespace }) else {
                throw fail(found["name"]!.offset, "entry \(number) has an empty \"name\"")
            }
            name = text
        case .some(let kind):
            throw fail(found["name"]!.offset, "entry \(number): \"name\" must be a string, not \(kind.noun)")
        }

        func optional(_ key: String) throws -> String? {
            guard let field = found[key] else { return nil }
            switch field.kind {
            case .null: return nil
            case .string(let text): return text.isEmpty ? nil : text
            default: throw fail(field.offset, "entry \(number): \"\(key)\" must be a string or null, not \(field.kind.noun)")
            }
        }
        return Entity(
            id: id,
            name: name,
            handle: try optional("handle"),
            detail: try optional("detail"),
            url: try optional("url")
        )
    }

    // MARK: - Bytes

    private static func read(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DirectoryError(path: path, line: nil, message: "no such file")
        }
        if isDirectory.boolValue {
            throw DirectoryError(path: path, line: nil, message: "is a folder, not a directory file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DirectoryError(path: path, line: nil, message: "cannot be read (permission denied?)")
        }
        return [UInt8](data)
    }

    /// The 1-based line of byte `offset`: one more than the line feeds before it (a lone
    /// carriage return also ends a line).
    static func lineNumber(in bytes: [UInt8], at offset: Int) -> Int {
        var line = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
            }
            index += 1
        }
        return line
    }

}

// MARK: - A small JSON reader that knows where things are

/// A JSON value and the byte offset where it starts (so errors can name its line).
struct JSONValue {
    enum Kind {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        /// The literal as written, validated against the JSON number grammar.
        case number(String)
        case bool(Bool)
        case null

        /// How an error names a value of this kind.
        var noun: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number(let literal): "the number \(literal)"
            case .bool(let value): value ? "true" : "false"
            case .null: "null"
            }
        }
    }

    let kind: Kind
    let offset: Int
}

/// A syntax error at a byte offset.
struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
}

/// Reads JSON (RFC 8259) from already validated UTF-8. Written here rather than using
/// JSONSerialization because errors must name the line, and entries must keep their
/// positions for the errors found after parsing.
///
/// Lenient in one way: control characters other than line breaks are accepted raw inside
/// strings (kept as data); a raw line break in a string is reported, since it almost
/// always means a missing closing quote.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int

    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 200

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func readValue(depth: Int = 0) throws -> JSONValue {
        guard depth < Self.maximumDepth else {
            throw JSONSyntaxError(offset: offset, message: "nested more than \(Self.maximumDepth) levels deep")
        }
        let start = offset
        guard let byte = peek() else {
            throw JSONSyntaxError(offset: offset, message: "unexpected end of file, expected a value")
        }
        switch byte {
        case UInt8(ascii: "{"): return JSONValue(kind: try readObject(depth: depth), offset: start)
        case UInt8(ascii: "["): return JSONValue(kind: try readArray(depth: depth), offset: start)
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try readString()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return JSONValue(kind: .number(try readNumber()), offset: start)
        case UInt8(ascii: "t"): try readWord("true"); return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try readWord("false"); return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try readWord("null"); return JSONValue(kind: .null, offset: start)
        default:
            throw JSONSyntaxError(offset: offset, message: "unexpected \(describe(at: offset)), expected a value")
        }
    }

    private mutating func readObject(depth: Int) throws -> JSONValue.Kind {
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(offset: offset, message: "expected a quoted key, found \(describe(at: offset))")
            }
            let key = try readString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw JSONSyntaxError(offset: offset, message: "expected ':' after the key \"\(key)\"")
            }
            offset += 1
            skipWhitespace()
            members.append((key, try readValue(depth: depth + 1)))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    throw JSONSyntaxError(offset: offset, message: "trailing comma before '}'")
                }
            case UInt8(ascii: "}"):
                offset += 1
                return .object(members)
            default:
                throw JSONSyntaxError(offset: offset, message: "expected ',' or '}' after \"\(key)\", found \(describe(at: offset))")
            }
        }
    }

    private mutating func readArray(depth: Int) throws -> JSONValue.Kind {
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    throw JSONSyntaxError(offset: offset, message: "trailing comma before ']'")
                }
            case UInt8(ascii: "]"):
                offset += 1
                return .array(elements)
            default:
                throw JSONSyntaxError(offset: offset, message: "expected ',' or ']' in an array, found \(describe(at: offset))")
            }
        }
    }

    private mutating func readString() throws -> String {
        let start = offset
        offset += 1
        // Fast path: no escapes, so the bytes are the string.
        var scan = offset
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset ..< scan]), as: UTF8.self)
                offset = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D { break }
            scan += 1
        }
        var utf8: [UInt8] = Array(bytes[offset ..< scan])
        offset = scan
        while true {
            guard let byte = peek() else {
                throw JSONSyntaxError(offset: start, message: "unterminated string")
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: utf8, as: UTF8.self)
            case 0x0A, 0x0D:
                throw JSONSyntaxError(offset: start, message: "line break inside a string (is a closing quote missing?)")
            case UInt8(ascii: "\\"):
                try readEscape(into: &utf8)
            default:
                utf8.append(byte)
                offset += 1
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws {
        let escapeStart = offset
        offset += 1
        guard let byte = peek() else {
            throw JSONSyntaxError(offset: escapeStart, message: "unterminated string")
        }
        offset += 1
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw JSONSyntaxError(offset: escapeStart, message: "invalid escape \\\(describe(at: escapeStart + 1, quoted: false))")
        }
        if let simple {
            utf8.append(simple)
            return
        }
        var value = try readHex4(escapeStart)
        if (0xD800 ... 0xDBFF).contains(value) {
            // A high surrogate must be followed by an escaped low one.
            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                throw JSONSyntaxError(offset: escapeStart, message: "\\u escape is half a surrogate pair")
            }
            offset += 2
            let low = try readHex4(escapeStart)
            guard (0xDC00 ... 0xDFFF).contains(low) else {
                throw JSONSyntaxError(offset: escapeStart, message: "\\u escape is half a surrogate pair")
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00 ... 0xDFFF).contains(value) {
            throw JSONSyntaxError(offset: escapeStart, message: "\\u escape is half a surrogate pair")
        }
        utf8.append(contentsOf: String(Character(Unicode.Scalar(value)!)).utf8)
    }

    private mutating func readHex4(_ escapeStart: Int) throws -> UInt32 {
        guard offset + 4 <= bytes.count else {
            throw JSONSyntaxError(offset: escapeStart, message: "\\u needs four hex digits")
        }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(offset: escapeStart, message: "\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func readNumber() throws -> String {
        let start = offset
        func digits() -> Int {
            let first = offset
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
            return offset - first
        }
        let invalid = { (reader: JSONReader) in
            JSONSyntaxError(offset: start, message: "invalid number \(reader.describe(at: start))")
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
            if let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { throw invalid(self) }
        } else if digits() == 0 {
            throw invalid(self)
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            if digits() == 0 { throw invalid(self) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            if digits() == 0 { throw invalid(self) }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< offset]), as: UTF8.self)
    }

    private mutating func readWord(_ word: String) throws {
        let start = offset
        for byte in word.utf8 {
            guard peek() == byte else {
                throw JSONSyntaxError(offset: start, message: "unexpected \(describe(at: start)), expected a value")
            }
            offset += 1
        }
    }

    /// A short, one-line quotation of the text at `at` for an error message.
    func describe(at position: Int, quoted: Bool = true) -> String {
        guard position < bytes.count else { return "end of file" }
        var end = position
        while end < bytes.count, end - position < 12 {
            let byte = bytes[end]
            if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") && end > position { break }
            end += 1
        }
        // Do not cut a multi-byte character in half.
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position ..< end]), as: UTF8.self)
        return quoted ? "'\(text)'" : text
    }
}

// MARK: - One entity on its own (a line printed by a directory command)

extension DirectoryFile {
    /// Parses `bytes` as one JSON object entity; `path` and `line` locate it in errors and
    /// `number` names it (`entry 3 has no "name"`). Errors are ``DirectoryError``s.
    static func entity(fromJSONLine bytes: [UInt8], path: String, line: Int, number: Int) throws -> Entity {
        let fail = { (_: Int, message: String) in DirectoryError(path: path, line: line, message: message) }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw fail(bad, "not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at column \(bad + 1))")
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, offset: 0)
            do {
                reader.skipWhitespace()
                let value = try reader.readValue()
                reader.skipWhitespace()
                if reader.peek() != nil {
                    throw JSONSyntaxError(offset: reader.offset, message: "unexpected text after the entity")
                }
                return try entity(from: value, number: number, fail: fail)
            } catch let error as JSONSyntaxError {
                throw fail(error.offset, "not valid JSON: \(error.message)")
            }
        }
    }
}
