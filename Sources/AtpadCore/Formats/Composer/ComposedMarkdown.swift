import CCmarkGFM
import Glibc

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
/// Before a writer walks the tree, mention placeholders where a mention cannot be — code,
/// link and image titles and texts — become the mention's text (destinations become
/// their whole text: nothing reads them again), and raw
/// HTML becomes text (chat composers show HTML as typed). A writer then meets a mention
/// placeholder only in a text node where the service can show a mention. Literal
/// placeholders (the text's own U+FDD0) stay placeholders everywhere until a writer
/// writes them out (``resolved(_:)``, `forEachSegment`): resolved twice, a typed
/// `U+FDD0 0 U+FDD1` would read as a placeholder the second time.
///
/// A comment read from a Markdown file comes with the parse its reader made
/// (``ParsedMarkdown``): when that parse is of the same text and each mention lies whole in
/// one of its text nodes, the placeholders are written into those nodes instead of parsing
/// again — the same tree, since a placeholder, like a mention's text there, is read as
/// text. The one place they could differ is an emphasis mark right against a mention (the
/// trigger is punctuation, a placeholder is not): there the text is parsed again
/// (``flankedAlike(_:_:)``).
final class ComposedMarkdown {
    /// What a placeholder stands for.
    enum Piece {
        case mention(Mention)
        /// Text that held U+FDD0.
        case literal(String)
    }

    /// The Markdown source with placeholders (empty while the kept parse is used).
    private(set) var source: [UInt8] = []
    private(set) var pieces: [Piece] = []
    /// The index of the one literal piece (a U+FDD0), once the text or a mention needs it.
    private var literalIndex: Int?
    /// The parse kept when the comment was read, when it holds this text with these
    /// mentions (piece `k` is the mention at `reused.mentions[k]`).
    private var reused: ParsedMarkdown?
    /// The document and format, to make the source if the kept parse cannot be used.
    private let doc: MarkedText
    private let format: DocumentFormat
    /// Whether the text ends with a line feed.
    var endsWithLineFeed: Bool { doc.text.utf8.last == 0x0A }
    /// The length of the text in bytes.
    var textCount: Int { doc.text.utf8.count }

    // Swift's literals refuse noncharacters: the scalar is made from its value.
    private static let openScalar = Unicode.Scalar(0xFDD0 as UInt32)!
    private static let open: [UInt8] = [0xEF, 0xB7, 0x90] // U+FDD0
    private static let close: [UInt8] = [0xEF, 0xB7, 0x91] // U+FDD1

    /// `doc`'s text with each token `format` writes as a placeholder; `parse`, when `doc`
    /// was read from Markdown, is used in place of parsing that if it can be.
    init(_ doc: MarkedText, format: DocumentFormat, reusing parse: ParsedMarkdown? = nil) {
        self.doc = doc
        self.format = format
        if let parse, let pieces = Self.pieces(of: doc, format: format, matching: parse) {
            self.pieces = pieces
            reused = parse
            return
        }
        makeSource()
    }

    /// The mentions `format` writes as tokens, when `parse` is of `doc`'s text with those
    /// mentions where `parse.mentions` has them, and no U+FDD0 is in the text or a mention.
    private static func pieces(of doc: MarkedText, format: DocumentFormat, matching parse: ParsedMarkdown) -> [Piece]? {
        let mentions = parse.mentions
        var pieces: [Piece] = []
        pieces.reserveCapacity(mentions.count)
        var at = 0
        var same = true
        parse.text.withUnsafeBufferPointer { text in
            MentionRuns.forEach(in: doc, format: format, plain: { run, _ in
                guard same else { return }
                let end = at + run.count
                guard end <= text.count, (pieces.count == mentions.count ? end == text.count : end == mentions[pieces.count].lowerBound),
                      run.isEmpty || memcmp(text.baseAddress! + at, run.baseAddress!, run.count) == 0 else {
                    same = false
                    return
                }
                at = end
            }, token: { m in
                guard same, pieces.count < mentions.count, !Self.holdsOpen(m.text) else {
                    same = false
                    return
                }
                at = mentions[pieces.count].upperBound
                pieces.append(.mention(m))
            })
        }
        guard same, pieces.count == mentions.count, !Self.holdsOpen(parse.text) else { return nil }
        return pieces
    }

    /// Whether `text` holds U+FDD0.
    private static func holdsOpen(_ text: String) -> Bool {
        text.utf8.contains(open[0]) && text.unicodeScalars.contains(openScalar)
    }

    /// Whether UTF-8 `text` holds U+FDD0.
    private static func holdsOpen(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 2 < bytes.count {
                if bytes[i] == open[0], bytes[i + 1] == open[1], bytes[i + 2] == open[2] { return true }
                i += 1
            }
            return false
        }
    }

    private func makeSource() {
        let doc = doc, format = format
        source.reserveCapacity(doc.text.utf8.count + doc.mentions.count * 8 + 16)
        MentionRuns.forEach(in: doc, format: format, plain: { run, _ in
            appendText(run)
        }, token: { m in
            appendPlaceholder(.mention(m))
        })
        // A mention's text with a U+FDD0 keeps it as a literal placeholder where it becomes text.
        if literalIndex == nil, doc.mentions.contains(where: { $0.text.unicodeScalars.contains(Self.openScalar) }) {
            literalIndex = pieces.count
            pieces.append(.literal(String(Character(Self.openScalar))))
        }
    }

    private func appendPlaceholder(_ piece: Piece) {
        Self.appendPlaceholder(pieces.count, to: &source)
        pieces.append(piece)
    }

    /// Appends text, a U+FDD0 in it as a placeholder of itself (one piece for them all).
    private func appendText(_ run: UnsafeBufferPointer<UInt8>) {
        var start = 0, i = 0
        while i + 2 < run.count {
            if run[i] == 0xEF, run[i + 1] == 0xB7, run[i + 2] == 0x90 {
                source.append(contentsOf: run[start ..< i])
                if let literalIndex {
                    Self.appendPlaceholder(literalIndex, to: &source)
                } else {
                    literalIndex = pieces.count
                    appendPlaceholder(.literal(String(Character(Self.openScalar))))
                }
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

    /// Calls `text` with each run of `literal` (UTF-8) between placeholders and `piece`
    /// with what each placeholder stands for, in order; a literal without placeholders is
    /// one run, even empty.
    func forEachSegment(of literal: UnsafeBufferPointer<UInt8>, text: (UnsafeBufferPointer<UInt8>) -> Void,
                        piece: (Piece) -> Void) {
        let open = Self.open, close = Self.close
        var textStart = 0, i = 0
        var found = false
        while i + 2 < literal.count {
            guard literal[i] == open[0], literal[i + 1] == open[1], literal[i + 2] == open[2] else {
                i += 1
                continue
            }
            // The digits of an index this document has, then the closing scalar.
            var j = i + 3, index = 0, overflow = false
            while j < literal.count, literal[j] >= UInt8(ascii: "0"), literal[j] <= UInt8(ascii: "9") {
                let (times, o1) = index.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int(literal[j] - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                index = sum
                j += 1
            }
            guard j > i + 3, !overflow, index < pieces.count, j + 2 < literal.count,
                  literal[j] == close[0], literal[j + 1] == close[1], literal[j + 2] == close[2] else {
                i += 3
                continue
            }
            if textStart < i { text(UnsafeBufferPointer(rebasing: literal[textStart ..< i])) }
            piece(pieces[index])
            found = true
            i = j + 3
            textStart = i
        }
        if !found || textStart < literal.count { text(UnsafeBufferPointer(rebasing: literal[textStart...])) }
    }

    /// `literal` with each mention placeholder replaced by the mention's text (its U+FDD0s
    /// as literal placeholders) and the literal placeholders kept: what a place where no
    /// mention can be holds until a writer writes it out (``resolved(_:)``).
    func withMentionsAsText(_ literal: String) -> String {
        guard literal.utf8.contains(Self.open[0]) else { return literal }
        var out: [UInt8] = []
        var literal = literal
        literal.withUTF8 { bytes in
            forEachSegment(of: bytes, text: { out.append(contentsOf: $0) }, piece: { piece in
                switch piece {
                case let .mention(m):
                    // Its U+FDD0s (rare: a name of noncharacters) become the literal placeholder.
                    guard let literalIndex, m.text.unicodeScalars.contains(Self.openScalar) else {
                        out.append(contentsOf: m.text.utf8)
                        return
                    }
                    for s in m.text.unicodeScalars {
                        if s == Self.openScalar { Self.appendPlaceholder(literalIndex, to: &out) } else { out += UTF8.encode(s)! }
                    }
                case .literal:
                    if let literalIndex { Self.appendPlaceholder(literalIndex, to: &out) }
                }
            })
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `literal` with every placeholder replaced by the text it stands for: what a writer
    /// writes out, once.
    func resolved(_ literal: String) -> String {
        guard literal.utf8.contains(Self.open[0]) else { return literal }
        var out: [UInt8] = []
        var literal = literal
        literal.withUTF8 { bytes in
            forEachSegment(of: bytes, text: { out.append(contentsOf: $0) }, piece: { out.append(contentsOf: Self.text(of: $0).utf8) })
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses the source as GitHub does (or takes the kept parse) and calls `body` with the
    /// prepared tree and the parser's extensions (for `cmark_render_html`), while the parser
    /// lives. One parse at a time in the process (``MarkdownSyntax/withParser(_:)``).
    func withTree<T>(_ body: (MarkdownNode, UnsafeMutablePointer<cmark_llist>?) -> T) -> T {
        // The kept parse has placeholders only in text outside links, where they stay:
        // there is nothing to prepare unless it holds raw HTML.
        if let reused, let written = reused.use({ tree in
            placePieces(in: tree, of: reused)
                ? prepared(tree.root, parser: tree.parser, preparing: tree.holdsHTML, body) : nil
        }), let written {
            return written
        }
        if reused != nil {
            // The kept parse could not be used: the text is parsed after all (the writers
            // holding this see the same pieces).
            reused = nil
            pieces = []
            makeSource()
        }
        return parsedSource(body)
    }

    private func parsedSource<T>(_ body: (MarkdownNode, UnsafeMutablePointer<cmark_llist>?) -> T) -> T {
        // Reading inlines happens in `cmark_parser_finish`: inside the one-parse-at-a-time lock.
        let (parser, root): (OpaquePointer, OpaquePointer) = MarkdownSyntax.withParser {
            let parser = cmark_parser_new(CMARK_OPT_DEFAULT)!
            for name in MarkdownSyntax.extensionNames {
                if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
            }
            source.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { cmark_parser_feed(parser, $0, bytes.count) }
                }
            }
            return (parser, cmark_parser_finish(parser)!)
        }
        defer {
            cmark_node_free(root)
            cmark_parser_free(parser)
        }
        return prepared(root, parser: parser, body)
    }

    private func prepared<T>(_ root: OpaquePointer, parser: OpaquePointer, preparing: Bool = true,
                             _ body: (MarkdownNode, UnsafeMutablePointer<cmark_llist>?) -> T) -> T {
        // Raw HTML made text joins the text around it: one run, one node. The parser
        // leaves no two text nodes side by side, so most trees need no second pass.
        if preparing, prepare(MarkdownNode(root), inLink: false) { cmark_consolidate_text_nodes(root) }
        return body(MarkdownNode(root), cmark_parser_get_syntax_extensions(parser))
    }

    /// Writes each mention's placeholder into the text node of the kept parse that holds
    /// the mention's text; false, changing nothing, when one is not whole in one text node
    /// or an emphasis mark next to it could read differently.
    private func placePieces(in tree: ParsedMarkdown.Tree, of parse: ParsedMarkdown) -> Bool {
        // Per mention: the node (an index into textNodes) and where in its literal it lies.
        var places: [(node: Int, start: Int, end: Int)] = []
        places.reserveCapacity(parse.mentions.count)
        let found: Bool = parse.text.withUnsafeBufferPointer { bytes in
            var n = 0
            let nodes = tree.textNodes
            for range in parse.mentions {
                while n < nodes.count, nodes[n].range.upperBound < range.upperBound { n += 1 }
                guard n < nodes.count, nodes[n].range.lowerBound <= range.lowerBound, Self.flankedAlike(bytes, range),
                      let start = MarkdownSyntax.literalOffset(of: range.lowerBound, in: nodes[n], bytes: bytes) else { return false }
                // A verbatim node's literal is its bytes; another's must spell the mention there.
                if !nodes[n].verbatim {
                    let literal = MarkdownNode(nodes[n].pointer).literalBytes
                    guard start + range.count <= literal.count,
                          memcmp(literal.baseAddress! + start, bytes.baseAddress! + range.lowerBound, range.count) == 0 else {
                        return false
                    }
                }
                places.append((n, start, start + range.count))
            }
            return true
        }
        guard found else { return false }
        var out: [UInt8] = []
        var k = 0
        while k < places.count {
            let n = places[k].node
            let pointer = tree.textNodes[n].pointer
            let literal = MarkdownNode(pointer).literalBytes
            out.removeAll(keepingCapacity: true)
            out.reserveCapacity(literal.count + 16)
            var at = 0
            while k < places.count, places[k].node == n {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: literal[at ..< places[k].start]))
                Self.appendPlaceholder(k, to: &out)
                at = places[k].end
                k += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: literal[at...]))
            out.append(0)
            out.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_literal(pointer, $0.baseAddress) }
            }
        }
        return true
    }

    /// Appends the bytes of the placeholder of piece `index`.
    private static func appendPlaceholder(_ index: Int, to out: inout [UInt8]) {
        out.append(contentsOf: open)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = index, k = buffer.count
            repeat {
                k -= 1
                buffer[k] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[k...]))
        }
        out.append(contentsOf: close)
    }

    /// Whether Markdown reads the emphasis marks around the mention at `range` the same
    /// with a placeholder there (which, unlike the trigger, is not punctuation): no `*`,
    /// `_` or `~` against its start unless their run follows a blank or a line's start,
    /// none against its end unless it ends with a letter or digit, and no backslash before it.
    static func flankedAlike(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        func isMark(_ b: UInt8) -> Bool { b == UInt8(ascii: "*") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~") }
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool { scalar != "_" && CharacterClass.isWord(scalar) }
        let start = range.lowerBound, end = range.upperBound
        if start > 0 {
            let before = bytes[start - 1]
            if before == UInt8(ascii: "\\") { return false }
            if isMark(before), !isLetterOrDigit(UTF8Scan.scalar(in: bytes, at: start).0) {
                var j = start - 1
                while j > 0, bytes[j - 1] == before { j -= 1 }
                if j > 0, !isBlank(bytes[j - 1]) { return false }
            }
        }
        if end < bytes.count, isMark(bytes[end]),
           let last = UTF8Scan.scalar(in: bytes, before: end), !isLetterOrDigit(last) {
            return false
        }
        return true
    }

    /// Resolves placeholders where no mention can be and turns raw HTML into text. Returns
    /// whether two text nodes may now be side by side (raw HTML became text, or the parser
    /// left them so), for `cmark_consolidate_text_nodes` to join.
    private func prepare(_ node: MarkdownNode, inLink: Bool) -> Bool {
        var adjacentText = false
        var child = node.firstChild
        while let c = child {
            let next = c.next
            switch c.kind {
            case .code, .codeBlock:
                resolve(c, \.literal)
                if c.kind == .codeBlock { resolve(c, \.fenceInfo) }
            case .text:
                if inLink { resolve(c, \.literal) }
                if next?.kind == .text { adjacentText = true }
            case .htmlInline:
                c.replace(with: MarkdownNode.text(inLink ? withMentionsAsText(c.literal) : c.literal))
                adjacentText = true
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
                // A destination is written as it is (Matrix's HTML percent-encodes it, so
                // nothing reads it again): resolved now, once.
                if c.url.utf8.contains(Self.open[0]) { c.url = resolved(c.url) }
                resolve(c, \.title)
                if prepare(c, inLink: true) { adjacentText = true }
            default:
                if prepare(c, inLink: inLink) { adjacentText = true }
            }
            child = next
        }
        return adjacentText
    }

    /// Writes `node`'s `text` back with its mention placeholders as text, if it has any
    /// (a write copies the text into the tree).
    private func resolve(_ node: MarkdownNode, _ text: ReferenceWritableKeyPath<MarkdownNode, String>) {
        let original = node[keyPath: text]
        guard original.utf8.contains(Self.open[0]) else { return }
        node[keyPath: text] = withMentionsAsText(original)
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
            if Self.isNamed(pointer, "strikethrough") { .strikethrough }
            else if Self.isNamed(pointer, "table") { .table }
            else if Self.isNamed(pointer, "table_row") { .tableRow }
            else if Self.isNamed(pointer, "table_cell") { .tableCell }
            else if Self.isNamed(pointer, "tasklist") { .item }
            else { .other }
        }
    }

    /// Whether cmark-gfm names `node`'s type `name` (compared in place: a tree has a
    /// node of an extension's type in every table row).
    static func isNamed(_ node: OpaquePointer, _ name: StaticString) -> Bool {
        guard let type = cmark_node_get_type_string(node) else { return false }
        return name.withUTF8Buffer { name in
            name.withMemoryRebound(to: CChar.self) { strncmp(type, $0.baseAddress!, name.count) == 0 } && type[name.count] == 0
        }
    }

    var firstChild: MarkdownNode? { cmark_node_first_child(pointer).map(MarkdownNode.init) }
    var next: MarkdownNode? { cmark_node_next(pointer).map(MarkdownNode.init) }
    var parent: MarkdownNode? { cmark_node_parent(pointer).map(MarkdownNode.init) }

    /// The children, in order, read from the tree as they are walked (a writer visits
    /// every node of a long comment: no array is made for each).
    var children: Children { Children(first: cmark_node_first_child(pointer)) }

    /// A node's children, first to last.
    struct Children: Sequence {
        let first: OpaquePointer?

        /// No nodes.
        static var none: Children { Children(first: nil) }

        struct Iterator: IteratorProtocol {
            var node: OpaquePointer?

            mutating func next() -> MarkdownNode? {
                guard let current = node else { return nil }
                node = cmark_node_next(current)
                return MarkdownNode(current)
            }
        }

        func makeIterator() -> Iterator { Iterator(node: first) }
    }

    var literal: String {
        get { cmark_node_get_literal(pointer).map { String(cString: $0) } ?? "" }
        nonmutating set { cmark_node_set_literal(pointer, newValue) }
    }

    /// The literal as the UTF-8 bytes cmark-gfm holds, not copied (a long comment has a
    /// text node every few words): valid until the node changes or is freed.
    var literalBytes: UnsafeBufferPointer<UInt8> { Self.bytes(of: cmark_node_get_literal(pointer)) }

    /// The bytes of a C string cmark-gfm holds; none for nil.
    static func bytes(of string: UnsafePointer<CChar>?) -> UnsafeBufferPointer<UInt8> {
        guard let string else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self), count: strlen(string))
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
        guard Self.isNamed(pointer, "tasklist") else { return nil }
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
