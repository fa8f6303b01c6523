import AtpadCore

/// One screen row of the document: the positions it covers and its clusters as the soft
/// wrap placed them.
struct DocumentRow: Hashable, Sendable {
    /// Document positions `start..<end` (Unicode-scalar offsets).
    var start: Int
    var end: Int
    /// The clusters as the soft wrap placed them; empty for a plain ASCII row.
    private var wrapped: [SoftWrap.Cell]
    var base: Int
    /// The row ends its logical line, so the line's end position is drawn on it (on a
    /// wrapped row, `end` belongs to the next row).
    var endsLine: Bool
    /// The text the row was wrapped from, starting at `base` (the cells' bytes are in it).
    var text: String = ""
    /// The row is a whole line of printable ASCII narrower than the screen: each byte of
    /// `text` is one cell, in the column of its offset. Most lines of most comments are,
    /// and every frame lays out every visible line, so these skip the soft wrap and its
    /// cell array.
    private(set) var isPlainASCII = false
    /// Where a plain ASCII row's bytes start in `text` (which may hold the lines around it
    /// too, shared by the rows laid out together).
    private(set) var utf8Start = 0

    init(start: Int, end: Int, cells: [SoftWrap.Cell], base: Int, endsLine: Bool, text: String = "") {
        self.start = start
        self.end = end
        wrapped = cells
        self.base = base
        self.endsLine = endsLine
        self.text = text
    }

    /// A row for the line at `start` whose bytes are `bytes` of `text`: all printable
    /// ASCII (0x20–0x7E) and narrower than the screen.
    init(plainASCIILine bytes: Range<Int>, of text: String, at start: Int) {
        self.init(start: start, end: start + bytes.count, cells: [], base: start, endsLine: true, text: text)
        isPlainASCII = true
        utf8Start = bytes.lowerBound
    }

    /// A plain ASCII row's bytes, one a cell.
    func withPlainASCIIBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[utf8Start ..< utf8Start + (end - start)])) }
    }

    /// The clusters, with `offset`s relative to `base`.
    var cells: [SoftWrap.Cell] {
        guard isPlainASCII else { return wrapped }
        return withPlainASCIIBytes { bytes in
            bytes.enumerated().map { i, byte in
                SoftWrap.Cell(offset: i, column: i, width: 1, utf8Start: Int32(utf8Start + i), utf8Count: 1, ascii: byte)
            }
        }
    }

    /// The cluster `cell` (one of this row's) shows.
    func character(of cell: SoftWrap.Cell) -> Character {
        SoftWrap.character(of: cell, in: text)
    }

    /// Whether the cursor at `position` is drawn on this row.
    func holds(_ position: Int) -> Bool {
        start <= position && (position < end || (position == end && endsLine))
    }

    /// The column of `position` on this row (a cluster's start, or just after the last one).
    func column(of position: Int) -> Int {
        if isPlainASCII { return min(max(position - start, 0), end - start) }
        for cell in cells where base + cell.offset >= position { return cell.column }
        return cells.last.map { $0.column + $0.width } ?? 0
    }

    /// The position a click at `column` lands on: the cluster under it, or past the end of
    /// the row its end. On a wrapped row that is the last cluster's start, because the
    /// row's end position is drawn at the start of the next row.
    func position(atColumn column: Int) -> Int {
        if isPlainASCII { return start + min(max(column, 0), end - start) }
        guard let last = cells.last else { return start }
        for cell in cells where column < cell.column + cell.width { return base + cell.offset }
        return endsLine ? end : base + last.offset
    }
}
