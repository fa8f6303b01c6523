/// The `discord` format: `<@id>` for people, `<#id>` for `#` channels, and the text as
/// written (it is the person's Markdown) except for one escape: a `<` followed by `@` or
/// `#` is written `\<`, so that a literal `<@123>` typed as text shows as typed instead of
/// pinging someone (Discord shows `\<@123>` as the raw `<@123>`). Backslashes right
/// before such a `<` or before a mention are doubled, as Discord's Markdown reads them
/// (`\\` shows one backslash), so `\` + a mention stays a backslash and a live mention.
///
/// Reading undoes those escapes (of `n` backslashes before `<@` or `<#`, `n / 2` are text,
/// and an odd one escapes the `<`) and turns `<@id>`, `<@!id>` and `<#id>` into mentions
/// when the directory knows the id (the name comes from the directory). An unknown one
/// stays text and is reported in a note. Role mentions (`<@&id>`) are read as unknown ids.
///
/// Not escaped, on purpose: `@everyone` and `@here` typed as text (Discord decides on
/// those pings through the message's allowed mentions, not its text), and Markdown.
enum DiscordFormat {
    static func encodeUTF8(_ doc: MarkedText) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 32))
        MentionRuns.forEach(in: doc, plain: { run, mentionFollows in escape(run, mentionFollows: mentionFollows, into: &out) }, mention: { m in
            out.append(contentsOf: AngleMention.opening(for: m).utf8)
            out.append(contentsOf: m.id.utf8)
            out.append(UInt8(ascii: ">"))
        })
        return out
    }

    /// Appends `run`, writing `\<` for a `<` that a `@` or `#` follows, and doubling the
    /// backslashes right before such a `<` or, when `mentionFollows`, at the end.
    private static func escape(_ run: UnsafeBufferPointer<UInt8>, mentionFollows: Bool, into out: inout [UInt8]) {
        var copied = 0
        for i in 0 ..< run.count where run[i] == UInt8(ascii: "<") && i + 1 < run.count && isKind(run[i + 1]) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied ..< i]))
            appendBackslashes(backslashes(before: i, in: run) + 1, to: &out)
            copied = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied...]))
        if mentionFollows { appendBackslashes(backslashes(before: run.count, in: run), to: &out) }
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
        var builder = MarkedTextBuilder(capacity: bytes.count)
        var unresolved = UnresolvedMentions()
        var runStart = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\") {
                var end = i
                while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
                guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "<"), isKind(bytes[end + 1]) else {
                    i = end
                    continue
                }
                // Before `<@` or `<#`, backslashes pair up; an odd one escapes the `<`.
                builder.appendPlain(bytes, runStart ..< i)
                let count = end - i
                for _ in 0 ..< count / 2 { builder.appendASCII(UInt8(ascii: "\\")) }
                if count % 2 == 1 {
                    builder.appendASCII(UInt8(ascii: "<"))
                    i = end + 1
                } else {
                    i = end
                }
                runStart = i
            } else if b == UInt8(ascii: "<"), let token = AngleMention.read(bytes, at: i, bang: true, label: false) {
                let id = UTF8Scan.string(bytes, token.id)
                if let (trigger, entity) = AngleMention.resolve(kind: token.kind, id: id, lookup: lookup), !entity.name.isEmpty {
                    builder.appendPlain(bytes, runStart ..< i)
                    builder.appendMention(trigger: trigger, entity: entity)
                    runStart = token.end
                } else {
                    unresolved.add(UTF8Scan.string(bytes, i ..< token.end))
                }
                i = token.end
            } else {
                i += 1
            }
        }
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return DecodedDocument(document: builder.build(), notes: unresolved.note.map { [$0] } ?? [])
    }
}
