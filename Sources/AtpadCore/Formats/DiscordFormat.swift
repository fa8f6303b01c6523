/// The `discord` format: `<@id>` for people, `<#id>` for `#` channels, and the text as
/// written (it is the person's Markdown) except for one escape: a `<` followed by `@` or
/// `#` is written `\<`, so that a literal `<@123>` typed as text shows as typed instead of
/// pinging someone (Discord shows `\<@123>` as the raw `<@123>`). Backslashes right
/// before such a `<` or before a mention are doubled, as Discord's Markdown reads them
/// (`\\` shows one backslash), so `\` + a mention stays a backslash and a live mention.
///
/// Reading undoes those escapes (of `n` backslashes before `<@` or `<#`, `n / 2` are text,
/// and an odd one escapes the `<`) and turns `<@id>`, `<@!id>` and `<#id>` into mentions
/// when the directory knows the id (the name comes from the directory; the text read is
/// kept, so `<@!id>` comes back as it was). Discord's other `<…>` forms are kept
/// constructs, written back as they were: `<@&role>`, `<:name:id>`, `<a:name:id>`,
/// `<t:1700000000:R>`, `</command:id>`, and a `<@id>` or `<#id>` the directory does not
/// know (reported in a note); so is an unescaped `<@` or `<#` that starts none of them,
/// which writing as text would escape.
///
/// Not escaped, on purpose: `@everyone` and `@here` typed as text (Discord decides on
/// those pings through the message's allowed mentions, not its text), and Markdown.
///
/// A comment converted from another format (`render --from github --format discord`)
/// keeps its code as it was: inside code spans and fenced blocks, as Discord reads them,
/// nothing is escaped (Discord shows code as written and pings no one from it). A Discord
/// document of its own escapes everywhere, so that typing a backtick never changes the
/// bytes of text elsewhere (docs/formats.md, "What each format writes").
enum DiscordFormat {
    /// `doc` as Discord text; `keepingCode` for a comment converted from another format.
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup, keepingCode: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 32))
        var code = MarkdownSyntax.Cursor(keepingCode ? codeRanges(of: doc.text) : [])
        // Where the current run starts in the text's UTF-8 (runs and tokens alternate, and a
        // written token covers exactly its trigger and name).
        var offset = 0
        MentionRuns.forEach(in: doc, format: .discord, plain: { run, next in
            escape(run, at: offset, code: &code, mentionFollows: next.map(writesAngleMention) ?? false, into: &out)
            offset += run.count
        }, token: { m in
            offset += UTF8.width(m.trigger) + m.shown.utf8.count
            if let source = m.source(in: .discord) {
                out.append(contentsOf: source.utf8)
                return
            }
            out.append(contentsOf: AngleMention.opening(for: m).utf8)
            // Discord has no account of its own: the one rule gives the directory's id.
            guard case let .id(id) = lookup.writtenID(of: m, in: .discord) else { return }
            out.append(contentsOf: id.utf8)
            out.append(UInt8(ascii: ">"))
        })
        return out
    }

    /// Whether the token `m` is written starting with `<@` or `<#`, so that backslashes
    /// right before it must be doubled to stay text.
    private static func writesAngleMention(_ m: Mention) -> Bool {
        guard let source = m.source(in: .discord) else { return true }
        let bytes = Array(source.utf8.prefix(2))
        return bytes.count == 2 && bytes[0] == UInt8(ascii: "<") && isKind(bytes[1])
    }

    /// Code spans and fenced blocks of `text` as Discord reads them (byte ranges).
    private static func codeRanges(of text: String) -> [Range<Int>] {
        var text = text
        return text.withUTF8 { MarkdownSyntax.fencedCode($0) }
    }

    /// Appends `run`, which starts at byte `offset` of the text, writing `\<` for a `<` that
    /// a `@` or `#` follows, and doubling the backslashes right before such a `<` or, when
    /// `mentionFollows`, at the end; inside `code` it is written as it is.
    private static func escape(_ run: UnsafeBufferPointer<UInt8>, at offset: Int, code: inout MarkdownSyntax.Cursor,
                               mentionFollows: Bool, into out: inout [UInt8]) {
        var copied = 0
        for i in 0 ..< run.count where run[i] == UInt8(ascii: "<") && i + 1 < run.count && isKind(run[i + 1]) {
            if code.range(containing: offset + i) != nil { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied ..< i]))
            appendBackslashes(backslashes(before: i, in: run) + 1, to: &out)
            copied = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied...]))
        if mentionFollows && code.range(containing: offset + run.count) == nil {
            appendBackslashes(backslashes(before: run.count, in: run), to: &out)
        }
    }

    /// How many backslashes come right before index `i` of `run`.
    private static func backslashes(before i: Int, in run: UnsafeBufferPointer<UInt8>) -> Int {
        var j = i
        while j > 0, run[j - 1] == UInt8(ascii: "\\") { j -= 1 }
        return i - j
    }

    private static func appendBackslashes(_ count: Int, to out: inout [UInt8]) {
        for _ in 0 ..< count { out.append(UInt8(ascii: "\\")) }
    }

    private static func isKind(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "@") || b == UInt8(ascii: "#")
    }

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var reader = TokenReader(bytes, format: .discord)
        var unresolved = UnresolvedMentions()
        while reader.i < bytes.count {
            let i = reader.i
            let b = bytes[i]
            if b == UInt8(ascii: "\\") {
                var end = i
                while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
                guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "<"), isKind(bytes[end + 1]) else {
                    reader.i = end
                    continue
                }
                // Before `<@` or `<#`, backslashes pair up; an odd one escapes the `<`.
                let count = end - i
                var text = [UInt8](repeating: UInt8(ascii: "\\"), count: count / 2)
                if count % 2 == 1 { text.append(UInt8(ascii: "<")) }
                reader.replace(to: end + count % 2, with: text)
            } else if b == UInt8(ascii: "<") {
                guard let end = constructEnd(bytes, at: i) else {
                    // A bare `<@` or `<#` is kept: written as text it would be escaped.
                    if i + 1 < bytes.count, isKind(bytes[i + 1]) { reader.keep(to: i + 2) } else { reader.i += 1 }
                    continue
                }
                if let token = AngleMention.read(bytes, at: i, bang: true, label: false), token.end == end {
                    let id = UTF8Scan.string(bytes, token.id)
                    if let (trigger, entity) = AngleMention.resolve(kind: token.kind, id: id, lookup: lookup, format: .discord), !entity.name.isEmpty,
                       MarkedTextBuilder.fits(trigger: trigger, name: entity.name, replacing: i ..< end, in: bytes) {
                        reader.appendMention(trigger: trigger, entity: entity, end: end)
                        continue
                    }
                }
                if isKind(bytes[i + 1]) { unresolved.add(UTF8Scan.string(bytes, i ..< end)) }
                reader.keep(to: end)
            } else {
                reader.i += 1
            }
        }
        return DecodedDocument(document: reader.build(), notes: unresolved.note.map { [$0] } ?? [])
    }

    /// Where a Discord construct starting at the `<` at `i` ends (after its `>`): `<@…>`,
    /// `<#…>`, `<:…>`, `<a:…>`, `<t:…>` or `</…>`, with at least one character after the
    /// opening and none of them `<`, `>` or a line break; nil when there is none.
    private static func constructEnd(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard i + 1 < bytes.count else { return nil }
        var j = i + 1
        switch bytes[j] {
        case UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: ":"), UInt8(ascii: "/"): j += 1
        case UInt8(ascii: "a"), UInt8(ascii: "t"):
            guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: ":") else { return nil }
            j += 2
        default: return nil
        }
        let contentStart = j
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: ">"): return j > contentStart ? j + 1 : nil
            case UInt8(ascii: "<"), 0x0A, 0x0D: return nil
            default: j += 1
            }
        }
        return nil
    }
}
