/// Writes a comment's Markdown (``ComposedMarkdown``) as the content of an Atlassian
/// Document Format `doc`, the structure Jira's own editor makes of it (docs/formats.md,
/// "What each service receives"): headings, paragraphs, bullet and ordered lists, code
/// blocks with their language, block quotes, rules and tables; `strong`, `em`, `strike`,
/// `code` and `link` marks; `mention` nodes; every line break a `hardBreak`.
///
/// Every node obeys ADF's rules of what a node may hold and which marks a text may carry:
/// where Markdown nests what ADF does not allow, the block is written in the nearest
/// form ADF takes — a heading inside a quote or a list item becomes a paragraph in bold, a
/// quote inside a quote or an item gives its blocks to the outer one, a table or a rule
/// there becomes paragraphs of its text; a list item that starts with a list starts with
/// an empty paragraph; `code` keeps only a link beside it; a mention carries no mark. A
/// text node is never empty.
struct ADFMarkdown {
    /// What holds a run of blocks, for the rules of what it may hold.
    private enum Container {
        case doc, quote, item, cell
    }

    /// The marks of a run of text.
    private struct Marks: Equatable {
        var strong = false
        var em = false
        var strike = false
        var code = false
        var link: (href: String, title: String)?

        static func == (a: Marks, b: Marks) -> Bool {
            a.strong == b.strong && a.em == b.em && a.strike == b.strike && a.code == b.code
                && a.link?.href == b.link?.href && a.link?.title == b.link?.title
        }
    }

    /// The text of the inline content being written that has not become a node yet: text
    /// that follows with the same marks joins it, so one run of text is one node, as
    /// Jira's editor makes it (`**a**` next to `**b**`, a mention written as text beside
    /// the words around it).
    private struct PendingText {
        var bytes: [UInt8] = []
        var marks = Marks()
    }

    let composed: ComposedMarkdown
    let lookup: EntityLookup
    /// Text to put before the next paragraph's inlines: a task item's box (`[ ] `).
    private var pendingPrefix: String?

    init(composed: ComposedMarkdown, lookup: EntityLookup) {
        self.composed = composed
        self.lookup = lookup
    }

    /// Writes the blocks of `root` (a document) as the elements of an array.
    mutating func writeContent(of root: MarkdownNode, to writer: inout JSONWriter) {
        var first = false
        blocks(root.children, in: .doc, first: &first, to: &writer)
    }

    // MARK: Blocks

    /// Writes `nodes` as blocks `container` may hold. `first` is whether nothing has been
    /// written in a list item yet (its first block must be a paragraph or code block).
    private mutating func blocks(_ nodes: MarkdownNode.Children, in container: Container, first: inout Bool, to writer: inout JSONWriter) {
        for node in nodes { block(node, in: container, first: &first, to: &writer) }
    }

    private mutating func block(_ node: MarkdownNode, in container: Container, first: inout Bool, to writer: inout JSONWriter) {
        switch node.kind {
        case .paragraph:
            paragraph(node.children, bold: false, to: &writer)
            first = false
        case .heading:
            if container == .doc || container == .cell {
                writer.object { writer in
                    writer.key("type")
                    writer.string("heading")
                    writer.key("attrs")
                    writer.object { writer in
                        writer.key("level")
                        writer.number(min(max(node.headingLevel, 1), 6))
                    }
                    writer.key("content")
                    writer.array { writer in
                        var pending = PendingText()
                        inlines(node.children, marks: Marks(), inHeading: true, pending: &pending, to: &writer)
                        flush(&pending, to: &writer)
                    }
                }
            } else {
                paragraph(node.children, bold: true, to: &writer)
            }
            first = false
        case .codeBlock:
            if pendingPrefix != nil { paragraph(.none, bold: false, to: &writer) }
            writer.object { writer in
                writer.key("type")
                writer.string("codeBlock")
                if let language = node.language.map(composed.resolved) {
                    writer.key("attrs")
                    writer.object { writer in
                        writer.key("language")
                        writer.string(language)
                    }
                }
                writer.key("content")
                writer.array { writer in
                    var code = composed.resolved(node.literal)
                    if code.hasSuffix("\n") { code.removeLast() }
                    var pending = PendingText()
                    text(code, marks: Marks(), pending: &pending, to: &writer)
                    flush(&pending, to: &writer)
                }
            }
            first = false
        case .list:
            if first || pendingPrefix != nil {
                // A list item's first block is a paragraph (or code block), never a list.
                paragraph(.none, bold: false, to: &writer)
                first = false
            }
            list(node, to: &writer)
        case .quote:
            if container == .doc || container == .cell {
                writer.object { writer in
                    writer.key("type")
                    writer.string("blockquote")
                    writer.key("content")
                    writer.array { writer in
                        var none = true
                        blocks(node.children, in: .quote, first: &none, to: &writer)
                        // ADF's blockquote holds at least one block.
                        if none { paragraph(.none, bold: false, to: &writer) }
                    }
                }
            } else {
                // ADF nests no quote in a quote or a list item: its blocks join the outer one.
                blocks(node.children, in: container, first: &first, to: &writer)
            }
        case .rule:
            if container == .doc || container == .cell {
                writer.object { writer in
                    writer.key("type")
                    writer.string("rule")
                }
            } else {
                textParagraph("---", to: &writer)
                first = false
            }
        case .table:
            if container == .doc {
                table(node, to: &writer)
            } else {
                // A table only at the top: elsewhere each row is a paragraph, cells joined by `|`.
                for row in node.children {
                    writer.object { writer in
                        writer.key("type")
                        writer.string("paragraph")
                        writer.key("content")
                        writer.array { writer in
                            var pending = PendingText()
                            for (i, cell) in row.children.enumerated() {
                                if i > 0 { text(" | ", marks: Marks(), pending: &pending, to: &writer) }
                                inlines(cell.children, marks: Marks(strong: row.isHeaderRow), inHeading: false,
                                        pending: &pending, to: &writer)
                            }
                            flush(&pending, to: &writer)
                        }
                    }
                }
                first = false
            }
        default:
            blocks(node.children, in: container, first: &first, to: &writer)
        }
    }

    /// A paragraph of `nodes` (inlines), in bold when it stands for a heading.
    private mutating func paragraph(_ nodes: MarkdownNode.Children, bold: Bool, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            writer.string("paragraph")
            writer.key("content")
            writer.array { writer in
                var pending = PendingText()
                if let prefix = pendingPrefix {
                    text(prefix, marks: Marks(), pending: &pending, to: &writer)
                    pendingPrefix = nil
                }
                inlines(nodes, marks: Marks(strong: bold), inHeading: false, pending: &pending, to: &writer)
                flush(&pending, to: &writer)
            }
        }
    }

    private mutating func textParagraph(_ content: String, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            writer.string("paragraph")
            writer.key("content")
            writer.array { writer in
                var pending = PendingText()
                text(content, marks: Marks(), pending: &pending, to: &writer)
                flush(&pending, to: &writer)
            }
        }
    }

    private mutating func list(_ node: MarkdownNode, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            writer.string(node.isOrderedList ? "orderedList" : "bulletList")
            if node.isOrderedList, node.listStart != 1 {
                writer.key("attrs")
                writer.object { writer in
                    writer.key("order")
                    writer.number(max(node.listStart, 0))
                }
            }
            writer.key("content")
            writer.array { writer in
                for item in node.children {
                    writer.object { writer in
                        writer.key("type")
                        writer.string("listItem")
                        writer.key("content")
                        writer.array { writer in
                            if let checked = item.taskChecked { pendingPrefix = checked ? "[x] " : "[ ] " }
                            var first = true
                            blocks(item.children, in: .item, first: &first, to: &writer)
                            // An empty item (or one whose box is all it holds) is one paragraph.
                            if first || pendingPrefix != nil { paragraph(.none, bold: false, to: &writer) }
                        }
                    }
                }
            }
        }
    }

    private mutating func table(_ node: MarkdownNode, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            writer.string("table")
            writer.key("content")
            writer.array { writer in
                for row in node.children {
                    writer.object { writer in
                        writer.key("type")
                        writer.string("tableRow")
                        writer.key("content")
                        writer.array { writer in
                            for cell in row.children {
                                writer.object { writer in
                                    writer.key("type")
                                    writer.string(row.isHeaderRow ? "tableHeader" : "tableCell")
                                    writer.key("content")
                                    writer.array { writer in paragraph(cell.children, bold: false, to: &writer) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Inlines

    private func inlines(_ nodes: MarkdownNode.Children, marks: Marks, inHeading: Bool, pending: inout PendingText,
                         to writer: inout JSONWriter) {
        for node in nodes {
            switch node.kind {
            case .text:
                composed.forEachSegment(of: node.literalBytes) { run in
                    text(run, marks: marks, pending: &pending, to: &writer)
                } piece: { piece in
                    self.piece(piece, marks: marks, pending: &pending, to: &writer)
                }
            case .code:
                var codeMarks = Marks(code: true)
                codeMarks.link = marks.link
                text(composed.resolved(node.literal), marks: codeMarks, pending: &pending, to: &writer)
            case .softBreak, .lineBreak:
                if inHeading {
                    text(" ", marks: marks, pending: &pending, to: &writer)
                } else {
                    flush(&pending, to: &writer)
                    writer.object { writer in
                        writer.key("type")
                        writer.string("hardBreak")
                    }
                }
            case .emphasis:
                var inner = marks
                inner.em = true
                inlines(node.children, marks: inner, inHeading: inHeading, pending: &pending, to: &writer)
            case .strong:
                var inner = marks
                inner.strong = true
                inlines(node.children, marks: inner, inHeading: inHeading, pending: &pending, to: &writer)
            case .strikethrough:
                var inner = marks
                inner.strike = true
                inlines(node.children, marks: inner, inHeading: inHeading, pending: &pending, to: &writer)
            case .link, .image:
                var inner = marks
                let href = node.url
                if !href.isEmpty { inner.link = (href, composed.resolved(node.title)) }
                inlines(node.children, marks: inner, inHeading: inHeading, pending: &pending, to: &writer)
            default:
                inlines(node.children, marks: marks, inHeading: inHeading, pending: &pending, to: &writer)
            }
        }
    }

    /// A mention node for a person Jira can notify; anything else as text.
    private func piece(_ piece: ComposedMarkdown.Piece, marks: Marks, pending: inout PendingText,
                       to writer: inout JSONWriter) {
        guard case let .mention(m) = piece else {
            text(ComposedMarkdown.text(of: piece), marks: marks, pending: &pending, to: &writer)
            return
        }
        if m.trigger == "@", let id = JiraFormat.accountID(of: m, lookup: lookup) {
            flush(&pending, to: &writer)
            ADFFormat.writeMention(id: id, text: m.text, to: &writer)
        } else {
            text(lookup.textWithoutAccount(m, in: .jira), marks: marks, pending: &pending, to: &writer)
        }
    }

    /// Text with `marks`: it joins the pending text when that has the same marks, else
    /// the pending text is written and this becomes it.
    private func text(_ content: String, marks: Marks, pending: inout PendingText, to writer: inout JSONWriter) {
        var content = content
        content.withUTF8 { text($0, marks: marks, pending: &pending, to: &writer) }
    }

    private func text(_ content: UnsafeBufferPointer<UInt8>, marks: Marks, pending: inout PendingText,
                      to writer: inout JSONWriter) {
        guard !content.isEmpty else { return }
        if pending.bytes.isEmpty || pending.marks != marks {
            flush(&pending, to: &writer)
            pending.marks = marks
        }
        pending.bytes.append(contentsOf: content)
    }

    /// Writes the pending text as a text node, unless there is none (ADF refuses empty text).
    private func flush(_ pending: inout PendingText, to writer: inout JSONWriter) {
        guard !pending.bytes.isEmpty else { return }
        pending.bytes.withUnsafeBufferPointer { node($0, marks: pending.marks, to: &writer) }
        pending.bytes.removeAll(keepingCapacity: true)
    }

    /// A text node of the UTF-8 `content` with `marks`.
    private func node(_ content: UnsafeBufferPointer<UInt8>, marks: Marks, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            writer.string("text")
            writer.key("text")
            writer.string(utf8: content)
            let hasMarks = marks.strong || marks.em || marks.strike || marks.code || marks.link != nil
            guard hasMarks else { return }
            writer.key("marks")
            writer.array { writer in
                // ADF lets `code` sit beside a link only.
                func mark(_ name: String) {
                    writer.object { writer in
                        writer.key("type")
                        writer.string(name)
                    }
                }
                if marks.code {
                    mark("code")
                } else {
                    if marks.strong { mark("strong") }
                    if marks.em { mark("em") }
                    if marks.strike { mark("strike") }
                }
                if let link = marks.link {
                    writer.object { writer in
                        writer.key("type")
                        writer.string("link")
                        writer.key("attrs")
                        writer.object { writer in
                            writer.key("href")
                            writer.string(link.href)
                            if !link.title.isEmpty {
                                writer.key("title")
                                writer.string(link.title)
                            }
                        }
                    }
                }
            }
        }
    }
}
