import CCmarkGFM
import Glibc

/// The `matrix` format, output only: one Matrix `m.room.message` event content, on one
/// line, keys in this order, as Element sends a message typed in Markdown:
///
///     {"msgtype": "m.text", "body": "Hi @John Doe, **see** this", "format": "org.matrix.custom.html",
///      "formatted_body": "Hi <a href=\"https://matrix.to/#/%40jdoe:example.org\">John Doe</a>, <strong>see</strong> this",
///      "m.mentions": {"user_ids": ["@jdoe:example.org"]}}
///
/// - `body` is the text as typed, each mention as shown (`@John Doe`).
/// - `formatted_body` is the HTML cmark-gfm renders from the comment's Markdown
///   (``ComposedMarkdown``; docs/formats.md, "What each service receives"): every line
///   break a `<br />`, as Element sends it; raw HTML shown as typed (escaped); a comment of
///   one paragraph without its `<p>`, and no line break at the end. Each mention is a link
///   to `https://matrix.to/#/ID` whose text is the name (a pill): the id is the entity's
///   Matrix id (`accounts.matrix`, else its id), percent-encoded as `%XX` (UTF-8, upper
///   case) except for letters, digits and `-._~!$()*+,;=:@`, which keeps Matrix ids
///   readable while `%`, `#`, `/`, `?`, `&`, quotes, spaces and non-ASCII never reach the
///   attribute raw. A mention in code or in a link's text is the text as shown.
/// - `m.mentions.user_ids` lists the ids of the `@` mentions, each once, in order of first
///   appearance; `#` mentions (rooms) are linked but not listed; other triggers are text.
/// - A person with accounts but none on Matrix is written as their name, without the
///   trigger (no pill, no `@` that would read as someone else).
/// - Written by `JSONWriter`, spaced.
///
/// A comment that is not Markdown (read as `text`, `slack` or `jira`) is sent as written:
/// `formatted_body` is its text escaped, each line break a `<br>`.
///
/// There is no reader: a Matrix event is not a document atpad edits.
enum MatrixFormat {
    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup, markdown: Bool, reusing parse: ParsedMarkdown? = nil) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(doc.text.utf8.count + 16)
        MentionRuns.forEach(in: doc, format: .matrix, plain: { run, _ in body.append(contentsOf: run) }, token: { m in
            body += Array((pill(m, lookup: lookup) == nil ? lookup.textWithoutAccount(m, in: .matrix) : m.text).utf8)
        })
        var pills = Pills(lookup: lookup)
        let html = markdown ? markdownHTML(doc, pills: &pills, reusing: parse) : writtenHTML(doc, pills: &pills)
        let userIDs = pills.userIDs
        var writer = JSONWriter(capacity: body.count + html.count + html.count / 8 + 160)
        writer.object { writer in
            writer.key("msgtype")
            writer.string("m.text")
            writer.key("body")
            body.withUnsafeBufferPointer { writer.string(utf8: $0) }
            writer.key("format")
            writer.string("org.matrix.custom.html")
            writer.key("formatted_body")
            html.withUnsafeBufferPointer { writer.string(utf8: $0) }
            writer.key("m.mentions")
            writer.value(["user_ids": .array(userIDs.map(JSONValue.string))])
        }
        return writer.bytes
    }

    /// The pill Matrix shows for `m`: the id it links to, and whether that is a user (an
    /// `@` mention) rather than a room (`#`); nil when `m` is written as text.
    private static func pill(_ m: Mention, lookup: EntityLookup) -> (id: String, isUser: Bool)? {
        guard m.trigger == "@" || m.trigger == "#", case let .id(id) = lookup.writtenID(of: m, in: .matrix) else { return nil }
        return (id, m.trigger == "@")
    }


    /// Writes mentions as pills, and lists the users of the pills written: only a person
    /// the HTML shows as a pill is notified (not one named in code).
    private struct Pills {
        let lookup: EntityLookup
        var userIDs: [String] = []
        var listed: Set<String> = []

        init(lookup: EntityLookup) { self.lookup = lookup }

        /// Appends `m` as a pill, or as text where Matrix cannot link it.
        mutating func append(_ m: Mention, to out: inout [UInt8]) {
            guard let (id, isUser) = pill(m, lookup: lookup) else {
                var text = lookup.textWithoutAccount(m, in: .matrix)
                text.withUTF8 { appendHTML($0, to: &out) }
                return
            }
            if isUser, listed.insert(id).inserted { userIDs.append(id) }
            MatrixFormat.append("<a href=\"https://matrix.to/#/", to: &out)
            for b in id.utf8 { appendURLByte(b, to: &out) }
            MatrixFormat.append("\">", to: &out)
            var name = m.name
            name.withUTF8 { appendHTML($0, to: &out) }
            MatrixFormat.append("</a>", to: &out)
        }
    }

    /// The HTML of the comment's Markdown, as cmark-gfm renders it, with the pills.
    private static func markdownHTML(_ doc: MarkedText, pills: inout Pills, reusing parse: ParsedMarkdown?) -> [UInt8] {
        let composed = ComposedMarkdown(doc, format: .matrix, reusing: parse)
        return composed.withTree { root, extensions in
            let oneParagraph = root.firstChild.map { $0.next == nil && $0.kind == .paragraph } ?? false
            guard let html = cmark_render_html(root.pointer, CMARK_OPT_HARDBREAKS, extensions) else { return [] }
            defer { cmark_get_default_mem_allocator().pointee.free(html) }
            return withPills(MarkdownNode.bytes(of: html), oneParagraph: oneParagraph, composed: composed, pills: &pills)
        }
    }

    /// The HTML cmark-gfm rendered, each placeholder replaced by its pill (cmark left it in
    /// a text node where a pill can be), with no line break at the end and, for a comment
    /// of one paragraph, without its `<p>`.
    private static func withPills(_ rendered: UnsafeBufferPointer<UInt8>, oneParagraph: Bool, composed: ComposedMarkdown,
                                  pills: inout Pills) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rendered.count + composed.pieces.count * 64)
        var start = 0, end = rendered.count
        while end > start, rendered[end - 1] == 0x0A { end -= 1 }
        if oneParagraph, end - start >= 7, rendered[start ..< start + 3].elementsEqual("<p>".utf8),
           rendered[end - 4 ..< end].elementsEqual("</p>".utf8) {
            start += 3
            end -= 4
        }
        guard let base = rendered.baseAddress, end > start else { return out }
        var i = start
        var runStart = start
        while i < end {
            // The next U+FDD0's first byte.
            guard let found = memchr(base + i, 0xEF, end - i) else { break }
            i = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            guard i + 2 < end, rendered[i + 1] == 0xB7, rendered[i + 2] == 0x90 else {
                i += 1
                continue
            }
            var j = i + 3, index = 0, digits = 0
            while j < end, rendered[j] >= 0x30, rendered[j] <= 0x39 {
                index = index &* 10 &+ Int(rendered[j] - 0x30)
                digits += 1
                j += 1
            }
            guard digits > 0, digits < 10, j + 2 < end, rendered[j] == 0xEF, rendered[j + 1] == 0xB7, rendered[j + 2] == 0x91,
                  index < composed.pieces.count else {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: rendered[runStart ..< i]))
            switch composed.pieces[index] {
            case let .mention(m):
                pills.append(m, to: &out)
            case let .literal(text):
                out.append(contentsOf: text.utf8)
            }
            i = j + 3
            runStart = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: rendered[runStart ..< end]))
        return out
    }

    /// The comment as written, escaped, each line break a `<br>`.
    private static func writtenHTML(_ doc: MarkedText, pills: inout Pills) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 64))
        MentionRuns.forEach(in: doc, format: .matrix, plain: { run, _ in appendHTML(run, to: &html) }, token: { m in
            pills.append(m, to: &html)
        })
        return html
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
