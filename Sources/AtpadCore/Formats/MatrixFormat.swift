/// The `matrix` format, output only: one Matrix `m.room.message` event content, on one
/// line, keys in this order:
///
///     {"msgtype": "m.text", "body": "Hi @John Doe", "format": "org.matrix.custom.html",
///      "formatted_body": "Hi <a href=\"https://matrix.to/#/%40jdoe:example.org\">John Doe</a>",
///      "m.mentions": {"user_ids": ["@jdoe:example.org"]}}
///
/// - `body` is the text as shown (what `plain` writes).
/// - `formatted_body` is HTML: the text with `&`, `<`, `>`, `"`, `'` escaped
///   (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`), each line break (`\n`, or `\r\n` as one)
///   written `<br>`, and each mention a link to `https://matrix.to/#/ID` whose text is the
///   name, escaped the same way. The id is the entity's id (a Matrix id such as
///   `@jdoe:example.org` or `#room:example.org`), percent-encoded as `%XX` (UTF-8, upper
///   case) except for letters, digits and `-._~!$()*+,;=:@`: that keeps Matrix ids
///   readable while `%`, `#`, `/`, `?` (which matrix.to gives a meaning), `&`, `'`, `"`,
///   spaces and non-ASCII never reach the attribute or the URL raw.
/// - `m.mentions.user_ids` lists the ids of the mentions, each once, in order of first
///   appearance; `#` mentions (rooms, not users) are linked but not listed.
/// - Written by `JSONWriter`, spaced.
///
/// There is no reader: a Matrix event is not a document atpad edits.
enum MatrixFormat {
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 64))
        var userIDs: [String] = []
        var listed: Set<String> = []
        func written(_ m: Mention) -> String? {
            guard case let .id(id) = lookup.writtenID(of: m, in: .matrix) else { return nil }
            return id
        }
        MentionRuns.forEach(in: doc, format: .matrix, accept: { written($0) != nil },
                            plain: { run, _ in appendHTML(run, to: &html) }, token: { m in
            let id = written(m) ?? m.id
            append("<a href=\"https://matrix.to/#/", to: &html)
            for b in id.utf8 { appendURLByte(b, to: &html) }
            append("\">", to: &html)
            var name = m.name
            name.withUTF8 { appendHTML($0, to: &html) }
            append("</a>", to: &html)
            if m.trigger != "#", listed.insert(id).inserted { userIDs.append(id) }
        })
        var writer = JSONWriter(capacity: doc.text.utf8.count + html.count + html.count / 8 + 160)
        writer.object { writer in
            writer.key("msgtype")
            writer.string("m.text")
            writer.key("body")
            writer.string(doc.text)
            writer.key("format")
            writer.string("org.matrix.custom.html")
            writer.key("formatted_body")
            html.withUnsafeBufferPointer { writer.string(utf8: $0) }
            writer.key("m.mentions")
            writer.value(["user_ids": .array(userIDs.map(JSONValue.string))])
        }
        return writer.bytes
    }

    /// Appends `run` as HTML text: the five special characters escaped, line breaks as
    /// `<br>` (a CR right before a LF is part of that break).
    private static func appendHTML(_ run: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        UTF8Scan.append(run, to: &out) { run, i in
            switch run[i] {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            case UInt8(ascii: "'"): "&#39;"
            case 0x0A: "<br>"
            // Dropped: the LF that follows writes the break.
            case 0x0D where i + 1 < run.count && run[i + 1] == 0x0A: ""
            default: nil
            }
        }
    }

    /// Appends one byte of an id to a `matrix.to` fragment, percent-encoded unless it is
    /// one of the bytes kept as they are.
    private static func appendURLByte(_ b: UInt8, to out: inout [UInt8]) {
        if keptInURL[Int(b)] {
            out.append(b)
        } else {
            let hex = Array("0123456789ABCDEF".utf8)
            out.append(UInt8(ascii: "%"))
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        }
    }

    /// The bytes an id keeps in the URL: letters, digits and `-._~!$()*+,;=:@`.
    private static let keptInURL: [Bool] = (0 ..< 256).map { b in
        guard b < 0x80 else { return false }
        let scalar = Unicode.Scalar(UInt8(b))
        return ("a" ... "z").contains(scalar) || ("A" ... "Z").contains(scalar) || ("0" ... "9").contains(scalar)
            || "-._~!$()*+,;=:@".unicodeScalars.contains(scalar)
    }

    private static func append(_ s: StaticString, to out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
