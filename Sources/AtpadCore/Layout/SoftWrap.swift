/// Soft wrapping of one logical line into screen rows, at word boundaries.
///
/// The core needs this for Up/Down (which move by screen rows) and the terminal draws the
/// same rows, so both agree on where every character is.
public enum SoftWrap {
    /// One cluster placed on a row: its scalar offset in the line, its column and width.
    public struct Cell: Hashable, Sendable {
        public var offset: Int
        public var column: Int
        public var width: Int
        public var character: Character
    }

    /// One screen row of a logical line: scalar offsets `start..<end` relative to the line.
    public struct Row: Hashable, Sendable {
        public var start: Int
        public var end: Int
        public var cells: [Cell]
    }

    /// The column a tab at `column` reaches.
    public static func tabStop(after column: Int, tabWidth: Int) -> Int {
        (column / tabWidth + 1) * tabWidth
    }

    /// Wraps `line` (no newline in it) to `width` columns. Breaks go after whitespace, never
    /// inside a mention (`atomic` ranges, relative to the line) unless a word or mention is
    /// wider than the row; whitespace that overflows hangs at the end of its row.
    public static func rows(_ line: String, width: Int, tabWidth: Int = 4, atomic: [Range<Int>] = []) -> [Row] {
        let width = max(1, width)
        var rows: [Row] = []
        var cells: [Cell] = []
        var rowStart = 0
        var column = 0
        var offset = 0
        var lastBreak: Int? = nil  // index into `cells` after which the row may end
        var atomicIndex = 0

        func insideAtomic(_ pos: Int) -> Bool {
            while atomicIndex < atomic.count && atomic[atomicIndex].upperBound <= pos { atomicIndex += 1 }
            return atomicIndex < atomic.count && atomic[atomicIndex].lowerBound < pos && pos < atomic[atomicIndex].upperBound
        }

        func relayout(_ pending: [Cell]) -> [Cell] {
            var col = 0
            return pending.map { cell in
                var c = cell
                c.column = col
                if c.character == "\t" { c.width = tabStop(after: col, tabWidth: tabWidth) - col }
                col += c.width
                return c
            }
        }

        for ch in line {
            let n = ch.unicodeScalars.count
            let isBlank = ch.unicodeScalars.first.map(CharacterClass.isBlank) ?? false
            var w = ch == "\t" ? tabStop(after: column, tabWidth: tabWidth) - column : DisplayWidth.of(ch)
            if column + w > width && !cells.isEmpty && !isBlank {
                // Wrap: at the last break if there is one, else before this cluster.
                let cut = lastBreak ?? (cells.count - 1)
                let kept = Array(cells[...cut])
                let moved = Array(cells[(cut + 1)...])
                let end = moved.first?.offset ?? offset
                rows.append(Row(start: rowStart, end: end, cells: kept))
                rowStart = end
                cells = relayout(moved)
                column = cells.last.map { $0.column + $0.width } ?? 0
                lastBreak = nil
                if ch == "\t" { w = tabStop(after: column, tabWidth: tabWidth) - column }
            }
            cells.append(Cell(offset: offset, column: column, width: w, character: ch))
            column += w
            offset += n
            if isBlank && !insideAtomic(offset) { lastBreak = cells.count - 1 }
        }
        rows.append(Row(start: rowStart, end: offset, cells: cells))
        return rows
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
