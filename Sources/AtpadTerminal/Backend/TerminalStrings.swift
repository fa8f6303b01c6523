import CNcursesw

/// The escape sequences frames are written with: read from the terminal's terminfo entry
/// when the backend starts (`fromTerminfo`), or xterm's (`xterm`) for tests.
///
/// Each is already expanded and free of terminfo delays (`$<5>`), so writing one is
/// appending its bytes. Only the cursor position and colours take parameters.
struct TerminalStrings: Sendable {
    /// How the cursor is put on a row and column.
    enum CursorAddressing: Sendable {
        /// `ESC [ row ; column H`, counted from 1: xterm, tmux, the Linux console, VT100
        /// and nearly every terminal in use; formatted without terminfo's interpreter.
        case ansi
        /// Any other `cup`, expanded by ncurses' `tiparm` at each move.
        case terminfo(String)
    }

    var cursorAddressing: CursorAddressing
    /// Clears the screen (`clear`); empty when the terminal has none, and then a full
    /// frame writes every cell, blanks included.
    var clearScreen: [UInt8]
    /// `sgr0`: no attributes (and, on most terminals, default colours).
    var resetAttributes: [UInt8]
    /// `op`: the default colour pair, for terminals whose `sgr0` keeps colours.
    var resetColors: [UInt8]
    var bold: [UInt8]
    var dim: [UInt8]
    var underline: [UInt8]
    /// A curly underline: the extended capability `Smulx` with style 3 (`ESC [ 4:3 m` on
    /// kitty, WezTerm, foot, VTE and tmux); empty where the terminfo entry has none, and
    /// then an undercurl is drawn as `underline`.
    var curlyUnderline: [UInt8]
    var reverse: [UInt8]
    var showCursor: [UInt8]
    var hideCursor: [UInt8]
    /// `setaf` / `setab` for a colour index; nil when the terminal has no such capability.
    var foreground: (@Sendable (Int) -> [UInt8])?
    var background: (@Sendable (Int) -> [UInt8])?
    /// Whether the cursor may move while attributes are on (`msgr`); where not, the
    /// writer resets them first.
    var movesWithAttributes: Bool
    /// Writing the bottom-right cell scrolls the screen: automatic margins (`am`) without
    /// the delayed wrap of `xenl`. That cell is then never written.
    var lastCellScrolls: Bool

    /// Appends the move to `row`, `column` (from 0).
    func appendMove(row: Int, column: Int, to out: inout [UInt8]) {
        switch cursorAddressing {
        case .ansi:
            out.append(0x1B)
            out.append(0x5B)
            Self.appendDecimal(row + 1, to: &out)
            out.append(0x3B)
            Self.appendDecimal(column + 1, to: &out)
            out.append(0x48)
        case let .terminfo(template):
            guard let expanded = atpad_tiparm2(template, Int32(row), Int32(column)) else { return }
            out += Self.withoutDelays(expanded)
        }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(48 + value % 10))
    }

    /// xterm's strings (what `TERM=xterm-256color` gives), for tests and as the model of
    /// what a terminal understands.
    static let xterm = TerminalStrings(
        cursorAddressing: .ansi,
        clearScreen: Array("\u{1B}[H\u{1B}[2J".utf8),
        resetAttributes: Array("\u{1B}(B\u{1B}[m".utf8),
        resetColors: Array("\u{1B}[39;49m".utf8),
        bold: Array("\u{1B}[1m".utf8),
        dim: Array("\u{1B}[2m".utf8),
        underline: Array("\u{1B}[4m".utf8),
        curlyUnderline: [],  // xterm's entry has no `Smulx`
        reverse: Array("\u{1B}[7m".utf8),
        showCursor: Array("\u{1B}[?12l\u{1B}[?25h".utf8),
        hideCursor: Array("\u{1B}[?25l".utf8),
        foreground: { index in Array((index < 8 ? "\u{1B}[3\(index)m" : index < 16 ? "\u{1B}[9\(index - 8)m" : "\u{1B}[38;5;\(index)m").utf8) },
        background: { index in Array((index < 8 ? "\u{1B}[4\(index)m" : index < 16 ? "\u{1B}[10\(index - 8)m" : "\u{1B}[48;5;\(index)m").utf8) },
        movesWithAttributes: true,
        lastCellScrolls: false
    )

    /// The strings of the terminal ncurses has set up (`cur_term`). Call after `newterm`.
    static func fromTerminfo() -> TerminalStrings {
        func string(_ name: String) -> [UInt8] {
            atpad_tigetstr(name).map { withoutDelays($0) } ?? []
        }
        func parameterized(_ name: String) -> (@Sendable (Int) -> [UInt8])? {
            guard let template = atpad_tigetstr(name).map({ String(cString: $0) }) else { return nil }
            return { index in atpad_tiparm1(template, Int32(index)).map { withoutDelays($0) } ?? [] }
        }
        let cup = atpad_tigetstr("cup").map { String(cString: $0) } ?? ""
        // The usual form, with or without its delay, is formatted directly.
        let ansi = cup == "\u{1B}[%i%p1%d;%p2%dH"
        return TerminalStrings(
            cursorAddressing: ansi ? .ansi : .terminfo(cup),
            clearScreen: string("clear"),
            resetAttributes: string("sgr0"),
            resetColors: string("op"),
            bold: string("bold"),
            dim: string("dim"),
            underline: string("smul"),
            curlyUnderline: parameterized("Smulx").map { $0(3) } ?? [],
            reverse: string("rev"),
            showCursor: string("cnorm"),
            hideCursor: string("civis"),
            foreground: parameterized("setaf"),
            background: parameterized("setab"),
            movesWithAttributes: atpad_tigetflag("msgr") != 0,
            lastCellScrolls: atpad_tigetflag("am") != 0 && atpad_tigetflag("xenl") == 0
        )
    }

    /// The bytes of a terminfo string without its delays (`$<5>`, `$<2/>`), which only
    /// `tputs` understands and no terminal in use needs.
    static func withoutDelays(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        var result: [UInt8] = []
        var p = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        while p.pointee != 0 {
            if p.pointee == UInt8(ascii: "$"), p[1] == UInt8(ascii: "<") {
                var end = p + 2
                while end.pointee != 0 && end.pointee != UInt8(ascii: ">") { end += 1 }
                if end.pointee == 0 { break }
                p = end + 1
                continue
            }
            result.append(p.pointee)
            p += 1
        }
        return result
    }
}
