/// The one JSON writer: everything atpad writes as JSON — the `json`, `matrix` and `adf`
/// formats, the commands' `--json` lines, request bodies, the list cache and the frecency
/// file — goes through it, strings escaped by the one escaper (`JSONText`).
///
/// A writer appends to UTF-8 bytes as it goes. Callers either hand it a whole `JSONValue`
/// (``value(_:)``, ``text(_:layout:)``) or, where a document is too large to build as a
/// value first (a 10 MB comment), write it piece by piece: ``object(_:)`` and ``array(_:)``
/// open a container for their closure, ``key(_:)`` names the member whose value is written
/// next, and the scalar methods write values. Commas, colons, line breaks and indents are
/// the writer's business alone, so every output of one ``Layout`` is spaced the same.
public struct JSONWriter {
    /// Where the writer puts spaces and line breaks between items.
    public struct Layout: Sendable, Equatable {
        /// Containers nested less deep than this (the outermost is 0) have one item a line.
        let lineDepth: Int
        /// Spaces before an item per level, in containers written one item a line.
        let indent: Int
        /// Whether `, ` and `: ` have a space after them.
        let spaced: Bool

        /// `{"a":1,"b":[2,3]}`: what only a program reads (a URL source's request body, LDIF
        /// made JSON for a mapping).
        public static let compact = Layout(lineDepth: 0, indent: 0, spaced: false)
        /// `{"a": 1, "b": [2, 3]}`: the formats and what the commands print, one line each.
        public static let spaced = Layout(lineDepth: 0, indent: 0, spaced: true)

        /// Containers nested less than `depth` deep one item a line, indented by `indent`
        /// spaces a level (an empty one stays `{}`), deeper ones spaced on one line: files
        /// a person may read or diff, one entry a line.
        public static func lines(depth: Int, indent: Int) -> Layout {
            Layout(lineDepth: depth, indent: indent, spaced: true)
        }
    }

    /// What has been written.
    public private(set) var bytes: [UInt8]
    public let layout: Layout

    /// How many containers are open.
    private var depth = 0
    /// Whether the open container has no item yet.
    private var isFirst = true
    /// Whether a key was just written, so the next value follows its colon.
    private var afterKey = false

    /// A writer with room for `capacity` bytes.
    public init(layout: Layout = .spaced, capacity: Int = 0) {
        self.layout = layout
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// `value` as JSON text in `layout`.
    public static func text(_ value: JSONValue, layout: Layout = .spaced) -> String {
        String(decoding: utf8(value, layout: layout), as: UTF8.self)
    }

    /// `value` as JSON text in `layout`, as UTF-8 bytes.
    public static func utf8(_ value: JSONValue, layout: Layout = .spaced) -> [UInt8] {
        var writer = JSONWriter(layout: layout)
        writer.value(value)
        return writer.bytes
    }

    /// What `write` writes, as text.
    public static func text(layout: Layout = .spaced, _ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(layout: layout)
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: Values

    /// Writes `value` (the offsets a read value keeps play no part).
    public mutating func value(_ value: JSONValue) {
        switch value.kind {
        case .object(let members):
            object { writer in
                for member in members {
                    writer.key(string: member.key)
                    writer.value(member.value)
                }
            }
        case .array(let elements):
            array { writer in
                for element in elements { writer.value(element) }
            }
        case .string(let text): string(text)
        case .number(let literal): number(literal: literal)
        case .bool(let flag): bool(flag)
        case .null: null()
        }
    }

    /// Writes an object whose members `body` writes (each a ``key(_:)`` and a value).
    public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        try container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) throws -> Void) rethrows {
        try container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// Names the member of the open object whose value is written next. Keys written piece
    /// by piece are the code's own words, so a `StaticString`: no `String` is made for each
    /// of the seven keys of each of a comment's 100,000 mentions.
    public mutating func key(_ name: StaticString) {
        beginItem()
        name.withUTF8Buffer { name in
            // The code's own words: none needs an escape.
            assert(!name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name)
        }
        append(layout.spaced ? "\": " : "\":")
        afterKey = true
    }

    /// A key that is data (a member of a `JSONValue`).
    private mutating func key(string name: String) {
        beginItem()
        JSONText.appendQuoted(name, to: &bytes)
        writeColon()
    }

    private mutating func writeColon() {
        append(layout.spaced ? ": " : ":")
        afterKey = true
    }

    /// Writes a string.
    public mutating func string(_ text: String) {
        beginItem()
        JSONText.appendQuoted(text, to: &bytes)
    }

    /// Writes the UTF-8 text `utf8` as a string (for text built as bytes, not copied into
    /// a `String` first).
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        beginItem()
        JSONText.appendQuoted(utf8, to: &bytes)
    }

    /// Writes a string, or null for nil.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// Writes an integer in decimal.
    public mutating func number(_ n: Int) {
        beginItem()
        // Formed in a small stack buffer: a comment's json has seven numbers a mention.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = n.magnitude
            var k = digits.count
            repeat {
                k -= 1
                digits[k] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if n < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[k...]))
        }
    }

    /// Writes a number literal as it is (one read, or Swift's `description` of a finite
    /// `Double`, which is valid JSON).
    public mutating func number(literal: String) {
        beginItem()
        bytes.append(contentsOf: literal.utf8)
    }

    public mutating func bool(_ flag: Bool) {
        beginItem()
        append(flag ? "true" : "false")
    }

    public mutating func null() {
        beginItem()
        append("null")
    }

    /// Writes `json`, a whole value this writer wrote in the same layout (a format's
    /// output carried inside a request body), as it is.
    public mutating func raw(_ json: [UInt8]) {
        beginItem()
        bytes.append(contentsOf: json)
    }

    // MARK: Layout

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONWriter) throws -> Void) rethrows {
        beginItem()
        bytes.append(open)
        depth += 1
        isFirst = true
        try body(&self)
        let hadItems = !isFirst
        if hadItems, breaksLines { newline(indentLevel: depth - 1) }
        depth -= 1
        bytes.append(close)
        // The container just closed is an item of the one around it.
        isFirst = false
    }

    /// Whether the open container has one item a line.
    private var breaksLines: Bool { depth <= layout.lineDepth }

    /// The separator before an item: none after a key or before the first item, then a
    /// comma, and a line break and indent where the container has one item a line.
    @inline(__always)
    private mutating func beginItem() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if !isFirst {
            append(layout.spaced && !breaksLines ? ", " : ",")
        }
        if breaksLines { newline(indentLevel: depth) }
        isFirst = false
    }

    private mutating func newline(indentLevel: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentLevel * layout.indent))
    }

    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
