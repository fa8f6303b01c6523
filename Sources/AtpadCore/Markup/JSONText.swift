/// The one JSON string escaper, so the core can write JSON without Foundation: `JSONWriter`
/// writes every string through it, and messages quote names with it.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    ///
    /// Escapes `"`, `\` and every control character: `\n`, `\t`, `\r`, `\b`, `\f` by name,
    /// the rest of U+0000–U+001F and U+007F as `\u00xx`. U+2028 and U+2029 are escaped too
    /// (`\u2028`, `\u2029`): they are valid in JSON but end lines in JavaScript and in some
    /// line-oriented readers, and a line of NDJSON must stay one line. Everything else is
    /// written as is (UTF-8).
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal (see `quote`) to UTF-8 output.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendQuoted($0, to: &out) }
    }

    /// Appends the UTF-8 text `bytes` as a JSON string literal, copying the stretches that
    /// need no escape whole.
    static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var copied = 0
        var i = 0
        while i < bytes.count {
            // Text rarely needs an escape: eight bytes at a time while none may.
            if bytes.count - i >= 8, !UTF8Scan.mayNeedJSONEscape(UTF8Scan.word(bytes, at: i)) {
                i += 8
                continue
            }
            let b = bytes[i]
            i += 1
            guard mayEscape(b) else { continue }
            let at = i - 1
            var escape: StaticString?
            var code: UInt32?
            switch b {
            case UInt8(ascii: "\""): escape = #"\""#
            case UInt8(ascii: "\\"): escape = #"\\"#
            case 0x0A: escape = #"\n"#
            case 0x09: escape = #"\t"#
            case 0x0D: escape = #"\r"#
            case 0x08: escape = #"\b"#
            case 0x0C: escape = #"\f"#
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                guard at + 2 < bytes.count, bytes[at + 1] == 0x80, bytes[at + 2] == 0xA8 || bytes[at + 2] == 0xA9 else { continue }
                code = bytes[at + 2] == 0xA8 ? 0x2028 : 0x2029
            default: code = UInt32(b)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied ..< at]))
            if let escape {
                escape.withUTF8Buffer { out.append(contentsOf: $0) }
                copied = at + 1
            } else if let code {
                appendUnicodeEscape(code, to: &out)
                copied = code > 0x7F ? at + 3 : at + 1
                i = copied
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `b` may need an escape: `"`, `\`, controls, DEL, and E2 (which starts
    /// U+2028 and U+2029, among others). Compared rather than looked up in a table: the
    /// writer quotes many short keys and ids, and a static table costs a lazy-initialisation
    /// check on every call.
    @inline(__always)
    private static func mayEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xE2
    }

    /// Appends `\uXXXX` (four lower-case hex digits) for a BMP code point.
    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((value >> UInt32(shift)) & 0xF)
            // 0-9 from "0" (48), a-f from "a" (97).
            out.append(digit < 10 ? 48 + digit : 87 + digit)
        }
    }
}

/// The `json` format (docs/formats.md): a document's text and its mentions with their ranges in
/// scalars, UTF-16 and UTF-8 units. Written as it goes through a `JSONWriter` rather than
/// built as a `JSONValue` first: a 10 MB comment has some 100,000 mentions.
public enum MentionJSON {
    /// One mention object, e.g. `{"trigger": "@", "id": "u42", "name": "John Doe",
    /// "start": 7, "end": 16, "utf16": [7, 16], "utf8": [7, 16]}`.
    ///
    /// Scans `text` up to the mention; to write many mentions use `document` or `array`,
    /// which do one pass for all of them.
    public static func object(_ m: Mention, in text: String) -> String {
        let units = UnitOffsets(of: [m.range.lowerBound, m.range.upperBound], in: text)
        return JSONWriter.text { write(m, units: units, at: 0, to: &$0) }
    }

    /// The whole document: `{"text": "...", "mentions": [...]}`.
    public static func document(_ doc: MarkedText) -> String {
        String(decoding: documentUTF8(doc), as: UTF8.self)
    }

    /// `document`, as UTF-8 bytes.
    static func documentUTF8(_ doc: MarkedText) -> [UInt8] {
        var writer = JSONWriter(capacity: doc.text.utf8.count + doc.text.utf8.count / 8 + arrayCapacity(doc) + 32)
        writer.object { writer in
            writer.key("text")
            writer.string(doc.text)
            writer.key("mentions")
            writeArray(doc, to: &writer)
        }
        return writer.bytes
    }

    /// The document's mentions as a JSON array of mention objects (what `atpad mentions`
    /// prints), offsets computed in one pass over the text.
    public static func array(_ doc: MarkedText) -> String {
        var writer = JSONWriter(capacity: arrayCapacity(doc))
        writeArray(doc, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Room for the mentions array: the fixed keys and numbers of each object, and its
    /// quoted name and id (doubled, for escapes).
    private static func arrayCapacity(_ doc: MarkedText) -> Int {
        var total = 2
        for m in doc.mentions { total += 140 + 2 * (m.name.utf8.count + m.id.utf8.count) }
        return total
    }

    /// Writes the mentions array as the next value of `writer` (alone, or a member of
    /// `atpad replay`'s object). Kept constructs are not mentions: their text is in `text`,
    /// they are not listed.
    public static func writeArray(_ doc: MarkedText, to writer: inout JSONWriter) {
        let mentions = doc.listedMentions
        var points: [Int] = []
        points.reserveCapacity(mentions.count * 2)
        for mention in mentions {
            points.append(mention.range.lowerBound)
            points.append(mention.range.upperBound)
        }
        let units = UnitOffsets(of: points, in: doc.text)
        writer.array { writer in
            for (index, mention) in mentions.enumerated() {
                write(mention, units: units, at: index * 2, to: &writer)
            }
        }
    }

    /// Writes one mention object; its offsets are `units` at `point` and `point + 1`.
    private static func write(_ m: Mention, units: UnitOffsets, at point: Int, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("trigger")
            writer.string(String(Character(m.trigger)))
            writer.key("id")
            writer.string(m.id)
            writer.key("name")
            writer.string(m.name)
            writer.key("start")
            writer.number(m.range.lowerBound)
            writer.key("end")
            writer.number(m.range.upperBound)
            writer.key("utf16")
            writer.array { writer in
                writer.number(units.utf16[point])
                writer.number(units.utf16[point + 1])
            }
            writer.key("utf8")
            writer.array { writer in
                writer.number(units.utf8[point])
                writer.number(units.utf8[point + 1])
            }
        }
    }
}

/// UTF-16 and UTF-8 offsets of a list of scalar offsets into one text, found in a single
/// pass over its UTF-8 (the points may come in any order; a point past the end maps to the
/// end).
private struct UnitOffsets {
    var utf16: [Int]
    var utf8: [Int]

    init(of points: [Int], in text: String) {
        utf16 = Array(repeating: 0, count: points.count)
        utf8 = Array(repeating: 0, count: points.count)
        // Mentions come sorted, so this is already in order; sorting keeps a malformed
        // document from producing wrong numbers instead of merely odd ones.
        var order = Array(points.indices)
        if !zip(points, points.dropFirst()).allSatisfy({ $0 <= $1 }) {
            order.sort { points[$0] < points[$1] }
        }
        var next = 0
        var units16 = 0
        var text = text
        let end = text.withUTF8 { bytes -> Int in
            // Walk to each point in turn (UTF8Scan skips ASCII eight bytes at a time); UTF-16
            // counts one unit per scalar plus one more per four-byte scalar.
            var byte = 0, scalars = 0, fourByte = 0
            while next < order.count {
                let from = byte
                let target = points[order[next]]
                let reached = UTF8Scan.advance(bytes, byte: &byte, scalar: &scalars, to: max(target, scalars))
                fourByte += UTF8Scan.fourByteScalars(bytes, from ..< byte)
                guard reached != nil else { break }
                utf16[order[next]] = scalars + fourByte
                utf8[order[next]] = byte
                next += 1
            }
            units16 = scalars + fourByte
            return byte
        }
        while next < order.count {
            utf16[order[next]] = units16
            utf8[order[next]] = end
            next += 1
        }
    }
}
