/// The `markdown` format: each mention is a link, `[@John Doe](url)`, to the entity's url,
/// or to `mention:id` when it has none. The rest of the text is written as is, because it
/// is the person's Markdown (escaping it would break their emphasis and lists).
///
/// Inside a link, what Markdown would read is escaped:
/// - in the name, with a backslash: `\` `` ` `` `*` `_` `[` `]` `<` `>` `~` `|` `&`, so it
///   shows exactly as the mention does (`Zoë [x]` → `Zoë \[x\]`);
/// - in a url, `\`, `(`, `)`, `<`, `>` with a backslash, spaces and control characters as
///   `%XX`;
/// - in a `mention:` id, every byte but letters, digits and `-._~!$&'*+,;=:@/` as `%XX`,
///   so any id comes back exactly.
///
/// Reading turns a link whose text is a trigger and a name back into a mention: with a
/// `mention:id` target always (the name is the link text), with a url when the directory
/// has an entity with that url (the name stays the link text; the id is the entity's).
/// Other such links stay text and are reported in a note. Links in code or HTML (as
/// cmark-gfm reads them: `MarkdownSyntax`), images and links with a title are not read as
/// mentions.
enum MarkdownFormat {
    static let scheme = "mention:"

    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 96))
        MentionRuns.forEach(in: doc, format: .markdown, plain: { run, _ in out.append(contentsOf: run) }, token: { m in
            if let source = m.source(in: .markdown) {
                out.append(contentsOf: source.utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: String(Character(m.trigger)).utf8)
            for b in m.name.utf8 {
                if isNameEscaped(b) { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            }
            out.append(contentsOf: "](".utf8)
            if let url = url(of: m, lookup: lookup) {
                for b in url.utf8 {
                    switch b {
                    case UInt8(ascii: "\\"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                        out.append(UInt8(ascii: "\\"))
                        out.append(b)
                    case 0x00 ... 0x20, 0x7F: appendPercent(b, to: &out)
                    default: out.append(b)
                    }
                }
            } else {
                out.append(contentsOf: scheme.utf8)
                for b in m.id.utf8 {
                    if isSafeInID(b) { out.append(b) } else { appendPercent(b, to: &out) }
                }
            }
            out.append(UInt8(ascii: ")"))
        })
        return out
    }

    /// The url to link `m` to: the directory's, else the one the mention carries.
    static func url(of m: Mention, lookup: EntityLookup) -> String? {
        if let url = lookup.url(trigger: m.trigger, id: m.id) { return url }
        if let url = m.url, !url.isEmpty { return url }
        return nil
    }

    private static func isNameEscaped(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "~"), UInt8(ascii: "|"),
             UInt8(ascii: "&"):
            return true
        default:
            return false
        }
    }

    private static func isSafeInID(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'*+,;=:@/".utf8.contains(b)
        }
    }

    private static func appendPercent(_ b: UInt8, to out: inout [UInt8]) {
        func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10 }
        out.append(UInt8(ascii: "%"))
        out.append(hex(b >> 4))
        out.append(hex(b & 0xF))
    }

    /// Whether CommonMark lets a backslash escape `b`: ASCII punctuation.
    private static func isEscapable(_ b: UInt8) -> Bool {
        (0x21 ... 0x2F).contains(b) || (0x3A ... 0x40).contains(b) || (0x5B ... 0x60).contains(b) || (0x7B ... 0x7E).contains(b)
    }

    // MARK: - Reading

    /// A name or url longer than this is not read as one, so unclosed brackets cannot make
    /// reading quadratic.
    static let longestField = 4096

    /// Reads valid UTF-8 `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup) -> DecodedDocument {
        var builder = MarkedTextBuilder(capacity: bytes.count)
        var unresolved = UnresolvedMentions()
        var code = MarkdownSyntax.Cursor(bytes.contains(UInt8(ascii: "[")) ? MarkdownSyntax(bytes).verbatim : [])
        var runStart = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "[") else { i += 1; continue }
            if let verbatim = code.range(containing: i) { i = verbatim.upperBound; continue }
            guard !isEscapedOrImage(bytes, i), let link = readLink(bytes, at: i) else { i += 1; continue }
            let name = String(decoding: link.name, as: UTF8.self)
            let target = String(decoding: link.target, as: UTF8.self)
            var mention: (id: String, handle: String?, url: String?)?
            if target.hasPrefix(scheme) {
                if let id = PercentDecoding.decoded(target.utf8.dropFirst(scheme.utf8.count)), !id.isEmpty {
                    let known = lookup.entity(trigger: link.trigger, id: id)
                    mention = (id, known?.handle, known?.url)
                }
            } else if let entity = lookup.entity(trigger: link.trigger, url: target) {
                mention = (entity.id, entity.handle, entity.url)
            }
            guard let mention else {
                unresolved.add(UTF8Scan.string(bytes, i ..< link.end))
                i = link.end
                continue
            }
            // A mention that a combining mark or joiner follows could not end there: the
            // link stays text, so the bytes come back as they were.
            guard MarkedTextBuilder.fits(trigger: link.trigger, name: name, replacing: i ..< link.end, in: bytes) else {
                i = link.end
                continue
            }
            builder.appendPlain(bytes, runStart ..< i)
            builder.appendMention(trigger: link.trigger, id: mention.id, name: name, handle: mention.handle, url: mention.url,
                                  source: TokenSource(format: .markdown, text: UTF8Scan.string(bytes, i ..< link.end)))
            i = link.end
            runStart = i
        }
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return DecodedDocument(document: builder.build(), notes: unresolved.note.map { [$0] } ?? [])
    }

    /// Whether the `[` at `i` is escaped (an odd number of backslashes before it) or opens
    /// an image (`![`).
    private static func isEscapedOrImage(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var backslashes = 0
        var j = i
        while j > 0, bytes[j - 1] == UInt8(ascii: "\\") { backslashes += 1; j -= 1 }
        if backslashes % 2 == 1 { return true }
        return backslashes == 0 && i > 0 && bytes[i - 1] == UInt8(ascii: "!")
    }

    /// A link `[Tname](target)` at `i` whose text starts with a trigger, with escapes undone.
    private static func readLink(
        _ bytes: UnsafeBufferPointer<UInt8>, at i: Int
    ) -> (trigger: Unicode.Scalar, name: [UInt8], target: [UInt8], end: Int)? {
        guard i + 1 < bytes.count, bytes[i + 1] < 0x80, AtpadMarkup.isTrigger(Unicode.Scalar(bytes[i + 1])) else { return nil }
        let trigger = Unicode.Scalar(bytes[i + 1])
        var name: [UInt8] = []
        var j = i + 2
        let nameLimit = min(bytes.count, j + longestField)
        while true {
            guard j < nameLimit else { return nil }
            let b = bytes[j]
            if b == UInt8(ascii: "\\"), j + 1 < bytes.count, isEscapable(bytes[j + 1]) {
                name.append(bytes[j + 1])
                j += 2
                continue
            }
            if b == UInt8(ascii: "]") { break }
            if b == UInt8(ascii: "[") { return nil }
            name.append(b)
            j += 1
        }
        guard !name.isEmpty, j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "(") else { return nil }
        guard let (target, end) = readTarget(bytes, from: j + 2), !target.isEmpty else { return nil }
        return (trigger, name, target, end)
    }

    /// A link destination from `from` up to its closing `)`, in `<…>` or bare form, with
    /// backslash escapes undone; and the index after the `)`.
    private static func readTarget(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> ([UInt8], Int)? {
        var target: [UInt8] = []
        var j = from
        let limit = min(bytes.count, from + longestField)
        let angled = j < bytes.count && bytes[j] == UInt8(ascii: "<")
        if angled { j += 1 }
        var depth = 0
        while j < limit {
            let b = bytes[j]
            if b == UInt8(ascii: "\\"), j + 1 < bytes.count, isEscapable(bytes[j + 1]) {
                target.append(bytes[j + 1])
                j += 2
                continue
            }
            if angled {
                if b == UInt8(ascii: ">") {
                    return j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: ")") ? (target, j + 2) : nil
                }
                if b == UInt8(ascii: "<") || b == 0x0A || b == 0x0D { return nil }
            } else {
                if b <= 0x20 || b == 0x7F { return nil }
                if b == UInt8(ascii: "(") { depth += 1 }
                if b == UInt8(ascii: ")") {
                    if depth == 0 { return (target, j + 1) }
                    depth -= 1
                }
            }
            target.append(b)
            j += 1
        }
        return nil
    }
}
