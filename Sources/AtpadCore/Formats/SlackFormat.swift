/// The `slack` format (Slack's message markup): `<@id>` for people, `<#id>` for `#`
/// channels, and the text with `&`, `<` and `>` escaped as `&amp;`, `&lt;`, `&gt;` (the
/// three characters Slack requires escaped). Ids are escaped the same way.
///
/// Reading undoes the escapes and turns `<@id>`, `<@id|label>`, `<#id>` and `<#id|label>`
/// into mentions when the directory knows the id (the name comes from the directory; the
/// text read is kept, so the label comes back on writing). Everything else Slack gives a
/// meaning to is a kept construct, written back as it was: every other `<…>` on one line
/// (`<!here>`, `<!subteam^S1|@team>`, `<https://example.com|docs>`, a `<@U9>` the
/// directory does not know, reported in a note), and a `&`, `<` or `>` that is not part
/// of an escape or a construct (Slack's own text never has one, a hand-written file may).
enum SlackFormat {
    /// `doc` as mrkdwn when it is Markdown (``SlackMrkdwn``), else as written.
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup, markdown: Bool, reusing parse: ParsedMarkdown? = nil) -> [UInt8] {
        guard markdown else { return encodeUTF8(doc, lookup: lookup) }
        let composed = ComposedMarkdown(doc, format: .slack, reusing: parse)
        var writer = SlackMrkdwn(composed: composed, lookup: lookup)
        return composed.withTree { root, _ in writer.write(root) }
    }

    /// `doc` as written: the text escaped, the mentions as Slack's tokens.
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 32))
        MentionRuns.forEach(in: doc, format: .slack, plain: { run, _ in escape(run, into: &out) }, token: { m in
            if let source = m.source(in: .slack) {
                out.append(contentsOf: source.utf8)
                return
            }
            if lookup.writesNameAlone(m, in: .slack) {
                var name = m.name
                name.withUTF8 { escape($0, into: &out) }
                return
            }
            out.append(contentsOf: AngleMention.opening(for: m).utf8)
            guard case var .id(id) = lookup.writtenID(of: m, in: .slack) else { return }
            id.withUTF8 { escape($0, into: &out) }
            out.append(UInt8(ascii: ">"))
        })
        return out
    }

    /// Appends `run` with `&`, `<`, `>` escaped.
    private static func escape(_ run: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        UTF8Scan.append(run, to: &out) { run, i in
            switch run[i] {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            default: nil
            }
        }
    }

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var reader = TokenReader(bytes, format: .slack)
        var unresolved = UnresolvedMentions()
        while reader.i < bytes.count {
            let i = reader.i
            switch bytes[i] {
            case UInt8(ascii: "&"):
                if let (character, length) = entity(bytes, at: i) {
                    reader.replace(to: i + length, with: [character])
                } else {
                    reader.keep(to: i + 1)
                }
            case UInt8(ascii: "<"):
                guard let end = constructEnd(bytes, at: i) else {
                    reader.keep(to: i + 1)
                    continue
                }
                if let token = AngleMention.read(bytes, at: i, bang: false, label: true), token.end == end {
                    let id = unescape(bytes, token.id)
                    if let (trigger, entity) = AngleMention.resolve(kind: token.kind, id: id, lookup: lookup, format: .slack), !entity.name.isEmpty,
                       MarkedTextBuilder.fits(trigger: trigger, name: entity.name, replacing: i ..< end, in: bytes) {
                        reader.appendMention(trigger: trigger, entity: entity, end: end)
                        continue
                    }
                    unresolved.add(UTF8Scan.string(bytes, i ..< end))
                }
                reader.keep(to: end)
            case UInt8(ascii: ">"):
                reader.keep(to: i + 1)
            default:
                reader.i += 1
            }
        }
        return DecodedDocument(document: reader.build(), notes: unresolved.note.map { [$0] } ?? [])
    }

    /// Where the construct `<…>` starting at the `<` at `i` ends (after its `>`): at least
    /// one character, none of them `<` or a line break; nil when there is none.
    private static func constructEnd(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        var j = i + 1
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: ">"): return j > i + 1 ? j + 1 : nil
            case UInt8(ascii: "<"), 0x0A, 0x0D: return nil
            default: j += 1
            }
        }
        return nil
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
