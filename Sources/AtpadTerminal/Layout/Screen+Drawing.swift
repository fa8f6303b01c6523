/// Writing runs of cells into a screen, clipped to it, without leaving half of a wide
/// character behind when something (a popup) is drawn over part of it.
extension Screen {
    /// Writes `cells` on `row` from `column`, clipped at the right edge. A wide character
    /// that would only half fit is replaced by a blank.
    mutating func put(_ cells: [ScreenCell], row: Int, column: Int) {
        guard row >= 0, row < height, column < width else { return }
        if column >= 0, !cells.isEmpty { splitWide(row: row, column: column) }
        var c = column
        var i = 0
        let width = width
        self.cells.withUnsafeMutableBufferPointer { screen in
            let line = screen.baseAddress! + row * width
            while i < cells.count && c < width {
                let cell = cells[i]
                if c >= 0 {
                    let isWide = i + 1 < cells.count && cells[i + 1].isContinuation && !cell.isContinuation
                    if isWide && c + 1 >= width || cell.isContinuation && c == 0 {
                        line[c] = ScreenCell(" ", cell.role)
                    } else {
                        line[c] = cell
                    }
                }
                c += 1
                i += 1
            }
        }
        if c < width { dropOrphan(row: row, column: c) }
    }

    /// Fills columns `columns` of `row` with blanks in `role`.
    mutating func fill(row: Int, columns: Range<Int>? = nil, role: Role) {
        guard row >= 0, row < height else { return }
        let cols = columns.map { max(0, $0.lowerBound) ..< min(width, $0.upperBound) } ?? 0 ..< width
        guard !cols.isEmpty else { return }
        splitWide(row: row, column: cols.lowerBound)
        let blank = ScreenCell(ascii: 0x20, role)
        for c in cols { self[row, c] = blank }
        if cols.upperBound < width { dropOrphan(row: row, column: cols.upperBound) }
    }

    /// A left edge at `column` that falls on the continuation of a wide character cuts it
    /// in two: blank both halves so the terminal never gets half a glyph.
    private mutating func splitWide(row: Int, column: Int) {
        guard column > 0, column < width, self[row, column].isContinuation else { return }
        self[row, column] = ScreenCell(" ", self[row, column].role)
        self[row, column - 1] = ScreenCell(" ", self[row, column - 1].role)
    }

    /// A right edge just before `column`: a continuation there lost its leading cell.
    private mutating func dropOrphan(row: Int, column: Int) {
        guard column < width, self[row, column].isContinuation else { return }
        self[row, column] = ScreenCell(" ", self[row, column].role)
    }
}
