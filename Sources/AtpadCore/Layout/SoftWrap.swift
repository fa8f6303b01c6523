/// Soft wrapping of one logical line into screen rows, at word boundaries.
///
/// The core needs this for Up/Down (which move by screen rows) and the terminal draws the
/// same rows, so both agree on where every character is.
public enum SoftWrap {
    /// One cluster placed on a row: its scalar offset in the line, its column and width,
    /// and where its bytes are in the line (`Row.character(of:)` reads it). A plain value:
    /// every visible cell of every frame is one, so it holds no `Character` to retain and
    /// release.
    public struct Cell: Hashable, Sendable {
        public var offset: Int
        public var column: Int
        public var width: Int
        /// The cluster's UTF-8 bytes: `utf8Start ..< utf8Start + utf8Count` in the line.
        public var utf8Start: Int32
        public var utf8Count: Int32
        /// The cluster's byte when it is one ASCII scalar, else 0 (a fast path for
        /// drawing, which would otherwise read the cluster from the line).
        public var ascii: UInt8 = 0

        public init(offset: Int, column: Int, width: Int, utf8Start: Int32, utf8Count: Int32, ascii: UInt8 = 0) {
            self.offset = offset
            self.column = column
            self.width = width
            self.utf8Start = utf8Start
            self.utf8Count = utf8Count
            self.ascii = ascii
        }
    }

    /// One screen row of a logical line: scalar offsets `start..<end` relative to the line.
    public struct Row: Hashable, Sendable {
        public var start: Int
        public var end: Int
        public var cells: [Cell]
        /// The whole line the row is part of (shared by its rows).
        public var line: String

        /// The cluster `cell` (one of this row's) shows.
        public func character(of cell: Cell) -> Character {
            SoftWrap.character(of: cell, in: line)
        }
    }

    /// The cluster `cell` shows, read from `line`, the line it was wrapped from.
    public static func character(of cell: Cell, in line: String) -> Character {
        if cell.ascii != 0 { return Character(Unicode.Scalar(cell.ascii)) }
        let utf8 = line.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: Int(cell.utf8Start))
        let end = utf8.index(start, offsetBy: Int(cell.utf8Count))
        return Character(String(line[start ..< end]))
    }

    /// The column a tab at `column` reaches.
    public static func tabStop(after column: Int, tabWidth: Int) -> Int {
        (column / tabWidth + 1) * tabWidth
    }

    /// Wraps `line` (no newline in it) to `width` columns. Breaks go after whitespace, never
    /// inside a mention (`atomic` ranges, relative to the line) unless a word or mention is
    /// wider than the row; whitespace that overflows hangs at the end of its row.
    ///
    /// Single-byte ASCII clusters (an ASCII byte followed by another, or by the end) are
    /// read straight from the UTF-8 bytes without building a grapheme or asking Unicode
    /// properties: this runs on every frame, for every visible line.
    public static func rows(_ line: String, width: Int, tabWidth: Int = 4, atomic: [Range<Int>] = []) -> [Row] {
        var wrap = LineWrap(width: max(1, width), tabWidth: tabWidth, atomic: atomic, line: line)
        let utf8 = line.utf8
        var i = utf8.startIndex
        var byte: Int32 = 0
        while i < utf8.endIndex {
            // Runs of printable ASCII that fit on the row, read from the contiguous bytes (a
            // native string's always are) rather than index by index through the view.
            let run = utf8.withContiguousStorageIfAvailable { wrap.placeASCIIRun($0, from: Int(byte)) } ?? 0
            if run > 0 {
                byte += Int32(run)
                i = utf8.index(i, offsetBy: run)
                continue
            }
            let b = utf8[i]
            let next = utf8.index(after: i)
            if b < 0x80 && (next == utf8.endIndex || utf8[next] < 0x80) && !(b == 0x0D && next < utf8.endIndex && utf8[next] == 0x0A) {
                // One ASCII scalar is the whole cluster; controls show as 2-column escapes.
                if b > 0x20 && b < 0x7F && wrap.column < wrap.width {
                    // A printable character that fits: most of every line (`place` would
                    // neither wrap nor note a break for it).
                    wrap.cells.append(Cell(offset: wrap.offset, column: wrap.column, width: 1, utf8Start: byte,
                                           utf8Count: 1, ascii: b))
                    wrap.column += 1
                    wrap.offset += 1
                } else {
                    let blank = b == 0x20 || b == 0x09 || b == 0x0B || b == 0x0C
                    let w = (b < 0x20 || b == 0x7F) ? 2 : 1
                    wrap.place(utf8: byte ..< byte + 1, scalars: 1, isBlank: blank, isTab: b == 0x09, width: w, ascii: b)
                }
                i = next
                byte += 1
                continue
            }
            let ch = line[i]
            let blank = ch.unicodeScalars.first.map(CharacterClass.isBlank) ?? false
            let count = Int32(ch.utf8.count)
            let scalars = ch.unicodeScalars
            let ascii = scalars.count == 1 && scalars.first!.isASCII ? UInt8(scalars.first!.value) : 0
            wrap.place(utf8: byte ..< byte + count, scalars: scalars.count, isBlank: blank, isTab: ch == "\t",
                       width: DisplayWidth.of(ch), ascii: ascii)
            i = line.index(after: i)
            byte += count
        }
        wrap.rows.append(Row(start: wrap.rowStart, end: wrap.offset, cells: wrap.cells, line: line))
        return wrap.rows
    }

    /// The state of wrapping one line: the rows so far and the row being filled. A value
    /// with mutating methods rather than closures over local variables, which the
    /// compiler would guard with run-time exclusivity checks on every cluster.
    private struct LineWrap {
        let width: Int
        let tabWidth: Int
        let atomic: [Range<Int>]
        let line: String
        var rows: [Row] = []
        var cells: [Cell] = []
        var rowStart = 0
        var column = 0
        var offset = 0
        /// Index into `cells` after which the row may end.
        var lastBreak: Int? = nil
        var atomicIndex = 0

        init(width: Int, tabWidth: Int, atomic: [Range<Int>], line: String) {
            self.width = width
            self.tabWidth = tabWidth
            self.atomic = atomic
            self.line = line
            cells.reserveCapacity(width + 8)
        }

        /// Places the printable ASCII characters and spaces from `bytes[from...]` that fit
        /// on the row and are each a whole cluster (followed by another ASCII byte or the
        /// end), and returns how many: none of them wraps the row, so each is placed as
        /// `place` would, without its checks (a space only notes a break).
        mutating func placeASCIIRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var k = start
            while k < bytes.count && column < width {
                let b = bytes[k]
                guard b >= 0x20 && b < 0x7F, k + 1 == bytes.count || bytes[k + 1] < 0x80 else { break }
                cells.append(Cell(offset: offset, column: column, width: 1, utf8Start: Int32(k), utf8Count: 1, ascii: b))
                column += 1
                offset += 1
                if b == 0x20 && !insideAtomic(offset) { lastBreak = cells.count - 1 }
                k += 1
            }
            return k - start
        }

        mutating func insideAtomic(_ pos: Int) -> Bool {
            while atomicIndex < atomic.count && atomic[atomicIndex].upperBound <= pos { atomicIndex += 1 }
            return atomicIndex < atomic.count && atomic[atomicIndex].lowerBound < pos && pos < atomic[atomicIndex].upperBound
        }

        /// The cells that move to a new row, laid out again from column 0.
        func relayout(_ pending: ArraySlice<Cell>) -> [Cell] {
            var col = 0
            var out: [Cell] = []
            out.reserveCapacity(width + 8)
            for cell in pending {
                var c = cell
                c.column = col
                if c.ascii == 0x09 { c.width = tabStop(after: col, tabWidth: tabWidth) - col }
                col += c.width
                out.append(c)
            }
            return out
        }

        mutating func place(utf8: Range<Int32>, scalars n: Int, isBlank: Bool, isTab: Bool, width naturalWidth: Int,
                            ascii: UInt8 = 0) {
            var w = isTab ? tabStop(after: column, tabWidth: tabWidth) - column : naturalWidth
            // Wrap at the last break if there is one, else before this cluster; a word
            // moved down may still leave no room for this cluster, so check again.
            while column + w > width && !cells.isEmpty && !isBlank {
                let cut = lastBreak ?? (cells.count - 1)
                let end = cut + 1 < cells.count ? cells[cut + 1].offset : offset
                rows.append(Row(start: rowStart, end: end, cells: Array(cells[...cut]), line: line))
                rowStart = end
                cells = relayout(cells[(cut + 1)...])
                column = cells.last.map { $0.column + $0.width } ?? 0
                lastBreak = nil
                if isTab { w = tabStop(after: column, tabWidth: tabWidth) - column }
            }
            cells.append(Cell(offset: offset, column: column, width: w, utf8Start: utf8.lowerBound,
                              utf8Count: utf8.upperBound - utf8.lowerBound, ascii: ascii))
            column += w
            offset += n
            if isBlank && !insideAtomic(offset) { lastBreak = cells.count - 1 }
        }
    }

    /// The row index and column of `offset` in `rows` (an offset at a row boundary belongs
    /// to the later row).
    public static func locate(_ offset: Int, in rows: [Row]) -> (row: Int, column: Int) {
        for (i, row) in rows.enumerated() {
            let isLast = i == rows.count - 1
            if offset < row.end || isLast {
                if let cell = row.cells.first(where: { $0.offset >= offset }) {
                    return (i, cell.column)
                }
                return (i, row.cells.last.map { $0.column + $0.width } ?? 0)
            }
        }
        return (0, 0)
    }

    /// The offset in `row` closest to `column` without passing it (a cluster start, or the
    /// row's end on its last row).
    public static func offset(atColumn column: Int, in row: Row, isLastRow: Bool) -> Int {
        var best = row.start
        for cell in row.cells {
            if cell.column <= column { best = cell.offset } else { break }
        }
        if isLastRow, let last = row.cells.last, column >= last.column + last.width {
            return row.end
        }
        // The end of a wrapped row belongs to the next row; stay before the last cell there.
        return best
    }
}
