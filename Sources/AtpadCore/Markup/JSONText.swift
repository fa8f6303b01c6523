/// Writing JSON string literals by hand, so the core can print JSON without Foundation.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    ///
    /// Escapes `"`, `\` and every control character: `\n`, `\t`, `\r`, `\b`, `\f` by name,
    /// the rest of U+0000–U+001F and U+007F as `\u00xx`. U+2028 and U+2029 are escaped too
    /// (`\u2028`, `\u2029`): they are valid in JSON but end lines in JavaScript and in some
    /// line-oriented readers, and a line of NDJSON must stay one line. Everything else is
    /// written as is (UTF-8).
    public static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += #"\""#
            case "\\": out += #"\\"#
            case "\n": out += #"\n"#
            case "\t": out += #"\t"#
            case "\r": out += #"\r"#
            case "\u{08}": out += #"\b"#
            case "\u{0C}": out += #"\f"#
            case "\u{00}" ... "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                appendUnicodeEscape(scalar.value, to: &out)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// Appends `\uXXXX` (four lower-case hex digits) for a BMP code point.
    private static func appendUnicodeEscape(_ value: UInt32, to out: inout String) {
        out += #"\u"#
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = (value >> UInt32(shift)) & 0xF
            // 0-9 from "0" (48), a-f from "a" (97).
            out.unicodeScalars.append(Unicode.Scalar(UInt8(digit < 10 ? 48 + digit : 87 + digit)))
        }
    }
}

/// The SPEC §7 `json` format: a document's text and its mentions with their ranges in
/// scalars, UTF-16 and UTF-8 units.
public enum MentionJSON {
    /// One mention object, e.g. `{"trigger": "@", "id": "u42", "name": "John Doe",
    /// "start": 7, "end": 16, "utf16": [7, 16], "utf8": [7, 16]}`.
    ///
    /// Scans `text` up to the mention; to write many mentions use `document` or `array`,
    /// which do one pass for all of them.
    public static func object(_ m: Mention, in text: String) -> String {
        let units = UnitOffsets(of: [m.range.lowerBound, m.range.upperBound], in: text)
        var out = ""
        write(m, units: units, at: 0, into: &out)
        return out
    }

    /// The whole document: `{"text": "...", "mentions": [...]}`.
    public static func document(_ doc: MarkedText) -> String {
        var out = #"{"text": "#
        out += JSONText.quote(doc.text)
        out += #", "mentions": "#
        writeArray(doc, into: &out)
        out += "}"
        return out
    }

    /// The document's mentions as a JSON array of mention objects (what `atpad mentions`
    /// prints), offsets computed in one pass over the text.
    public static func array(_ doc: MarkedText) -> String {
        var out = ""
        writeArray(doc, into: &out)
        return out
    }

    private static func writeArray(_ doc: MarkedText, into out: inout String) {
        var points: [Int] = []
        points.reserveCapacity(doc.mentions.count * 2)
        for mention in doc.mentions {
            points.append(mention.range.lowerBound)
            points.append(mention.range.upperBound)
        }
        let units = UnitOffsets(of: points, in: doc.text)
        out += "["
        for (index, mention) in doc.mentions.enumerated() {
            if index > 0 { out += ", " }
            write(mention, units: units, at: index * 2, into: &out)
        }
        out += "]"
    }

    /// Appends one mention object; its offsets are `units` at `point` and `point + 1`.
    private static func write(_ m: Mention, units: UnitOffsets, at point: Int, into out: inout String) {
        out += #"{"trigger": "#
        out += JSONText.quote(String(Character(m.trigger)))
        out += #", "id": "#
        out += JSONText.quote(m.id)
        out += #", "name": "#
        out += JSONText.quote(m.name)
        out += #", "start": "#
        out += String(m.range.lowerBound)
        out += #", "end": "#
        out += String(m.range.upperBound)
        out += #", "utf16": ["#
        out += String(units.utf16[point])
        out += ", "
        out += String(units.utf16[point + 1])
        out += #"], "utf8": ["#
        out += String(units.utf8[point])
        out += ", "
        out += String(units.utf8[point + 1])
        out += "]}"
    }
}

/// UTF-16 and UTF-8 offsets of a list of scalar offsets into one text, found in a single
/// pass (the points may come in any order; a point past the end maps to the end).
private struct UnitOffsets {
    var utf16: [Int]
    var utf8: [Int]

    init(of points: [Int], in text: String) {
        utf16 = Array(repeating: 0, count: points.count)
        utf8 = Array(repeating: 0, count: points.count)
        // Mentions come sorted, so this is already in order; sorting keeps a malformed
        // document from producing wrong numbers instead of merely odd ones.
        let order = points.indices.sorted { points[$0] < points[$1] }
        var next = 0
        var scalars = 0, units16 = 0, units8 = 0
        for scalar in text.unicodeScalars {
            while next < order.count, points[order[next]] <= scalars {
                utf16[order[next]] = units16
                utf8[order[next]] = units8
                next += 1
            }
            if next == order.count { return }
            scalars += 1
            units16 += UTF16.width(scalar)
            units8 += UTF8.width(scalar)
        }
        while next < order.count {
            utf16[order[next]] = units16
            utf8[order[next]] = units8
            next += 1
        }
    }
}
