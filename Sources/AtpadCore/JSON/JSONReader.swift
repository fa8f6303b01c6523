// One JSON reader for the `json` document format and the directory files (which read
// entities straight from it in AtpadDirectory's JSONReader+Entity.swift).

/// A JSON value and the byte offset where it starts (so errors can name its line).
public struct JSONValue: Sendable {
    public enum Kind: Sendable {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        /// The literal as written, validated against the JSON number grammar.
        case number(String)
        case bool(Bool)
        case null

        /// How an error names a value of this kind.
        public var noun: String {
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

    public let kind: Kind
    /// The byte offset in the input where the value starts.
    public let offset: Int
}

/// A syntax error at a byte offset.
public struct JSONSyntaxError: Error, Sendable {
    /// The byte offset in the input where the problem is.
    public let offset: Int
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// Reads JSON (RFC 8259) from already validated UTF-8. Hand-written because the core has
/// no Foundation, and because errors must name the line: every value keeps its offset for
/// the errors found after parsing.
///
/// Lenient in one way: control characters other than line breaks are accepted raw inside
/// strings (kept as data); a raw line break in a string is reported, since it almost
/// always means a missing closing quote.
public struct JSONReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var offset: Int

    /// How errors name the end of the input: a whole file, or one line of NDJSON.
    public var endName = "end of file"

    /// A reader at `offset` in `bytes` (which must outlive it).
    public init(bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0, endName: String = "end of file") {
        self.bytes = bytes
        self.offset = offset
        self.endName = endName
    }

    /// Reads `bytes` as exactly one JSON value (whitespace around it allowed).
    public static func value(of bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.offset == bytes.count else {
            throw JSONSyntaxError(offset: reader.offset, message: "unexpected \(reader.describe(at: reader.offset)) after the value")
        }
        return value
    }

    /// The 1-based line of byte `offset` in `bytes`.
    public static func line(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for b in bytes[..<min(offset, bytes.count)] where b == 0x0A { line += 1 }
        return line
    }

    /// Nesting deeper than this is refused rather than risking the stack.
    public static let maximumDepth = 200

    // Inlinable: the directory loader calls these for every byte of a million entries
    // from another module.
    @inlinable
    public func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    @inlinable
    public mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    public mutating func readValue(depth: Int = 0) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else {
            throw JSONSyntaxError(offset: offset, message: "nested more than \(Self.maximumDepth) levels deep")
        }
        let start = offset
        guard let byte = peek() else {
            throw JSONSyntaxError(offset: offset, message: "unexpected \(endName), expected a value")
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

    private mutating func readObject(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
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
            if try endOfItem(closing: UInt8(ascii: "}"), "after \"\(key)\"") { return .object(members) }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
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
            if try endOfItem(closing: UInt8(ascii: "]"), "in an array") { return .array(elements) }
        }
    }

    /// After an element of an array or a member of an object: steps over the `,` before
    /// the next one and returns false, or over `close` and returns true. `place` ends the
    /// error message (`after "name"`, `in an array`); `unclosed`, when given, is the
    /// message for input that ends here.
    public mutating func endOfItem(closing close: UInt8, _ place: @autoclosure () -> String,
                                   unclosed: String? = nil) throws(JSONSyntaxError) -> Bool {
        let closeText = String(Character(Unicode.Scalar(close)))
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            offset += 1
            skipWhitespace()
            if peek() == close {
                throw JSONSyntaxError(offset: offset, message: "trailing comma before '\(closeText)'")
            }
            return false
        case close:
            offset += 1
            return true
        case nil where unclosed != nil:
            throw JSONSyntaxError(offset: offset, message: unclosed!)
        default:
            throw JSONSyntaxError(offset: offset, message: "expected ',' or '\(closeText)' \(place()), found \(describe(at: offset))")
        }
    }

    /// Reads a string (the reader is at its opening quote).
    public mutating func readString() throws(JSONSyntaxError) -> String {
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

    /// Steps over a string, checking its escapes, without making it (for values no one
    /// will read).
    public mutating func skipString() throws(JSONSyntaxError) {
        let start = offset
        offset += 1
        var ignored: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw JSONSyntaxError(offset: start, message: "unterminated string")
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case 0x0A, 0x0D:
                throw JSONSyntaxError(offset: start, message: "line break inside a string (is a closing quote missing?)")
            case UInt8(ascii: "\\"):
                try readEscape(into: &ignored)
                ignored.removeAll(keepingCapacity: true)
            default:
                offset += 1
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
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

    private mutating func readHex4(_ escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
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
    private mutating func readNumber() throws(JSONSyntaxError) -> String {
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

    private mutating func readWord(_ word: String) throws(JSONSyntaxError) {
        let start = offset
        for byte in word.utf8 {
            guard peek() == byte else {
                throw JSONSyntaxError(offset: start, message: "unexpected \(describe(at: start)), expected a value")
            }
            offset += 1
        }
    }

    /// A short, one-line quotation of the text at `at` for an error message.
    public func describe(at position: Int, quoted: Bool = true) -> String {
        guard position < bytes.count else { return endName }
        var end = position
        while end < bytes.count, end - position < 12 {
            let byte = bytes[end]
            if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") && end > position { break }
            end += 1
        }
        // Do not cut a multi-byte character in half.
        while end < bytes.count, UTF8Scan.isContinuation(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position ..< end]), as: UTF8.self)
        return quoted ? "'\(text)'" : text
    }
}
