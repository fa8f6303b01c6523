import CCmarkGFM
import Synchronization

/// Markdown as GitHub reads it: cmark-gfm (GitHub's own parser, with the extensions GitHub
/// enables: autolink, strikethrough, table, tagfilter, tasklist) parses the text, and the
/// parse is mapped back onto the text's bytes. It answers the one question the readers,
/// the writers and the editor ask — is this range prose, or code, a link, a URL or HTML —
/// and gives the ranges the front end draws in the `markup.*` roles.
///
/// Block nodes carry reliable source positions (line and byte column). Inline nodes do
/// not in cmark-gfm 0.29: their columns ignore container prefixes on a paragraph's later
/// lines (`> `, list indentation, lazy lines) and autolinks have none. So inline ranges
/// are found by walking the block's bytes in step with its inline nodes: a text node's
/// literal is matched against the source (backslash escapes and entity references
/// consume their source spelling), delimiters, brackets and destinations are stepped over,
/// and a line break skips the next line's container prefix.
///
/// cmark-gfm reads a NUL byte as U+FFFD (three bytes, EF BF BD) before it parses: in its
/// literals and in its byte columns. The walk reads that U+FFFD as the one NUL byte it
/// stands for, so positions after a NUL stay exact (docs/markdown.md).
public struct MarkdownSyntax: Sendable, Equatable {
    /// What a range of Markdown is, for drawing (the `markup.*` roles) and for mentions.
    public enum Kind: UInt8, Sendable, Equatable {
        /// A code span, fenced or indented code block.
        case code
        /// A link (text and destination), image, autolink or bare URL.
        case link
        /// Raw HTML, inline or as a block.
        case html
        case heading
        case emphasis
        case strong
        case strikethrough
        case quote
    }

    /// A range of bytes of one kind.
    public struct Span: Sendable, Equatable {
        public var kind: Kind
        public var range: Range<Int>
    }

    /// The spans, sorted by start (an outer span before the spans inside it).
    public internal(set) var spans: [Span] = []
    /// The byte ranges of prose: text that is not code, HTML, a link or a URL — where a
    /// `@handle` is a mention on GitHub. Sorted, disjoint, adjacent ranges merged.
    public internal(set) var prose: [Range<Int>] = []
    /// The byte ranges of links' text (`[text](destination)`, `[text][label]`; not an
    /// image's, an autolink's or a bare URL's): read as prose, shown as a link, where no
    /// `@handle` is a mention. Sorted, disjoint, adjacent ranges merged.
    public internal(set) var linkText: [Range<Int>] = []
    /// Where each top-level block starts (the start of its first line): parsing from one
    /// of these gives the same blocks after it as parsing the whole text.
    public internal(set) var blockStarts: [Int] = []
    /// For each of `blockStarts`, whether that block is a paragraph.
    public internal(set) var blockIsParagraph: [Bool] = []

    public init() {}

    /// Parses UTF-8 `bytes`; with `blocksOnly`, finds only `blockStarts` (no spans, no
    /// prose), which is what an index of a long text needs.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, blocksOnly: Bool = false) {
        self = Self.reading(bytes, blocksOnly: blocksOnly, keepingTree: false).syntax
    }

    /// Parses UTF-8 `bytes`, and with `keepingTree` hands back the parse itself: the tree,
    /// its parser (whose extensions render it) and where each text node outside links
    /// lies in `bytes`, for ``ComposedMarkdown`` to write without parsing again. The caller
    /// then owns the tree and its parser.
    static func reading(_ bytes: UnsafeBufferPointer<UInt8>, blocksOnly: Bool = false,
                        keepingTree: Bool) -> (syntax: MarkdownSyntax, tree: ParsedMarkdown.Tree?) {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return (MarkdownSyntax(), nil) }
        let names = MarkdownSyntax.extensionNames
        // One parse at a time in the process (see `withParser`).
        let (parser, parsed): (OpaquePointer?, OpaquePointer?) = MarkdownSyntax.withParser {
            let parser = cmark_parser_new(CMARK_OPT_SOURCEPOS)
            for name in names {
                if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
            }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { cmark_parser_feed(parser, $0, bytes.count) }
            return (parser, cmark_parser_finish(parser))
        }
        var kept = false
        defer {
            if !kept {
                if let parsed { cmark_node_free(parsed) }
                cmark_parser_free(parser)
            }
        }
        var syntax = MarkdownSyntax()
        guard let document = parsed else { return (syntax, nil) }
        var walker = Walker(bytes: bytes)
        if blocksOnly {
            var child = cmark_node_first_child(document)
            while let node = child {
                walker.blockStarts.append(walker.lineStart(cmark_node_get_start_line(node)))
                walker.blockIsParagraph.append(cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH)
                child = cmark_node_next(node)
            }
            syntax.blockStarts = walker.blockStarts
            syntax.blockIsParagraph = walker.blockIsParagraph
            return (syntax, nil)
        }
        walker.recordsTextNodes = keepingTree
        if keepingTree { walker.textNodes.reserveCapacity(bytes.count / 32) }
        walker.blocks(of: document, quotes: 0, topLevel: true)
        syntax.spans = walker.spans.sorted { $0.range.lowerBound < $1.range.lowerBound
            || ($0.range.lowerBound == $1.range.lowerBound && $0.range.upperBound > $1.range.upperBound) }
        syntax.blockStarts = walker.blockStarts
        syntax.blockIsParagraph = walker.blockIsParagraph
        syntax.prose = walker.prose
        syntax.linkText = walker.linkText
        guard keepingTree, let parser else { return (syntax, nil) }
        kept = true
        return (syntax, ParsedMarkdown.Tree(parser: parser, root: document, textNodes: walker.textNodes,
                                            holdsHTML: walker.holdsHTML))
    }

    /// Where the bytes from `source` (inside the text node's range, `node.range`) begin in
    /// the node's literal, when the source spells them as they are; nil when `source` falls
    /// inside an escape or a character reference.
    static func literalOffset(of source: Int, in node: ParsedMarkdown.TextNode, bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if node.verbatim { return source - node.range.lowerBound }
        let literal = MarkdownNode(node.pointer).literalBytes
        let step = InlineStep(bytes: bytes, pos: node.range.lowerBound, quotes: 0)
        // The one place in the literal where the rest of the node's source spells the rest
        // of the literal and what comes before spells what comes before.
        var j = 0
        while j <= literal.count {
            if step.match(literal, from: j, at: source) == node.range.upperBound,
               step.match(UnsafeBufferPointer(rebasing: literal[..<j]), from: 0, at: node.range.lowerBound) == source {
                return j
            }
            j += 1
        }
        return nil
    }

    /// Parses `text`.
    public init(_ text: String) {
        var text = text
        self = text.withUTF8 { MarkdownSyntax($0) }
    }

    /// cmark-gfm 0.29 is not safe to run on two threads at once: while it reads inlines
    /// it marks its extensions' characters (`~`, `w`, `:`, `@`…) in a table shared by the
    /// whole process and clears them at the end, so a parse finishing on one thread takes
    /// strikethrough and autolinks away from a parse under way on another. Every parse in
    /// the process (the tests' judge too) runs inside this.
    static func withParser<T>(_ body: () -> T) -> T {
        parserLock.withLock { _ in body() }
    }

    private static let parserLock = Mutex(())

    /// The extensions GitHub enables, registered once for the process.
    static let extensionNames: [String] = {
        cmark_gfm_core_extensions_ensure_registered()
        return ["autolink", "strikethrough", "table", "tagfilter", "tasklist"]
    }()

    /// The run of prose holding byte `offset`, if any.
    public func proseRun(containing offset: Int) -> Range<Int>? {
        var low = 0, high = prose.count
        while low < high {
            let mid = (low + high) / 2
            if prose[mid].upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        return low < prose.count && prose[low].contains(offset) ? prose[low] : nil
    }

    /// The byte ranges of code and HTML, sorted and merged: where Markdown reads nothing
    /// (the `markdown` and `zulip` readers skip them).
    public var verbatim: [Range<Int>] {
        var out: [Range<Int>] = []
        for span in spans where span.kind == .code || span.kind == .html {
            if let last = out.last, span.range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound ..< max(last.upperBound, span.range.upperBound)
            } else {
                out.append(span.range)
            }
        }
        return out
    }

    /// Where `bytes` are code for a chat's Markdown (Zulip, Discord): code spans and fenced
    /// blocks as cmark-gfm reads them — chats have no indented code blocks and show HTML as
    /// text. Sorted and disjoint.
    static func fencedCode(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard bytes.contains(UInt8(ascii: "`")) || bytes.contains(UInt8(ascii: "~")) else { return [] }
        return MarkdownSyntax(bytes).spans.compactMap { span in
            guard span.kind == .code else { return nil }
            var i = span.range.lowerBound
            while i < span.range.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            guard i < span.range.upperBound, bytes[i] == UInt8(ascii: "`") || bytes[i] == UInt8(ascii: "~") else { return nil }
            return span.range
        }
    }

    /// Answers "is this offset in one of `ranges`?" for offsets asked in increasing order,
    /// in constant time per question.
    struct Cursor {
        private let ranges: [Range<Int>]
        private var index = 0

        init(_ ranges: [Range<Int>]) { self.ranges = ranges }

        /// The range holding `offset`, if any; offsets must not decrease between calls.
        mutating func range(containing offset: Int) -> Range<Int>? {
            while index < ranges.count, ranges[index].upperBound <= offset { index += 1 }
            return index < ranges.count && ranges[index].contains(offset) ? ranges[index] : nil
        }
    }
}

/// Walks cmark-gfm's tree, mapping its nodes to byte ranges of the source.
private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset where each line starts (cmark ends lines at LF, CR LF or a lone CR).
    let lineStarts: [Int]
    var spans: [MarkdownSyntax.Span] = []
    var prose: [Range<Int>] = []
    var linkText: [Range<Int>] = []
    var blockStarts: [Int] = []
    var blockIsParagraph: [Bool] = []
    /// Whether to note each text node outside links (`textNodes`).
    var recordsTextNodes = false
    var textNodes: [ParsedMarkdown.TextNode] = []
    /// Whether the tree has a node of raw HTML (whatever bytes it maps to: a block's range
    /// can come out empty when a table follows it).
    var holdsHTML = false
    /// Whether the text holds a NUL byte, which cmark-gfm reads as U+FFFD (three bytes):
    /// its byte columns then count three for each NUL before them on the line.
    let hasNUL: Bool

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var starts = [0]
        var i = 0
        var nul = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) { starts.append(i + 1) }
            if b == 0 { nul = true }
            i += 1
        }
        lineStarts = starts
        hasNUL = nul
    }

    // MARK: Positions

    /// The start of 1-based `line`.
    func lineStart(_ line: Int32) -> Int {
        let l = Int(line)
        guard l >= 1 else { return 0 }
        return l <= lineStarts.count ? lineStarts[l - 1] : bytes.count
    }

    /// The end of 1-based `line`'s text (before its line ending).
    func lineEnd(_ line: Int32) -> Int {
        let l = Int(line)
        guard l >= 1, l <= lineStarts.count else { return bytes.count }
        var end = l < lineStarts.count ? lineStarts[l] : bytes.count
        while end > lineStarts[l - 1], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The offset of a block's start (byte column, 1-based).
    func start(of node: OpaquePointer) -> Int {
        let line = cmark_node_get_start_line(node)
        let column = max(Int(cmark_node_get_start_column(node)) - 1, 0)
        let from = lineStart(line), end = lineEnd(line)
        guard hasNUL else { return min(from + column, end) }
        // cmark counts a NUL as the three bytes of U+FFFD.
        var i = from, counted = 0
        while i < end, counted < column {
            counted += bytes[i] == 0 ? 3 : 1
            i += 1
        }
        return i
    }

    /// The range of a block: from its start to the end of its last line.
    func blockRange(_ node: OpaquePointer) -> Range<Int> {
        let s = start(of: node)
        var endLine = cmark_node_get_end_line(node)
        // A list or item that ends at column 0 ends with the line before.
        if cmark_node_get_end_column(node) == 0, endLine > cmark_node_get_start_line(node) { endLine -= 1 }
        return s ..< max(s, lineEnd(endLine))
    }

    mutating func add(_ kind: MarkdownSyntax.Kind, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        spans.append(MarkdownSyntax.Span(kind: kind, range: range))
    }

    mutating func addProse(_ range: Range<Int>) {
        Self.append(range, to: &prose)
    }

    /// Appends `range` to sorted disjoint `ranges`, joined to the last when they touch.
    static func append(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        guard !range.isEmpty else { return }
        if let last = ranges.last, last.upperBound == range.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound ..< range.upperBound
        } else {
            ranges.append(range)
        }
    }

    // MARK: Blocks

    mutating func blocks(of parent: OpaquePointer, quotes: Int, topLevel: Bool) {
        var child = cmark_node_first_child(parent)
        while let node = child {
            if topLevel {
                blockStarts.append(lineStart(cmark_node_get_start_line(node)))
                blockIsParagraph.append(cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH)
            }
            block(node, quotes: quotes)
            child = cmark_node_next(node)
        }
    }

    mutating func block(_ node: OpaquePointer, quotes: Int) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_BLOCK_QUOTE:
            add(.quote, blockRange(node))
            blocks(of: node, quotes: quotes + 1, topLevel: false)
        case CMARK_NODE_CODE_BLOCK:
            add(.code, blockRange(node))
        case CMARK_NODE_HTML_BLOCK:
            holdsHTML = true
            add(.html, blockRange(node))
        case CMARK_NODE_PARAGRAPH:
            leaf(node, from: start(of: node), quotes: quotes)
        case CMARK_NODE_HEADING:
            let range = blockRange(node)
            add(.heading, range)
            var from = range.lowerBound
            // An ATX heading's content follows its `#` run and a blank (a setext heading's
            // first line may itself start with `#`).
            while from < range.upperBound, bytes[from] == UInt8(ascii: "#") { from += 1 }
            if from < range.upperBound, bytes[from] != 0x20, bytes[from] != 0x09 { from = range.lowerBound }
            leaf(node, from: from, quotes: quotes)
        default:
            if MarkdownNode.isNamed(node, "table_cell") {
                leaf(node, from: start(of: node), quotes: quotes)
            } else {
                blocks(of: node, quotes: quotes, topLevel: false)
            }
        }
    }

    // MARK: Inlines

    /// Walks the inline children of a leaf block whose content starts at or after `from`.
    mutating func leaf(_ node: OpaquePointer, from: Int, quotes: Int) {
        var inline = InlineStep(bytes: bytes, pos: from, quotes: quotes)
        inline.searching = true
        // Link reference definitions may come first: the first node is searched for up to
        // the block's end, not only on its first line.
        inline.blockEnd = blockRange(node).upperBound
        var child = cmark_node_first_child(node)
        while let c = child {
            inlineNode(c, &inline, inLink: false)
            child = cmark_node_next(c)
        }
    }

    mutating func inlineNode(_ node: OpaquePointer, _ step: inout InlineStep, inLink: Bool) {
        let type = cmark_node_get_type(node)
        switch type {
        case CMARK_NODE_TEXT:
            let literal = Walker.literal(node)
            if let range = step.matchText(literal, raw: inLink && step.inAutolink) {
                if !inLink {
                    addProse(range)
                    if recordsTextNodes {
                        let verbatim = range.count == literal.count && bytes[range].elementsEqual(literal)
                        textNodes.append(ParsedMarkdown.TextNode(pointer: node, range: range, verbatim: verbatim))
                    }
                } else if step.inLinkText {
                    Self.append(range, to: &linkText)
                }
            }
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
            step.nextLine()
        case CMARK_NODE_CODE:
            if let range = step.matchCodeSpan() { add(.code, range) }
        case CMARK_NODE_HTML_INLINE:
            holdsHTML = true
            if let range = step.matchRaw(Walker.literal(node)) { add(.html, range) }
        case CMARK_NODE_EMPH, CMARK_NODE_STRONG:
            let start = step.pos
            step.skipDelimiters(type == CMARK_NODE_EMPH ? 1 : 2)
            children(node, &step, inLink: inLink)
            step.skipDelimiters(type == CMARK_NODE_EMPH ? 1 : 2)
            add(type == CMARK_NODE_EMPH ? .emphasis : .strong, start ..< step.pos)
        case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
            let start = step.pos
            step.link(image: type == CMARK_NODE_IMAGE, autolinkText: Walker.autolinkText(node)) { step in
                children(node, &step, inLink: true)
            }
            add(.link, start ..< step.pos)
        default:
            if MarkdownNode.isNamed(node, "strikethrough") {
                let start = step.pos
                let count = step.tildes()
                step.skipDelimiters(count)
                children(node, &step, inLink: inLink)
                step.skipDelimiters(count)
                add(.strikethrough, start ..< step.pos)
            } else {
                children(node, &step, inLink: inLink)
            }
        }
    }

    mutating func children(_ node: OpaquePointer, _ step: inout InlineStep, inLink: Bool) {
        var child = cmark_node_first_child(node)
        while let c = child {
            inlineNode(c, &step, inLink: inLink)
            child = cmark_node_next(c)
        }
    }

    /// The text of a link that may be an autolink or bare URL: its one text child, when
    /// the destination ends with it (`http://x`, `mailto:a@b.c` for `a@b.c`).
    static func autolinkText(_ node: OpaquePointer) -> UnsafeBufferPointer<UInt8>? {
        guard let child = cmark_node_first_child(node), cmark_node_next(child) == nil,
              cmark_node_get_type(child) == CMARK_NODE_TEXT else { return nil }
        let text = literal(child)
        let destination = MarkdownNode.bytes(of: cmark_node_get_url(node))
        guard !text.isEmpty, destination.count >= text.count, destination.suffix(text.count).elementsEqual(text) else { return nil }
        return text
    }

    static func literal(_ node: OpaquePointer) -> UnsafeBufferPointer<UInt8> {
        MarkdownNode(node).literalBytes
    }
}

/// A position in a leaf block's source, stepped forward in the order of its inline nodes.
private struct InlineStep {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int
    /// Block quotes around the block: how many `>` a later line's prefix may hold.
    let quotes: Int
    /// At the start of the block or a line, where what comes first is not known exactly
    /// (a task list's `[ ]`, link reference definitions, indentation): the next node is
    /// searched for on the line rather than expected at `pos`.
    var searching = false
    /// Inside an autolink or bare URL, whose text has no escapes.
    var inAutolink = false
    /// Inside the brackets of a link's text (not an image's).
    var inLinkText = false
    /// While nothing of the block has been found yet: where it ends (else nil).
    var blockEnd: Int?

    private static let backslash = UInt8(ascii: "\\")

    /// The end of the line holding `i` (before its line ending); before anything of the
    /// block is found, the end of the block.
    func lineEnd(from i: Int) -> Int {
        if let blockEnd, blockEnd > i { return blockEnd }
        var j = i
        while j < bytes.count, bytes[j] != 0x0A, bytes[j] != 0x0D { j += 1 }
        return j
    }

    /// Steps past the line ending and the next line's container prefix.
    mutating func nextLine() {
        blockEnd = nil
        var j = lineEnd(from: pos)
        if j < bytes.count, bytes[j] == 0x0D { j += 1 }
        if j < bytes.count, bytes[j] == 0x0A { j += 1 }
        var markers = 0
        while j < bytes.count {
            let b = bytes[j]
            if b == 0x20 || b == 0x09 { j += 1; continue }
            if b == UInt8(ascii: ">"), markers < quotes { markers += 1; j += 1; continue }
            break
        }
        pos = j
        searching = true
    }

    /// Matches a text node's literal at `pos` (or, while searching, later on the line).
    mutating func matchText(_ literal: UnsafeBufferPointer<UInt8>, raw: Bool) -> Range<Int>? {
        guard !literal.isEmpty else { return pos ..< pos }
        let limit = searching ? lineEnd(from: pos) : pos
        var start = pos
        while start <= limit {
            if let end = match(literal, at: start, raw: raw) {
                searching = false; blockEnd = nil
                pos = end
                return start ..< end
            }
            start += 1
        }
        return nil
    }

    /// Where `literal` ends when the source at `start` spells it.
    func match(_ literal: UnsafeBufferPointer<UInt8>, at start: Int, raw: Bool) -> Int? {
        raw ? matchRawBytes(literal, at: start) : match(literal, from: 0, at: start)
    }

    func matchRawBytes(_ literal: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        if start + literal.count <= bytes.count, bytes[start ..< start + literal.count].elementsEqual(literal) {
            return start + literal.count
        }
        // A NUL in the source is U+FFFD in the literal.
        var i = start, j = 0
        while j < literal.count {
            guard i < bytes.count, let width = InlineStep.spells(literal, j, bytes[i]) else { return nil }
            i += 1
            j += width
        }
        return i
    }

    /// How many bytes of `literal` from `j` source byte `b` spells: 1 when they are the
    /// same byte, 3 when `b` is a NUL and the literal has the U+FFFD cmark-gfm reads it as.
    static func spells(_ literal: UnsafeBufferPointer<UInt8>, _ j: Int, _ b: UInt8) -> Int? {
        if literal[j] == b { return 1 }
        guard b == 0, j + 2 < literal.count, literal[j] == 0xEF, literal[j + 1] == 0xBF, literal[j + 2] == 0xBD else { return nil }
        return 3
    }

    /// Where the source at `start` ends spelling `literal` from index `from`, backslash
    /// escapes and character references standing for what they decode to.
    func match(_ literal: UnsafeBufferPointer<UInt8>, from: Int, at start: Int) -> Int? {
        let raw = false
        var i = start, j = from
        while j < literal.count {
            guard i < bytes.count else { return nil }
            let s = bytes[i]
            if !raw, s == InlineStep.backslash, i + 1 < bytes.count, InlineStep.isPunctuation(bytes[i + 1]) {
                guard literal[j] == bytes[i + 1] else { return nil }
                i += 2
                j += 1
                continue
            }
            if !raw, s == UInt8(ascii: "&"), let end = entityEnd(i) {
                let spelled = end - i
                if j + spelled <= literal.count, literal[j ..< j + spelled].elementsEqual(bytes[i ..< end]),
                   let rest = match(literal, from: j + spelled, at: end) {
                    return rest
                }
                // A reference decodes to one character, a few named ones to two.
                var k = j
                for _ in 0 ..< 2 where k < literal.count {
                    k += InlineStep.scalarLength(literal[k])
                    if let rest = match(literal, from: k, at: end) { return rest }
                }
                return nil
            }
            guard let width = InlineStep.spells(literal, j, s) else { return nil }
            i += 1
            j += width
        }
        return i
    }

    /// The end of an entity or numeric character reference at `i` (`&amp;`, `&#64;`).
    func entityEnd(_ i: Int) -> Int? {
        var j = i + 1
        let limit = min(bytes.count, i + 34)
        guard j < limit else { return nil }
        if bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < limit && (bytes[j] == UInt8(ascii: "x") || bytes[j] == UInt8(ascii: "X"))
            if hex { j += 1 }
            let digits = j
            while j < limit, hex ? InlineStep.isHex(bytes[j]) : InlineStep.isDigit(bytes[j]) { j += 1 }
            // cmark-gfm 0.29 takes up to eight digits (a code point out of range is U+FFFD).
            guard j > digits, j - digits <= 8 else { return nil }
        } else {
            let name = j
            while j < limit, InlineStep.isAlphanumeric(bytes[j]) { j += 1 }
            guard j > name else { return nil }
        }
        return j < bytes.count && bytes[j] == UInt8(ascii: ";") ? j + 1 : nil
    }

    /// A code span from its opening backtick run to the end of its closing one.
    mutating func matchCodeSpan() -> Range<Int>? {
        var open = pos
        if searching {
            let end = lineEnd(from: pos)
            while open < end, bytes[open] != UInt8(ascii: "`") { open += 1 }
        }
        guard open < bytes.count, bytes[open] == UInt8(ascii: "`") else { return nil }
        var j = open
        while j < bytes.count, bytes[j] == UInt8(ascii: "`") { j += 1 }
        let length = j - open
        while j < bytes.count {
            guard bytes[j] == UInt8(ascii: "`") else { j += 1; continue }
            let run = j
            while j < bytes.count, bytes[j] == UInt8(ascii: "`") { j += 1 }
            if j - run == length {
                searching = false; blockEnd = nil
                pos = j
                return open ..< j
            }
        }
        return nil
    }

    /// Raw text (inline HTML) spelled as is, its line breaks followed by the next line's
    /// container prefix.
    mutating func matchRaw(_ literal: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = pos
        if searching {
            let end = lineEnd(from: pos)
            while start < end, bytes[start] != literal.first { start += 1 }
        }
        pos = start
        var j = 0
        while j < literal.count {
            if literal[j] == 0x0A {
                nextLine()
                j += 1
                continue
            }
            guard pos < bytes.count, let width = InlineStep.spells(literal, j, bytes[pos]) else { return nil }
            pos += 1
            j += width
        }
        searching = false; blockEnd = nil
        return start ..< pos
    }

    /// Steps over up to `count` emphasis delimiters (`*`, `_`, `~`).
    mutating func skipDelimiters(_ count: Int) {
        if searching {
            let end = lineEnd(from: pos)
            var j = pos
            while j < end, !InlineStep.isDelimiter(bytes[j]) { j += 1 }
            if j < end { pos = j }
            searching = false; blockEnd = nil
        }
        var n = 0
        while n < count, pos < bytes.count, InlineStep.isDelimiter(bytes[pos]) { pos += 1; n += 1 }
    }

    /// How many tildes open the strikethrough at `pos` (1 or 2).
    func tildes() -> Int {
        var j = pos
        if searching {
            let end = lineEnd(from: pos)
            while j < end, bytes[j] != UInt8(ascii: "~") { j += 1 }
        }
        var n = 0
        while j + n < bytes.count, bytes[j + n] == UInt8(ascii: "~"), n < 2 { n += 1 }
        return max(n, 1)
    }

    /// Steps over a link or image: `[text](destination "title")`, `[text][label]`,
    /// `[text]`, `<autolink>` or a bare URL, calling `content` for its text.
    mutating func link(image: Bool, autolinkText: UnsafeBufferPointer<UInt8>?, content: (inout InlineStep) -> Void) {
        if searching {
            let end = lineEnd(from: pos)
            var j = pos
            let opener = image ? UInt8(ascii: "!") : UInt8(ascii: "[")
            while j < end {
                if bytes[j] == opener { break }
                // An autolink's text spelled as is, bare or in `<…>`.
                if let text = autolinkText {
                    if bytes[j] == UInt8(ascii: "<"), match(text, at: j + 1, raw: true) != nil { break }
                    if match(text, at: j, raw: false) != nil { break }
                }
                j += 1
            }
            if j < end { pos = j; searching = false; blockEnd = nil }
        }
        if image, pos < bytes.count, bytes[pos] == UInt8(ascii: "!") { pos += 1 }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "[") {
            pos += 1
            let outer = inLinkText
            inLinkText = !image
            content(&self)
            inLinkText = outer
            // The closing bracket (text nodes before it may be escaped brackets).
            let end = lineEnd(from: pos)
            while pos < bytes.count, bytes[pos] != UInt8(ascii: "]") {
                if pos == end { nextLine(); continue }
                pos += 1
            }
            if pos < bytes.count { pos += 1 }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "(") {
                skipDestination()
            } else if pos < bytes.count, bytes[pos] == UInt8(ascii: "[") {
                while pos < bytes.count, bytes[pos] != UInt8(ascii: "]") {
                    pos += bytes[pos] == InlineStep.backslash ? 2 : 1
                }
                pos = min(pos + 1, bytes.count)
            }
        } else if pos < bytes.count, bytes[pos] == UInt8(ascii: "<") {
            pos += 1
            inAutolink = true
            content(&self)
            inAutolink = false
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ">") { pos += 1 }
        } else {
            // A bare URL or e-mail address: the autolink extension finds it in text already
            // read, so escapes in it were escapes.
            content(&self)
        }
    }

    /// Steps over `(destination "title")` from its `(` to after its `)`.
    mutating func skipDestination() {
        pos += 1
        var depth = 0
        var quote: UInt8?
        var angled = false
        while pos < bytes.count {
            let b = bytes[pos]
            if b == InlineStep.backslash, pos + 1 < bytes.count, InlineStep.isPunctuation(bytes[pos + 1]) { pos += 2; continue }
            if b == 0x0A || b == 0x0D { nextLine(); searching = false; blockEnd = nil; continue }
            if let q = quote {
                if b == q { quote = nil }
            } else if angled {
                if b == UInt8(ascii: ">") { angled = false }
            } else {
                switch b {
                case UInt8(ascii: "<"): angled = true
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
                case UInt8(ascii: "("): depth += 1
                case UInt8(ascii: ")"):
                    if depth == 0 { pos += 1; return }
                    depth -= 1
                default: break
                }
            }
            pos += 1
        }
    }

    static func isPunctuation(_ b: UInt8) -> Bool {
        (0x21 ... 0x2F).contains(b) || (0x3A ... 0x40).contains(b) || (0x5B ... 0x60).contains(b) || (0x7B ... 0x7E).contains(b)
    }

    static func isDelimiter(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "*") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }

    static func isDigit(_ b: UInt8) -> Bool { (0x30 ... 0x39).contains(b) }
    static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (0x41 ... 0x46).contains(b) || (0x61 ... 0x66).contains(b) }
    static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || (0x41 ... 0x5A).contains(b) || (0x61 ... 0x7A).contains(b) }

    /// The length of the UTF-8 sequence a lead byte starts.
    static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
