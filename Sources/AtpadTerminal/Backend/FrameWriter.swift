import CNcursesw

/// Turns a frame into the bytes that show it on the terminal, given the frame the terminal
/// shows now: only the cells that changed (from the first to the last changed cell of each
/// row), each run reached with one cursor move, attributes switched only where the role
/// changes, the cursor put last, all in one buffer the backend writes at once. A row whose
/// end moved right or left by a few cells (a character typed or deleted inside a line) is
/// moved on the terminal (`ich`/`dch`), and only its new cells are written, as curses does.
///
/// The writer remembers what it knows of the terminal — where the cursor is, whose look is
/// in effect, whether the cursor shows — and forgets it (`forget`) when something else
/// may have written there.
struct FrameWriter {
    let strings: TerminalStrings
    /// Whether a cell's cluster of several code points (an emoji with a skin tone, a ZWJ
    /// family, a flag, a letter with marks) is sent whole, for a terminal that draws it in
    /// the cells the layout gave it; else as `CellGlyphs` draws it, one glyph per spacing
    /// code point, for a terminal that measures each code point on its own.
    var wholeClusters = false
    /// By role code: the bytes that give a cell that role's look, from any state.
    private var looks: [[UInt8]] = []
    /// By role code: the same from a look that set no colours (so without `op`).
    private var looksFromDefaultColors: [[UInt8]] = []
    /// By role code: whether the look sets a colour.
    private var colored: [Bool] = []
    /// By role code: whether the look is the terminal's plain one (what a clear leaves).
    private var plain: [Bool] = []
    /// How far a row may have moved for the writer to move it on the terminal.
    static let longestShift = 8
    private var cursor: (row: Int, column: Int)?
    private var look: Int?
    private var cursorShown: Bool?

    init(strings: TerminalStrings) {
        self.strings = strings
    }

    /// Sets how each role looks (by role code); the next cell of any role sets its look.
    mutating func setLooks(_ styles: [Style], colors: Bool, colorCount: Int) {
        looks = styles.map { lookBytes(of: $0, colors: colors, colorCount: colorCount) }
        looksFromDefaultColors = styles.map { lookBytes(of: $0, colors: colors, colorCount: colorCount, resetColors: false) }
        colored = styles.map { colors && ($0.foreground != nil || $0.background != nil) }
        let base = lookBytes(of: Style(), colors: colors, colorCount: colorCount)
        plain = looks.map { $0 == base }
        look = nil
    }

    /// Forgets what is on the terminal: after this, every move and look is written.
    mutating func forget() {
        cursor = nil
        look = nil
        cursorShown = nil
    }

    /// Appends to `out` the bytes that show `screen` on a terminal of `rows` × `columns`
    /// that shows `previous`. Without a previous screen of the same size nothing is known of
    /// what the terminal shows: every cell is written, after a clear unless `cleared` says
    /// the terminal is blank already.
    mutating func write(_ screen: Screen, over previous: Screen?, cleared: Bool,
                        rows: Int, columns: Int, into out: inout [UInt8]) {
        let rows = min(rows, screen.height)
        // Moving cells moves the terminal's whole row: only when the screen is as wide.
        let rowsMove = columns == screen.width
        let columns = min(columns, screen.width)
        if let previous, previous.width == screen.width, previous.height == screen.height {
            for row in 0 ..< rows {
                guard let changed = screen.changedColumns(row: row, from: previous) else { continue }
                if rowsMove, !(row == rows - 1 && strings.lastCellScrolls),
                   shift(screen, over: previous, row: row, changed: changed, into: &out) {
                    continue
                }
                var first = min(changed.lowerBound, columns)
                var last = min(changed.upperBound, columns)
                // Whole wide characters: a run may start or end on a continuation cell.
                while first > 0 && screen[row, first].isContinuation { first -= 1 }
                while last < columns && screen[row, last].isContinuation { last += 1 }
                put(screen, row: row, columns: first ..< last, limit: columns, lastRow: row == rows - 1,
                    skipBlanks: false, into: &out)
            }
        } else {
            var blank = cleared
            if !cleared && !strings.clearScreen.isEmpty {
                out += strings.resetAttributes
                out += strings.resetColors
                out += strings.clearScreen
                blank = true
            }
            look = nil
            cursor = nil
            for row in 0 ..< rows {
                put(screen, row: row, columns: 0 ..< columns, limit: columns, lastRow: row == rows - 1,
                    skipBlanks: blank, into: &out)
            }
        }
        if let target = screen.cursor, target.row >= 0, target.row < rows, target.column >= 0, target.column < columns {
            move(to: target.row, target.column, into: &out)
            if cursorShown != true {
                out += strings.showCursor
                cursorShown = true
            }
        } else if cursorShown != false {
            out += strings.hideCursor
            cursorShown = false
        }
    }

    /// Writes the cells of `columns` of `row` (`skipBlanks`: leave plain blanks of a cleared
    /// screen alone). `limit` is the terminal's width.
    private mutating func put(_ screen: Screen, row: Int, columns: Range<Int>, limit: Int, lastRow: Bool,
                              skipBlanks: Bool, into out: inout [UInt8]) {
        screen.cells.withUnsafeBufferPointer { all in
            let line = UnsafeBufferPointer(rebasing: all[row * screen.width ..< (row + 1) * screen.width])
            var column = columns.lowerBound
            while column < columns.upperBound {
                let cell = line[column]
                var span = 1
                while column + span < line.count && line[column + span].isContinuation { span += 1 }
                defer { column += span }
                if cell.isContinuation { continue }
                // A wide character cut by the terminal's edge, or the cell that would scroll.
                if column + span > limit { break }
                if lastRow && strings.lastCellScrolls && column + span == limit { break }
                let code = cell.roleCode
                if skipBlanks && plain[code] && cell.asciiByte == 0x20 { continue }
                move(to: row, column, into: &out)
                setLook(code, into: &out)
                var known = true
                if let byte = cell.asciiByte, byte >= 0x20, byte < 0x7F {
                    out.append(byte)
                } else if let scalar = cell.singleScalar, scalar >= 0xA0,
                          Int(wcwidth(wchar_t(bitPattern: scalar))) == span {
                    cell.appendInlineBytes(to: &out)
                } else if wholeClusters, let text = Self.printable(screen.text(of: cell)) {
                    // Blanks first, then the cluster over them: a terminal that draws it
                    // narrower than the layout measured leaves nothing of the last frame.
                    for _ in 0 ..< span { out.append(0x20) }
                    cursor = nil
                    move(to: row, column, into: &out)
                    setLook(code, into: &out)
                    out += text.utf8
                    known = false
                } else {
                    // Marks, joined emoji, controls, characters too wide for their cells: a
                    // glyph per spacing code point (`CellGlyphs`), padded to the cell. The
                    // terminal may measure them differently, so the next cell moves there
                    // explicitly.
                    var used = 0
                    for glyph in CellGlyphs.glyphs(for: screen.text(of: cell), columns: span) {
                        for character in glyph.characters {
                            guard let scalar = Unicode.Scalar(UInt32(bitPattern: character)) else { continue }
                            UTF8.encode(scalar) { out.append($0) }
                        }
                        used += glyph.width
                    }
                    for _ in used ..< span { out.append(0x20) }
                    known = false
                }
                let next = column + span
                // After the last column the cursor waits to wrap (or has wrapped): unknown.
                cursor = known && next < limit ? (row, next) : nil
            }
        }
    }

    /// Shows `row`, whose cells `changed` differ from the last frame's, by moving the
    /// terminal's cells when, from the first changed column on, it is the last frame's row
    /// moved right (cells inserted there) or left (cells deleted) by at most `longestShift`
    /// cells, and that is shorter than writing the changed cells: the move, then the new
    /// cells. False, and nothing written, when it is not, when a cell there is not one
    /// column drawn as one code point (the terminal's own measure of the others may
    /// differ), or when the terminal cannot move cells.
    private mutating func shift(_ screen: Screen, over previous: Screen, row: Int, changed: Range<Int>,
                                into out: inout [UInt8]) -> Bool {
        let width = screen.width, first = changed.lowerBound
        guard changed.count > 4 + 1, width - first > Self.longestShift else { return false }
        let base = row * width
        let found: (inserted: Bool, count: Int)? = screen.cells.withUnsafeBufferPointer { all in
            previous.cells.withUnsafeBufferPointer { before in
                let new = UnsafeBufferPointer(rebasing: all[base + first ..< base + width])
                let old = UnsafeBufferPointer(rebasing: before[base + first ..< base + width])
                guard new.allSatisfy(Self.isNarrow), old.allSatisfy(Self.isNarrow) else { return nil }
                // Narrow cells that are not long clusters are equal when their bits are.
                func same(_ a: UnsafeBufferPointer<ScreenCell>, _ i: Int, _ b: UnsafeBufferPointer<ScreenCell>, _ j: Int) -> Bool {
                    let count = a.count - max(i, j)
                    return memcmp(a.baseAddress! + i, b.baseAddress! + j, count * MemoryLayout<ScreenCell>.stride) == 0
                }
                for count in 1 ... Self.longestShift {
                    if strings.insertCells != nil, same(new, count, old, 0) { return (true, count) }
                    if strings.deleteCells != nil, same(new, 0, old, count) { return (false, count) }
                }
                return nil
            }
        }
        // A move costs its sequence (about four bytes) and the cells that come in.
        guard let found, found.count + 4 < changed.count else { return false }
        // The cells that come in at the end of a deletion are blank in the look in effect:
        // a plain one.
        let plainCode = plain.firstIndex(of: true)
        guard found.inserted || plainCode != nil else { return false }
        move(to: row, first, into: &out)
        if found.inserted {
            out += strings.insertCells!(found.count)
            put(screen, row: row, columns: first ..< first + found.count, limit: width, lastRow: false,
                skipBlanks: false, into: &out)
        } else {
            setLook(plainCode!, into: &out)
            out += strings.deleteCells!(found.count)
            put(screen, row: row, columns: width - found.count ..< width, limit: width, lastRow: false,
                skipBlanks: true, into: &out)
        }
        return true
    }

    /// Whether a cell takes one column and is drawn as the one code point it holds.
    private static func isNarrow(_ cell: ScreenCell) -> Bool {
        if let byte = cell.asciiByte { return byte >= 0x20 && byte < 0x7F }
        guard let scalar = cell.singleScalar, scalar >= 0xA0 else { return false }
        return wcwidth(wchar_t(bitPattern: scalar)) == 1
    }

    /// The text of a cluster to send whole, or nil when it holds a control character (which
    /// the layout never stores, but no cell may send).
    private static func printable(_ text: String) -> String? {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) } ? nil : text
    }

    private mutating func setLook(_ code: Int, into out: inout [UInt8]) {
        guard look != code else { return }
        // After a look without colours the terminal's colours are the defaults already.
        if let look, !colored[look] {
            out += looksFromDefaultColors[code]
        } else {
            out += looks[code]
        }
        look = code
    }

    private mutating func move(to row: Int, _ column: Int, into out: inout [UInt8]) {
        if let cursor, cursor.row == row, cursor.column == column { return }
        if !strings.movesWithAttributes, let look, !plain[look] {
            out += strings.resetAttributes
            self.look = nil
        }
        strings.appendMove(row: row, column: column, to: &out)
        cursor = (row, column)
    }

    /// The bytes that set `style` from any state: a reset, then its attributes and colours
    /// (`resetColors: false`: from a state with the default colours).
    private func lookBytes(of style: Style, colors: Bool, colorCount: Int, resetColors: Bool = true) -> [UInt8] {
        var bytes = strings.resetAttributes
        if colors && resetColors { bytes += strings.resetColors }
        if style.bold { bytes += strings.bold }
        if style.dim { bytes += strings.dim }
        if style.underline { bytes += strings.underline }
        if style.reverse { bytes += strings.reverse }
        if colors {
            if let foreground = style.foreground, let set = strings.foreground {
                bytes += set(Int(ColorPalette.clamp(foreground.index, colorCount: colorCount)))
            }
            if let background = style.background, let set = strings.background {
                bytes += set(Int(ColorPalette.clamp(background.index, colorCount: colorCount)))
            }
        }
        return bytes
    }
}
