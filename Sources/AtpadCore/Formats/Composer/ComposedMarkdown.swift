import CCmarkGFM

/// A comment's Markdown as cmark-gfm reads it, with its mentions, for the writers that send
/// each chat or tracker what its own composer sends (docs/formats.md, "What each service
/// receives"): Matrix's HTML, Jira's ADF, Slack's mrkdwn.
///
/// Mentions are not Markdown, so each token of the document is replaced by a placeholder
/// before parsing — U+FDD0, its index in decimal, U+FDD1: noncharacters and digits, which
/// no Markdown rule reads, so a placeholder stays whole inside one text node and a name
/// full of `*` or `[` is never read as markup. A U+FDD0 the text itself holds becomes a
/// placeholder too (a `literal` piece), so no text is ever read as a placeholder.
///
/// Before a writer walks the tree, placeholders where a mention cannot be — code, link
/// and image destinations, titles and texts — become the text they stand for, and raw
/// HTML becomes text (chat composers show HTML as typed). A writer then meets a
/// placeholder only in a text node where the service can show a mention.
struct ComposedMarkdown {
    /// What a placeholder stands for.
    enum Piece {
        case mention(Mention)
        /// Text that held U+FDD0.
        case literal(String)
    }

    /// One piece of a text node's literal: text, or the piece a placeholder stands for.
    enum Segment {
        case text(Substring)
        case piece(Piece)
    }

    /// The Markdown source with placeholders.
    private(set) var source: [UInt8] = []
    private(set) var pieces: [Piece] = []

    // Swift's literals refuse noncharacters: the scalars are made from their values.
    private static let openScalar = Unicode.Scalar(0xFDD0 as UInt32)!
    private static let closeScalar = Unicode.Scalar(0xFDD1 as UInt32)!
    private static let open: [UInt8] = [0xEF, 0xB7, 0x90] // U+FDD0
    private static let close: [UInt8] = [0xEF, 0xB7, 0x91] // U+FDD1

    /// `doc`'s text with each token `format` writes as a placeholder.
    init(_ doc: MarkedText, format: DocumentFormat) {
        source.reserveCapacity(doc.text.utf8.count + doc.mentions.count * 8 + 16)
        MentionRuns.forEach(in: doc, format: format, plain: { run, _ in
            appendText(run)
        }, token: { m in
            appendPlaceholder(.mention(m))
        })
    }

    private mutating func appendPlaceholder(_ piece: Piece) {
        source += Self.open
        source += Array(String(pieces.count).utf8)
        source += Self.close
        pieces.append(piece)
    }

    /// Appends text, a U+FDD0 in it as a placeholder of itself.
    private mutating func appendText(_ run: UnsafeBufferPointer<UInt8>) {
        var start = 0, i = 0
        while i + 2 < run.count {
            if run[i] == 0xEF, run[i + 1] == 0xB7, run[i + 2] == 0x90 {
                source.append(contentsOf: run[start ..< i])
                appendPlaceholder(.literal(String(Character(Self.openScalar))))
                i += 3
                start = i
            } else {
                i += 1
            }
        }
        source.append(contentsOf: run[start...])
    }

    /// The text `piece` stands for where a mention cannot be shown: the mention as written
    /// in the document (`@John Doe`).
    static func text(of piece: Piece) -> String {
        switch piece {
        case let .mention(m): m.text
        case let .literal(text): text
        }
    }

    /// `literal` split at its placeholders.
    func segments(_ literal: String) -> [Segment] {
        guard literal.utf8.contains(0xEF) else { return [.text(Substring(literal))] }
        var out: [Segment] = []
        var scalars = literal.unicodeScalars[...]
        var textStart = scalars.startIndex
        while let at = scalars.firstIndex(of: Self.openScalar) {
            let digits = scalars[scalars.index(after: at)...].prefix { ("0" ... "9").contains($0) }
            let closing = digits.endIndex
            guard closing < scalars.endIndex, scalars[closing] == Self.closeScalar,
                  let index = Int(String(digits)), index < pieces.count else {
                scalars = scalars[scalars.index(after: at)...]
                continue
            }
            if textStart < at { out.append(.text(Substring(literal.unicodeScalars[textStart ..< at]))) }
            out.append(.piece(pieces[index]))
            textStart = scalars.index(after: closing)
            scalars = scalars[textStart...]
        }
        if textStart < literal.unicodeScalars.endIndex { out.append(.text(Substring(literal.unicodeScalars[textStart...]))) }
        return out
    }

    /// `literal` with every placeholder replaced by the text it stands for.
    func resolved(_ literal: String) -> String {
        guard literal.utf8.contains(0xEF) else { return literal }
        var out = ""
        for segment in segments(literal) {
            switch segment {
            case let .text(text): out += text
            case let .piece(piece): out += Self.text(of: piece)
            }
        }
        return out
    }

    /// Parses the source as GitHub does and calls `body` with the prepared tree and the
    /// parser's extensions (for `cmark_render_html`), while the parser lives. One parse at
    /// a time in the process (``MarkdownSyntax/withParser(_:)``).
    func withTree<T>(_ body: (MarkdownNode, UnsafeMutablePointer<cmark_llist>?) -> T) -> T {
        MarkdownSyntax.withParser {
            let parser = cmark_parser_new(CMARK_OPT_DEFAULT)
            defer { cmark_parser_free(parser) }
            for name in MarkdownSyntax.extensionNames {
                if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
            }
            source.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { cmark_parser_feed(parser, $0, bytes.count) }
                }
            }
            let root = cmark_parser_finish(parser)!
            defer { cmark_node_free(root) }
            cmark_consolidate_text_nodes(root)
            prepare(MarkdownNode(root), inLink: false)
            // Raw HTML made text joins the text around it: one run, one node.
            cmark_consolidate_text_nodes(root)
            return body(MarkdownNode(root), cmark_parser_get_syntax_extensions(parser))
        }
    }

    /// Resolves placeholders where no mention can be and turns raw HTML into text.
    private func prepare(_ node: MarkdownNode, inLink: Bool) {
        var child = node.firstChild
        while let c = child {
            let next = c.next
            switch c.kind {
            case .code, .codeBlock:
                c.literal = resolved(c.literal)
                if c.kind == .codeBlock { c.fenceInfo = resolved(c.fenceInfo) }
            case .text:
                if inLink { c.literal = resolved(c.literal) }
            case .htmlInline:
                c.replace(with: MarkdownNode.text(inLink ? resolved(c.literal) : c.literal))
            case .htmlBlock:
                // A paragraph of its lines, each break a hard one, as typed.
                let paragraph = MarkdownNode(cmark_node_new(CMARK_NODE_PARAGRAPH))
                var lines = c.literal.split(separator: "\n", omittingEmptySubsequences: false)
                while lines.last?.isEmpty == true { lines.removeLast() }
                for (i, line) in lines.enumerated() {
                    if i > 0 { paragraph.append(MarkdownNode(cmark_node_new(CMARK_NODE_LINEBREAK))) }
                    if !line.isEmpty { paragraph.append(MarkdownNode.text(String(line))) }
                }
                c.replace(with: paragraph)
            case .link, .image:
                c.url = resolved(c.url)
                c.title = resolved(c.title)
                prepare(c, inLink: true)
            default:
                prepare(c, inLink: inLink)
            }
            child = next
        }
    }
}

/// A node of cmark-gfm's tree, named by what it is.
struct MarkdownNode {
    enum Kind {
        case document, quote, list, item, codeBlock, htmlBlock, paragraph, heading, rule
        case table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, strikethrough, link, image
        case other
    }

    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// A new text node holding `literal`.
    static func text(_ literal: String) -> MarkdownNode {
        let node = MarkdownNode(cmark_node_new(CMARK_NODE_TEXT))
        node.literal = literal
        return node
    }

    var kind: Kind {
        switch cmark_node_get_type(pointer) {
        case CMARK_NODE_DOCUMENT: .document
        case CMARK_NODE_BLOCK_QUOTE: .quote
        case CMARK_NODE_LIST: .list
        case CMARK_NODE_ITEM: .item
        case CMARK_NODE_CODE_BLOCK: .codeBlock
        case CMARK_NODE_HTML_BLOCK: .htmlBlock
        case CMARK_NODE_PARAGRAPH: .paragraph
        case CMARK_NODE_HEADING: .heading
        case CMARK_NODE_THEMATIC_BREAK: .rule
        case CMARK_NODE_TEXT: .text
        case CMARK_NODE_SOFTBREAK: .softBreak
        case CMARK_NODE_LINEBREAK: .lineBreak
        case CMARK_NODE_CODE: .code
        case CMARK_NODE_HTML_INLINE: .htmlInline
        case CMARK_NODE_EMPH: .emphasis
        case CMARK_NODE_STRONG: .strong
        case CMARK_NODE_LINK: .link
        case CMARK_NODE_IMAGE: .image
        default:
            // The extensions' types are numbered when they register: known by name.
            switch cmark_node_get_type_string(pointer).map({ String(cString: $0) }) {
            case "strikethrough": .strikethrough
            case "table": .table
            case "table_row": .tableRow
            case "table_cell": .tableCell
            case "tasklist": .item
            default: .other
            }
        }
    }

    var firstChild: MarkdownNode? { cmark_node_first_child(pointer).map(MarkdownNode.init) }
    var next: MarkdownNode? { cmark_node_next(pointer).map(MarkdownNode.init) }
    var parent: MarkdownNode? { cmark_node_parent(pointer).map(MarkdownNode.init) }

    /// The children, in order.
    var children: [MarkdownNode] {
        var out: [MarkdownNode] = []
        var child = firstChild
        while let c = child {
            out.append(c)
            child = c.next
        }
        return out
    }

    var literal: String {
        get { cmark_node_get_literal(pointer).map { String(cString: $0) } ?? "" }
        nonmutating set { cmark_node_set_literal(pointer, newValue) }
    }

    var fenceInfo: String {
        get { cmark_node_get_fence_info(pointer).map { String(cString: $0) } ?? "" }
        nonmutating set { cmark_node_set_fence_info(pointer, newValue) }
    }

    var url: String {
        get { cmark_node_get_url(pointer).map { String(cString: $0) } ?? "" }
        nonmutating set { cmark_node_set_url(pointer, newValue) }
    }

    var title: String {
        get { cmark_node_get_title(pointer).map { String(cString: $0) } ?? "" }
        nonmutating set { cmark_node_set_title(pointer, newValue) }
    }

    var headingLevel: Int { Int(cmark_node_get_heading_level(pointer)) }
    var isOrderedList: Bool { cmark_node_get_list_type(pointer) == CMARK_ORDERED_LIST }
    var listStart: Int { Int(cmark_node_get_list_start(pointer)) }
    var isTightList: Bool { cmark_node_get_list_tight(pointer) != 0 }

    /// For a tasklist item, whether it is checked; nil for any other node.
    var taskChecked: Bool? {
        guard cmark_node_get_type_string(pointer).map({ String(cString: $0) }) == "tasklist" else { return nil }
        return cmark_gfm_extensions_get_tasklist_item_checked(pointer)
    }

    /// Whether this row is a table's header.
    var isHeaderRow: Bool { cmark_gfm_extensions_get_table_row_is_header(pointer) != 0 }

    /// The language a code block's info string names (its first word), if any.
    var language: String? {
        let word = fenceInfo.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        return word.flatMap { $0.isEmpty ? nil : $0 }
    }

    func append(_ child: MarkdownNode) {
        cmark_node_append_child(pointer, child.pointer)
    }

    /// Puts `node` where this node is, and frees this one.
    func replace(with node: MarkdownNode) {
        cmark_node_insert_before(pointer, node.pointer)
        cmark_node_unlink(pointer)
        cmark_node_free(pointer)
    }
}
