/// The `jira` format (Jira Cloud wiki markup): each mention is `[~accountid:ID]`, ID being
/// the entity's id (a Jira account id), whatever its trigger. The rest of the text is
/// written as it is: it is the person's wiki markup, and Jira has no escape that would
/// keep a typed `[~accountid:…]` from being a mention anyway, so what the file says is
/// what Jira shows.
///
/// A mention whose id cannot be written inside the brackets (empty, or holding `[`, `]`,
/// `|`, whitespace or a control character; real account ids never do) is written as the
/// text it shows, `@John Doe`.
///
/// Reading turns `[~accountid:ID]` into a mention when the directory knows ID (the `@`
/// directory first, then the others in trigger order; the name comes from the directory).
/// An unknown one stays text, byte for byte, and is reported in a note; so does, silently,
/// one that a combining mark or joiner follows (its mention could not end there). The older
/// `[~username]` form, `{code}` blocks and everything else are read as text, so opening
/// and saving a file without edits gives the same bytes.
enum JiraFormat {
    static let opening = "[~accountid:"

    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 40))
        func written(_ m: Mention) -> String? { accountID(of: m, lookup: lookup) }
        MentionRuns.forEach(in: doc, format: .jira, accept: { written($0) != nil || lookup.writesNameAlone($0, in: .jira) },
                            plain: { run, _ in out.append(contentsOf: run) }, token: { m in
            if let source = m.source(in: .jira) {
                out.append(contentsOf: source.utf8)
                return
            }
            if lookup.writesNameAlone(m, in: .jira) {
                out.append(contentsOf: m.name.utf8)
                return
            }
            out.append(contentsOf: opening.utf8)
            out.append(contentsOf: (written(m) ?? "").utf8)
            out.append(UInt8(ascii: "]"))
        })
        return out
    }

    /// The Jira account id a mention is written with (here and in the `adf` format), or nil
    /// when it is written as shown: the one place that picks it, so both formats notify the
    /// same person.
    static func accountID(of m: Mention, lookup: EntityLookup) -> String? {
        guard case let .id(id) = lookup.writtenID(of: m, in: .jira), isWritable(id: id) else { return nil }
        return id
    }

    /// Whether `id` can stand between `[~accountid:` and `]` and be read back as it is.
    static func isWritable(id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy(isIDByte)
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"), 0x20, 0x7F: return false
        default: return b > 0x20
        }
    }

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var builder = MarkedTextBuilder(capacity: bytes.count)
        var unresolved = UnresolvedMentions()
        var runStart = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "["), UTF8Scan.hasPrefix(bytes, at: i, opening) else {
                i += 1
                continue
            }
            let idStart = i + opening.utf8.count
            var j = idStart
            while j < bytes.count, isIDByte(bytes[j]) { j += 1 }
            guard j > idStart, j < bytes.count, bytes[j] == UInt8(ascii: "]") else {
                i = idStart
                continue
            }
            let end = j + 1
            let id = UTF8Scan.string(bytes, idStart ..< j)
            if let (trigger, entity) = resolve(id: id, lookup: lookup) {
                // Kept as text when a mark or joiner follows, so the bytes come back.
                guard MarkedTextBuilder.fits(trigger: trigger, name: entity.name, replacing: i ..< end, in: bytes) else {
                    i = end
                    continue
                }
                builder.appendPlain(bytes, runStart ..< i)
                builder.appendMention(trigger: trigger, entity: entity,
                                      source: TokenSource(format: .jira, text: UTF8Scan.string(bytes, i ..< end)))
                runStart = end
            } else {
                unresolved.add(UTF8Scan.string(bytes, i ..< end))
            }
            i = end
        }
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return DecodedDocument(document: builder.build(), notes: unresolved.note.map { [$0] } ?? [])
    }

    /// The trigger and entity of the first directory (`@` first) that knows `id` and
    /// gives it a name.
    private static func resolve(id: String, lookup: EntityLookup) -> (Unicode.Scalar, Entity)? {
        for trigger in lookup.triggers {
            if let entity = lookup.entity(trigger: trigger, written: id, in: .jira), !entity.name.isEmpty {
                return (trigger, entity)
            }
        }
        return nil
    }
}
