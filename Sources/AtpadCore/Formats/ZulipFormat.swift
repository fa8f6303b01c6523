/// The `zulip` format (Zulip's Markdown): each mention is `@**John Doe|u42**`, the name as
/// shown and the id, whatever its trigger. The rest of the text is written as it is: it
/// is the person's Markdown (a typed `@**Name|id**` is a mention in Zulip too).
///
/// Zulip has no escape inside `@**…**`, so a mention whose name holds `*` or a line break,
/// or whose id is empty or holds `*`, `|` or whitespace, is written as the text it shows
/// (`@John Doe`). The id is what follows the last `|`, so a name may contain `|`.
///
/// Reading turns every `@**Name|id**` outside code into a mention, with the name and id
/// written in the file (so that opening and saving gives the same bytes, even when the
/// directory spells the name differently); the directory, when it knows the id (`@`
/// first, then the other triggers), gives the trigger, handle and url, else the trigger
/// is `@`. `@**Name**` without an id (ambiguous by name), silent mentions `@_**Name|id**`
/// anything inside inline code or a fenced block, and a mention that a combining mark or
/// joiner follows (it could not end there) stay text as written.
enum ZulipFormat {
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 16))
        func written(_ m: Mention) -> String? {
            guard case let .id(id) = lookup.writtenID(of: m, in: .zulip) else { return nil }
            var shown = m
            shown.id = id
            return isWritable(shown) ? id : nil
        }
        MentionRuns.forEach(in: doc, format: .zulip, accept: { written($0) != nil || lookup.writesNameAlone($0, in: .zulip) },
                            plain: { run, _ in out.append(contentsOf: run) }, token: { m in
            if let source = m.source(in: .zulip) {
                out.append(contentsOf: source.utf8)
                return
            }
            if lookup.writesNameAlone(m, in: .zulip) {
                out.append(contentsOf: m.name.utf8)
                return
            }
            out.append(contentsOf: "@**".utf8)
            out.append(contentsOf: m.name.utf8)
            out.append(UInt8(ascii: "|"))
            out.append(contentsOf: (written(m) ?? "").utf8)
            out.append(contentsOf: "**".utf8)
        })
        return out
    }

    /// Whether `m` can be written as `@**name|id**` and read back as it is.
    static func isWritable(_ m: Mention) -> Bool {
        !m.id.isEmpty && m.name.utf8.allSatisfy(isNameByte) && m.id.utf8.allSatisfy(isIDByte)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        b != UInt8(ascii: "*") && b != 0x0A && b != 0x0D
    }

    private static func isIDByte(_ b: UInt8) -> Bool {
        isNameByte(b) && b != UInt8(ascii: "|") && b != 0x20 && b != 0x09
    }

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var builder = MarkedTextBuilder(capacity: bytes.count)
        // Only the trigger bytes are looked at, so a text without `@**` is not parsed.
        var code = MarkdownSyntax.Cursor(bytes.contains(UInt8(ascii: "@")) ? MarkdownSyntax.fencedCode(bytes) : [])
        var runStart = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "@"), UTF8Scan.hasPrefix(bytes, at: i, "@**") else {
                i += 1
                continue
            }
            if let verbatim = code.range(containing: i) {
                i = verbatim.upperBound
                continue
            }
            guard let (name, id, end) = read(bytes, at: i) else {
                i += 1
                continue
            }
            let nameText = UTF8Scan.string(bytes, name)
            let idText = UTF8Scan.string(bytes, id)
            let known = resolve(id: idText, lookup: lookup)
            let trigger = known?.0 ?? "@"
            // Kept as text when a mark or joiner follows, so the bytes come back.
            guard MarkedTextBuilder.fits(trigger: trigger, name: nameText, replacing: i ..< end, in: bytes) else {
                i = end
                continue
            }
            builder.appendPlain(bytes, runStart ..< i)
            builder.appendMention(trigger: trigger, id: known?.1.id ?? idText, name: nameText, handle: known?.1.handle,
                                  url: known?.1.url, source: TokenSource(format: .zulip, text: UTF8Scan.string(bytes, i ..< end)))
            runStart = end
            i = end
        }
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return DecodedDocument(document: builder.build())
    }

    /// The name and id of `@**name|id**` at `i`, and where it ends; nil when the bytes there
    /// are not one (no closing `**` on the line, no `|`, an empty name or id, whitespace in
    /// the id).
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Range<Int>, Range<Int>, Int)? {
        let start = i + 3
        var j = start
        var bar: Int?
        while j < bytes.count, isNameByte(bytes[j]) {
            if bytes[j] == UInt8(ascii: "|") { bar = j }
            j += 1
        }
        guard let bar, j + 1 < bytes.count, bytes[j] == UInt8(ascii: "*"), bytes[j + 1] == UInt8(ascii: "*") else { return nil }
        let name = start ..< bar, id = bar + 1 ..< j
        guard !name.isEmpty, !id.isEmpty, id.allSatisfy({ isIDByte(bytes[$0]) }) else { return nil }
        return (name, id, j + 2)
    }

    /// The trigger and entity of the first directory (`@` first) that knows `id`.
    private static func resolve(id: String, lookup: EntityLookup) -> (Unicode.Scalar, Entity)? {
        for trigger in lookup.triggers {
            if let entity = lookup.entity(trigger: trigger, written: id, in: .zulip) { return (trigger, entity) }
        }
        return nil
    }
}
