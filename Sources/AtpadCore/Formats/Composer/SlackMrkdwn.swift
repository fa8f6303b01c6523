/// Writes a comment's Markdown (``ComposedMarkdown``) as Slack's mrkdwn, the markup of a
/// message's `text` (docs/formats.md, "What each service receives"):
///
/// - `**bold**` → `*bold*`, `*em*` → `_em_`, `~~strike~~` → `~strike~`; code spans and
///   fenced blocks kept in backticks (a fence without its language, which Slack ignores);
/// - `[text](url)` → `<url|text>`, an autolink → `<url>`, an image → `<url|alt>`;
/// - a heading → its text in bold on its own line; a list item → `•` (or its number) with
///   four spaces for each level; a quote → its lines after `> `; a table → one line a
///   row, cells between ` | `, the header in bold; a rule → `---`;
/// - mentions `<@U0123>` and `<#C0123>` (the service's ids, as the `slack` format writes
///   them); a person with accounts but none on Slack by name, without the trigger;
/// - `&`, `<` and `>` escaped (`&amp;`, `&lt;`, `&gt;`) everywhere but in the markup above.
///
/// Blocks are separated by a blank line, list items by a line break; a final newline of
/// the comment stays.
struct SlackMrkdwn {
    let composed: ComposedMarkdown
    let lookup: EntityLookup
    private var out: [UInt8] = []

    init(composed: ComposedMarkdown, lookup: EntityLookup) {
        self.composed = composed
        self.lookup = lookup
    }

    /// The mrkdwn of `root` (a document).
    mutating func write(_ root: MarkdownNode) -> [UInt8] {
        out.reserveCapacity(composed.textCount + composed.textCount / 8)
        blocks(root.children, indent: "")
        // A file's final newline stays (a rendered file ends as its source did).
        if composed.endsWithLineFeed, out.last != 0x0A { out.append(0x0A) }
        return out
    }

    // MARK: Blocks

    /// Writes blocks separated by a blank line, every line after the first starting with `indent`.
    private mutating func blocks(_ nodes: MarkdownNode.Children, indent: String) {
        for (i, node) in nodes.enumerated() {
            if i > 0 { blankLine(indent: indent) }
            block(node, indent: indent)
        }
    }

    private mutating func block(_ node: MarkdownNode, indent: String) {
        switch node.kind {
        case .paragraph:
            inlines(node.children, indent: indent)
        case .heading:
            out.append(UInt8(ascii: "*"))
            inlines(node.children, indent: indent, plain: true)
            out.append(UInt8(ascii: "*"))
        case .codeBlock:
            append("```")
            newline(indent: indent)
            var code = composed.resolved(node.literal)
            if code.hasSuffix("\n") { code.removeLast() }
            for (i, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if i > 0 { newline(indent: indent) }
                escape(line)
            }
            newline(indent: indent)
            append("```")
        case .quote:
            append("> ")
            blocks(node.children, indent: indent + "> ")
        case .list:
            var number = node.listStart
            for (i, item) in node.children.enumerated() {
                if i > 0 { newline(indent: indent) }
                let marker = node.isOrderedList ? "\(number). " : "• "
                number += 1
                append(marker)
                if let checked = item.taskChecked { append(checked ? "[x] " : "[ ] ") }
                let inner = indent + "    "
                for (j, child) in item.children.enumerated() {
                    if j > 0, child.kind == .list { newline(indent: inner) } else if j > 0 { blankLine(indent: inner) }
                    block(child, indent: inner)
                }
            }
        case .rule:
            append("---")
        case .table:
            for (i, row) in node.children.enumerated() {
                if i > 0 { newline(indent: indent) }
                for (j, cell) in row.children.enumerated() {
                    if j > 0 { append(" | ") }
                    if row.isHeaderRow { out.append(UInt8(ascii: "*")) }
                    inlines(cell.children, indent: indent, plain: row.isHeaderRow)
                    if row.isHeaderRow { out.append(UInt8(ascii: "*")) }
                }
            }
        default:
            blocks(node.children, indent: indent)
        }
    }

    // MARK: Inlines

    /// Writes inlines; `plain` leaves out the marks (inside a heading's or a link's bold or text).
    private mutating func inlines(_ nodes: MarkdownNode.Children, indent: String, plain: Bool = false) {
        for node in nodes {
            switch node.kind {
            case .text:
                let composed = composed
                composed.forEachSegment(of: node.literalBytes) { run in
                    escape(run)
                } piece: { piece in
                    self.piece(piece)
                }
            case .code:
                let code = composed.resolved(node.literal)
                if plain {
                    escape(code)
                } else {
                    out.append(UInt8(ascii: "`"))
                    escape(code)
                    out.append(UInt8(ascii: "`"))
                }
            case .softBreak, .lineBreak:
                newline(indent: indent)
            case .emphasis, .strong, .strikethrough:
                let mark: UInt8 = switch node.kind {
                case .emphasis: UInt8(ascii: "_")
                case .strong: UInt8(ascii: "*")
                default: UInt8(ascii: "~")
                }
                if !plain { out.append(mark) }
                inlines(node.children, indent: indent, plain: plain)
                if !plain { out.append(mark) }
            case .link, .image:
                let url = node.url
                let text = Self.plainText(of: node, composed: composed)
                guard !url.isEmpty else {
                    inlines(node.children, indent: indent, plain: plain)
                    continue
                }
                out.append(UInt8(ascii: "<"))
                // A `|` (a character of its own) would end the url: percent-encoded. Most
                // urls have none, and are not read character by character for it.
                escape(url.utf8.contains(UInt8(ascii: "|")) ? url.replacing("|", with: "%7C") : url)
                if text != url, "mailto:" + text != url {
                    out.append(UInt8(ascii: "|"))
                    escape(text)
                }
                out.append(UInt8(ascii: ">"))
            default:
                inlines(node.children, indent: indent, plain: plain)
            }
        }
    }

    /// A mention as Slack links it (`<@U0123>`, `<#C0123>`), anything else as text.
    private mutating func piece(_ piece: ComposedMarkdown.Piece) {
        guard case let .mention(m) = piece else {
            escape(ComposedMarkdown.text(of: piece))
            return
        }
        switch lookup.writtenID(of: m, in: .slack) {
        case let .id(id) where m.trigger == "@" || m.trigger == "#":
            append(AngleMention.opening(for: m))
            escape(id)
            out.append(UInt8(ascii: ">"))
        default:
            escape(lookup.textWithoutAccount(m, in: .slack))
        }
    }

    /// The text of a link's or image's children, placeholders as the text they stand for.
    private static func plainText(of node: MarkdownNode, composed: ComposedMarkdown) -> String {
        var text = ""
        for child in node.children {
            switch child.kind {
            case .text, .code: text += composed.resolved(child.literal)
            case .softBreak, .lineBreak: text += " "
            default: text += plainText(of: child, composed: composed)
            }
        }
        return text
    }

    // MARK: Output

    /// A blank line (holding the quote markers of `indent`), then `indent`.
    private mutating func blankLine(indent: String) {
        var markers = Substring(indent)
        while markers.last == " " { markers.removeLast() }
        newline(indent: String(markers))
        newline(indent: indent)
    }

    private mutating func newline(indent: String) {
        out.append(0x0A)
        append(indent)
    }

    private mutating func append(_ text: String) {
        out.append(contentsOf: text.utf8)
    }

    /// Appends `text` with `&`, `<`, `>` escaped.
    private mutating func escape<S: StringProtocol>(_ text: S) {
        for b in text.utf8 { escape(b) }
    }

    /// Appends the UTF-8 `text` with `&`, `<`, `>` escaped.
    private mutating func escape(_ text: UnsafeBufferPointer<UInt8>) {
        for b in text { escape(b) }
    }

    private mutating func escape(_ b: UInt8) {
        switch b {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        default: out.append(b)
        }
    }
}
