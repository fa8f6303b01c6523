import CNcursesw

/// Turns a frame into the bytes that show it on the terminal, given the frame the terminal
/// shows now: only the cells that changed (from the first to the last changed cell of each
/// row), each run reached with one cursor move, attributes switched only where the role
/// changes, the cursor put last, all in one buffer the backend writes at once.
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
    /// By role code: whether the look is the terminal's plain one (what a clear leaves).
    private var plain: [Bool] = []
    private var cursor: (row: Int, column: Int)?
    private var look: Int?
    private var cursorShown: Bool?

    init(strings: TerminalStrings) {
        self.strings = strings
    }

    /// Sets how each role looks (by role code); the next cell of any role sets its look.
    mutating func setLooks(_ styles: [Style], colors: Bool, colorCount: Int) {
        looks = styles.map { lookBytes(of: $0, colors: colors, colorCount: colorCount) }
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
        let columns = min(columns, screen.width)
        if let previous, previous.width == screen.width, previous.height == screen.height {
            for row in 0 ..< rows {
                guard let changed = screen.changedColumns(row: row, from: previous) else { continue }
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

    /// The text of a cluster to send whole, or nil when it holds a control character (which
    /// the layout never stores, but no cell may send).
    private static func printable(_ text: String) -> String? {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) } ? nil : text
    }

    private mutating func setLook(_ code: Int, into out: inout [UInt8]) {
        guard look != code else { return }
        out += looks[code]
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

    /// The bytes that set `style` from any state: a reset, then its attributes and colours.
    private func lookBytes(of style: Style, colors: Bool, colorCount: Int) -> [UInt8] {
        var bytes = strings.resetAttributes
        if colors { bytes += strings.resetColors }
        if style.bold { bytes += strings.bold }
        if style.dim { bytes += strings.dim }
        if style.undercurl && !strings.curlyUnderline.isEmpty {
            bytes += strings.curlyUnderline
        } else if style.underline || style.undercurl {
            bytes += strings.underline
        }
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
