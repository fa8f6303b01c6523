/// The `slack` format (Slack's message markup): `<@id>` for people, `<#id>` for `#`
/// channels, and the text with `&`, `<` and `>` escaped as `&amp;`, `&lt;`, `&gt;` (the
/// three characters Slack requires escaped). Ids are escaped the same way.
///
/// Reading undoes the escapes and turns `<@id>`, `<@id|label>`, `<#id>` and `<#id|label>`
/// into mentions when the directory knows the id (the name comes from the directory, the
/// label is ignored). An unknown one stays text as written and is reported in a note.
/// Slack's other `<…>` forms (links, `<!here>`) are kept as text.
enum SlackFormat {
    static func encodeUTF8(_ doc: MarkedText) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 32))
        MentionRuns.forEach(in: doc, plain: { run, _ in escape(run, into: &out) }, mention: { m in
            out.append(contentsOf: AngleMention.opening(for: m).utf8)
            var id = m.id
            id.withUTF8 { escape($0, into: &out) }
            out.append(UInt8(ascii: ">"))
        })
        return out
    }

    /// Appends `run` with `&`, `<`, `>` escaped, copying the stretches between them whole.
    private static func escape(_ run: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var start = 0
        for i in 0 ..< run.count {
            let replacement: StaticString
            switch run[i] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: run[start ..< i]))
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            start = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: run[start...]))
    }

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var builder = MarkedTextBuilder(capacity: bytes.count)
        var unresolved = UnresolvedMentions()
        var runStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "&"), let (character, length) = entity(bytes, at: i) {
                builder.appendPlain(bytes, runStart ..< i)
                builder.appendASCII(character)
                i += length
                runStart = i
            } else if b == UInt8(ascii: "<"), let token = AngleMention.read(bytes, at: i, bang: false, label: true) {
                let id = unescape(bytes, token.id)
                if let (trigger, entity) = AngleMention.resolve(kind: token.kind, id: id, lookup: lookup), !entity.name.isEmpty {
                    builder.appendPlain(bytes, runStart ..< i)
                    builder.appendMention(trigger: trigger, entity: entity)
                    i = token.end
                    runStart = i
                } else {
                    // Left as text; its escapes are undone like any other text's.
                    unresolved.add(UTF8Scan.string(bytes, i ..< token.end))
                    i += 1
                }
            } else {
                i += 1
            }
        }
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return DecodedDocument(document: builder.build(), notes: unresolved.note.map { [$0] } ?? [])
    }

    /// The character an escape `&amp;`, `&lt;` or `&gt;` at `i` stands for, and its length.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt8, Int)? {
        if UTF8Scan.hasPrefix(bytes, at: i, "&amp;") { return (UInt8(ascii: "&"), 5) }
        if UTF8Scan.hasPrefix(bytes, at: i, "&lt;") { return (UInt8(ascii: "<"), 4) }
        if UTF8Scan.hasPrefix(bytes, at: i, "&gt;") { return (UInt8(ascii: ">"), 4) }
        return nil
    }

    /// `bytes[range]` with its escapes undone.
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var out: [UInt8] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "&"), let (character, length) = entity(bytes, at: i), i + length <= range.upperBound {
                out.append(character)
                i += length
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
