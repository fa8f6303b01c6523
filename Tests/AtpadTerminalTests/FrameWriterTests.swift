import AtpadCore
import CNcursesw
import Testing
@testable import AtpadTerminal

/// The frame writer's bytes, checked two ways: exactly, for the keystroke cases that decide
/// the echo (a typed character costs its own byte and nothing else), and through a small
/// terminal emulator, for random frame sequences (after every frame the terminal shows
/// exactly the screen: every cell's text and look, the cursor and whether it shows).
@Suite struct FrameWriterTests {
    init() { setlocale(LC_ALL, "C.UTF-8") }

    static let styles: [Style] = Role.byCode.map { role in
        switch role {
        case .title: Style(bold: true, reverse: true)
        case .mention: Style(foreground: TerminalColor(3), underline: true)
        case .chooser: Style(foreground: TerminalColor(252), background: TerminalColor(236))
        default: Style()
        }
    }

    static func writer(_ strings: TerminalStrings = .xterm) -> FrameWriter {
        var writer = FrameWriter(strings: strings)
        writer.setLooks(styles, colors: true, colorCount: 256)
        return writer
    }

    static func screen(_ lines: [String], roles: [Role]? = nil, cursor: (Int, Int)?, width: Int = 10) -> Screen {
        var screen = Screen(width: width, height: lines.count)
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                screen[row, column] = ScreenCell(ascii: character.asciiValue!, roles?[row] ?? .text)
            }
        }
        screen.cursor = cursor.map { (row: $0.0, column: $0.1) }
        return screen
    }

    @Test func aTypedCharacterIsOneByte() {
        var writer = Self.writer()
        var out: [UInt8] = []
        let before = Self.screen(["ab", ""], cursor: (0, 2))
        writer.write(before, over: nil, cleared: true, rows: 2, columns: 10, into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "\u{1B}[1;1H\u{1B}(B\u{1B}[m\u{1B}[39;49mab\u{1B}[?12l\u{1B}[?25h")
        out.removeAll()
        let after = Self.screen(["abc", ""], cursor: (0, 3))
        writer.write(after, over: before, cleared: false,
                     rows: 2, columns: 10, into: &out)
        #expect(out == Array("c".utf8))
    }

    @Test func aKeyThatAlsoChangesTheTitleMovesThereAndBack() {
        var writer = Self.writer()
        var out: [UInt8] = []
        let before = Self.screen(["Col 1", "ab"], roles: [.title, .text], cursor: (1, 2))
        writer.write(before, over: nil, cleared: true, rows: 2, columns: 10, into: &out)
        out.removeAll()
        let after = Self.screen(["Col 2", "abc"], roles: [.title, .text], cursor: (1, 3))
        writer.write(after, over: before, cleared: false,
                     rows: 2, columns: 10, into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "\u{1B}[1;5H\u{1B}(B\u{1B}[m\u{1B}[39;49m\u{1B}[1m\u{1B}[7m2\u{1B}[2;3H\u{1B}(B\u{1B}[m\u{1B}[39;49mc")
    }

    @Test func theCursorIsHiddenAndShownOnlyWhenThatChanges() {
        var writer = Self.writer()
        var out: [UInt8] = []
        let shown = Self.screen(["a"], cursor: (0, 1))
        let hidden = Self.screen(["a"], cursor: nil)
        writer.write(shown, over: nil, cleared: true, rows: 1, columns: 10, into: &out)
        out.removeAll()
        writer.write(hidden, over: shown, cleared: false, rows: 1, columns: 10, into: &out)
        #expect(out == Array("\u{1B}[?25l".utf8))
        out.removeAll()
        writer.write(hidden, over: hidden, cleared: false, rows: 1, columns: 10, into: &out)
        #expect(out.isEmpty)
    }

    @Test func aFullFrameOnATerminalShowingSomethingClearsFirst() {
        var writer = Self.writer()
        var out: [UInt8] = []
        writer.write(Self.screen(["a"], cursor: nil), over: nil, cleared: false,
                     rows: 1, columns: 10, into: &out)
        #expect(String(decoding: out, as: UTF8.self).hasPrefix("\u{1B}(B\u{1B}[m\u{1B}[39;49m\u{1B}[H\u{1B}[2J"))
    }

    @Test func theBottomRightCellIsLeftAloneWhereWritingItWouldScroll() {
        var strings = TerminalStrings.xterm
        strings.lastCellScrolls = true
        var writer = Self.writer(strings)
        var out: [UInt8] = []
        writer.write(Self.screen(["xy", "zw"], cursor: nil, width: 2), over: nil, cleared: true,
                     rows: 2, columns: 2, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains("xy") && text.contains("z") && !text.contains("w"))
    }

    @Test func cursorAddressesAreCountedFromOne() {
        var out: [UInt8] = []
        TerminalStrings.xterm.appendMove(row: 0, column: 119, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[1;120H")
    }

    // MARK: - Random frames through an emulator

    /// What a cell may show in the random frames: ASCII, a one-scalar letter, a wide CJK
    /// character, a letter with a combining mark, a control character (shown as `?`).
    static let palette = ["a", "b", " ", "é", "王", "e\u{301}", "\u{7}"]
    static let roles: [Role] = [.text, .title, .mention, .chooser]

    @Test(arguments: 0 ..< 40)
    func randomFramesLeaveTheTerminalShowingTheScreen(_ seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        let width = 9, height = 4
        var writer = Self.writer()
        var terminal = Emulator(width: width, height: height)
        var previous: Screen?
        var screen = Screen(width: width, height: height)
        for frame in 0 ..< 25 {
            var next = screen
            let changes = frame == 0 ? width * height : Int(random.next() % 6) + 1
            for _ in 0 ..< changes {
                let row = Int(random.next() % UInt64(height)), column = Int(random.next() % UInt64(width))
                Self.put(Self.palette[Int(random.next() % UInt64(Self.palette.count))],
                         Self.roles[Int(random.next() % UInt64(Self.roles.count))], row: row, column: column, in: &next)
            }
            next.cursor = random.next() % 5 == 0 ? nil
                : (row: Int(random.next() % UInt64(height)), column: Int(random.next() % UInt64(width)))
            var out: [UInt8] = []
            writer.write(next, over: previous, cleared: previous == nil, rows: height, columns: width, into: &out)
            terminal.feed(out)
            for row in 0 ..< height {
                for column in 0 ..< width where !next[row, column].isContinuation {
                    let expected = Self.shown(next.text(row: row, column: column))
                    #expect(terminal.text[row][column] == expected, "seed \(seed) frame \(frame) cell \(row),\(column)")
                    #expect(terminal.look[row][column] == Emulator.Look(Self.styles[next[row, column].roleCode]),
                            "seed \(seed) frame \(frame) look \(row),\(column)")
                }
            }
            if let cursor = next.cursor {
                #expect(terminal.cursorShown && terminal.cursor == cursor, "seed \(seed) frame \(frame) cursor")
            } else {
                #expect(!terminal.cursorShown)
            }
            previous = next
            screen = next
        }
    }

    /// What the terminal shows for a cell's text (controls as `?`).
    static func shown(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? "?" : $0 }))
    }

    /// Puts `text` at `row`, `column`, keeping wide characters whole: a wide one takes the
    /// next cell as its continuation, and a wide character it overlaps becomes blanks.
    static func put(_ text: String, _ role: Role, row: Int, column: Int, in screen: inout Screen) {
        let wide = text == "王"
        guard !wide || column + 1 < screen.width else { return }
        for c in column ..< column + (wide ? 2 : 1) {
            if screen[row, c].isContinuation { screen[row, c - 1] = .blank }
            if c + 1 < screen.width && screen[row, c + 1].isContinuation { screen[row, c + 1] = .blank }
        }
        screen[row, column] = screen.cell(text, role)
        if wide { screen[row, column + 1] = .continuation(role) }
    }
}

/// The part of a VT100/xterm the frame writer speaks: cursor addressing, clear, SGR, the
/// cursor's visibility, UTF-8 text with wide characters and combining marks. With
/// `clusters`, it draws grapheme clusters whole as a terminal with mode 2027 does: a code
/// point that extends the cluster just drawn joins its cell, which takes the cluster's
/// width; without, each code point is measured on its own (`wcwidth`) and only marks join.
struct Emulator {
    struct Look: Equatable {
        var bold = false, dim = false, underline = false, reverse = false
        var foreground: Int?, background: Int?

        init() {}
        init(_ style: Style) {
            bold = style.bold
            dim = style.dim
            underline = style.underline
            reverse = style.reverse
            foreground = style.foreground?.index
            background = style.background?.index
        }
    }

    let width: Int, height: Int
    var text: [[String]]
    var look: [[Look]]
    var cursor = (row: 0, column: 0)
    var cursorShown = true
    var current = Look()
    var clusters = false
    /// The cell of the cluster drawn last, while the cursor stands right after it.
    private var lastCluster: (row: Int, column: Int)?

    init(width: Int, height: Int, clusters: Bool = false) {
        self.width = width
        self.height = height
        self.clusters = clusters
        text = Array(repeating: Array(repeating: " ", count: width), count: height)
        look = Array(repeating: Array(repeating: Look(), count: width), count: height)
    }

    mutating func feed(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "\u{1B}" {
                i += 1
                if scalars[i] == "(" { i += 2; continue }
                precondition(scalars[i] == "[")
                i += 1
                var parameters = ""
                while !(scalars[i].value >= 0x40 && scalars[i].value <= 0x7E) {
                    parameters.unicodeScalars.append(scalars[i])
                    i += 1
                }
                control(parameters, final: scalars[i])
                i += 1
                continue
            }
            print(scalar)
            i += 1
        }
    }

    private mutating func control(_ parameters: String, final: Unicode.Scalar) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        lastCluster = nil
        switch (parameters.first, final) {
        case (_, "H"):
            cursor = parameters.isEmpty ? (0, 0) : (numbers[0] - 1, numbers[1] - 1)
        case (_, "J"):
            text = Array(repeating: Array(repeating: " ", count: width), count: height)
            look = Array(repeating: Array(repeating: Look(), count: width), count: height)
        case ("?", "h"), ("?", "l"):
            if parameters == "?25" { cursorShown = final == "h" }
        case (_, "m"):
            var k = 0
            let codes = parameters.isEmpty ? [0] : numbers
            while k < codes.count {
                switch codes[k] {
                case 0: current = Look()
                case 1: current.bold = true
                case 2: current.dim = true
                case 4: current.underline = true
                case 7: current.reverse = true
                case 30 ... 37: current.foreground = codes[k] - 30
                case 39: current.foreground = nil
                case 40 ... 47: current.background = codes[k] - 40
                case 49: current.background = nil
                case 90 ... 97: current.foreground = codes[k] - 90 + 8
                case 100 ... 107: current.background = codes[k] - 100 + 8
                case 38: current.foreground = codes[k + 2]; k += 2
                case 48: current.background = codes[k + 2]; k += 2
                default: break
                }
                k += 1
            }
        default:
            Issue.record("unexpected control \(parameters)\(final)")
        }
    }

    private mutating func print(_ scalar: Unicode.Scalar) {
        if clusters, let last = lastCluster {
            var joined = text[last.row][last.column]
            let before = DisplayWidth.of(Character(joined))
            joined.unicodeScalars.append(scalar)
            if joined.count == 1 && last.column + DisplayWidth.of(Character(joined)) <= width {
                text[last.row][last.column] = joined
                let after = DisplayWidth.of(Character(joined))
                for c in last.column + before ..< last.column + after { text[last.row][c] = "" }
                cursor.column = last.column + after
                return
            }
        }
        let columns = clusters ? DisplayWidth.of(Character(scalar)) : Int(wcwidth(wchar_t(bitPattern: scalar.value)))
        if columns == 0 {
            // A mark joins the character before the cursor.
            let column = max(0, min(cursor.column, width) - 1)
            var at = column
            while at > 0 && text[cursor.row][at].isEmpty { at -= 1 }
            text[cursor.row][at].unicodeScalars.append(scalar)
            return
        }
        guard cursor.column + columns <= width else { return }
        text[cursor.row][cursor.column] = String(scalar)
        look[cursor.row][cursor.column] = current
        if columns == 2 { text[cursor.row][cursor.column + 1] = "" }
        lastCluster = cursor
        cursor.column += columns
    }
}

extension Emulator {
    /// The rows as text (the second cell of a wide character is "").
    var lines: [String] { text.map { $0.joined() } }

    /// Whether the terminal shows `screen` exactly — every cell's text as the writer sends
    /// it (`whole`: clusters whole; else a glyph per spacing code point), its look, the
    /// cursor and whether it shows — recording an issue for the first difference.
    func shows(_ screen: Screen, whole: Bool, context: String) -> Bool {
        for row in 0 ..< screen.height {
            for column in 0 ..< screen.width where !screen[row, column].isContinuation {
                var span = 1
                while column + span < screen.width && screen[row, column + span].isContinuation { span += 1 }
                let expected = Self.sent(screen.text(row: row, column: column), span: span, whole: whole)
                let shown = text[row][column ..< min(width, column + span)].joined()
                guard shown == expected else {
                    Issue.record("cell \(row),\(column) shows \(shown.debugDescription), not \(expected.debugDescription); \(context)\n\(lines.joined(separator: "\n"))")
                    return false
                }
                guard look[row][column] == Look(FrameWriterTests.styles[screen[row, column].roleCode]) else {
                    Issue.record("cell \(row),\(column) has the wrong look; \(context)")
                    return false
                }
            }
        }
        let cursorRight = screen.cursor.map { cursorShown && cursor == $0 } ?? !cursorShown
        if !cursorRight { Issue.record("cursor \(cursor) shown \(cursorShown), not \(String(describing: screen.cursor)); \(context)") }
        return cursorRight
    }

    /// What a cell of `span` columns holding `cluster` shows once written.
    static func sent(_ cluster: String, span: Int, whole: Bool) -> String {
        let scalars = cluster.unicodeScalars
        if whole || (scalars.count == 1 && Int(wcwidth(wchar_t(bitPattern: scalars.first!.value))) == span) {
            return cluster
        }
        var shown = ""
        var used = 0
        for glyph in CellGlyphs.glyphs(for: cluster, columns: span) {
            for c in glyph.characters { shown.unicodeScalars.append(Unicode.Scalar(UInt32(bitPattern: c))!) }
            used += glyph.width
        }
        return shown + String(repeating: " ", count: max(0, span - used))
    }
}

/// A small seeded generator, so a failing case can be run again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
