import AtpadCore
import CNcursesw
@testable import AtpadTerminal
import AtpadTestSupport
import Testing

/// The one frame path: each frame is laid out whole, compared with the frame the terminal
/// shows, and the difference written (`FrameWriter`). After every key of random scripts,
/// a terminal fed only the differences shows exactly the frame — whether it clusters
/// graphemes and atpad sends them whole, or it does not and atpad sends their first code
/// point (`Graphemes`).
@Suite struct FrameDiffTests {
    init() { setlocale(LC_ALL, "C.UTF-8") }

    static let pieces = [
        "a", "b", "word", " ", " ", "  ", "\n", "\n", "\t", "é", "e\u{301}", "漢字", "한", "😀", "👩‍👩‍👧", "🇫🇷",
        "👩‍👩‍👧‍👦", "👍🏽", "❤️",
        "\u{7}", "\u{1B}[31m", "x", "long-word-without-breaks", "@", "#", "@jo", "mi", "(", ".",
        "\r\n", "\r\n", "\r",
    ]
    static let people = [
        Entity(id: "1", name: "John Doe", handle: "jdoe"), Entity(id: "2", name: "Joan Ark"),
        Entity(id: "3", name: "李小龍"), Entity(id: "4", name: "Mia Wong-Smith"), Entity(id: "5", name: "Zoë 😀 Z"),
    ]
    static let keys: [Key] = [
        .backspace, .backspace, .backspace, .delete, .enter, .enter, .left, .right, .up, .down, .home, .end,
        .shiftLeft, .shiftRight, .shiftUp, .shiftDown, .pageUp, .pageDown, .ctrlHome, .ctrlEnd, .escape, .tab,
        .ctrl("z"), .ctrl("y"), .ctrl("w"), .ctrl("k"), .ctrl("u"), .ctrl("x"), .ctrl("v"), .ctrlSpace, .altBackspace,
    ]

    static func randomKey(_ rng: inout SeededRandom) -> Key {
        switch rng.int(0 ..< 12) {
        case 0 ..< 6:
            return .char(Character(rng.pick(pieces.filter { $0.count == 1 })))
        case 6:
            var text = ""
            for _ in 0 ..< rng.int(1 ..< 12) { text += rng.pick(pieces) }
            if rng.chance(0.4) { text += "@[\(rng.pick(people).name)](\(rng.pick(people).id)) " }
            return .paste(text)
        default:
            return rng.pick(keys)
        }
    }

    /// Answers every query with the people whose name starts with it, at once.
    static func run(_ effects: [Effect], _ editor: inout Editor) {
        var queue = effects
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case let .query(id, _, query):
                let found = people.filter { $0.name.lowercased().hasPrefix(query.lowercased()) }.map { Candidate(entity: $0) }
                queue += editor.receive(.batch(queryID: id, found, isFinal: true))
            case let .cancel(id):
                queue += editor.receive(.ended(queryID: id))
            default:
                break
            }
        }
    }

    /// Random changes to what the app puts in the view: messages (now and then one of
    /// several rows), `[read-only]`, the key list or a preview, a prompt, find matches —
    /// each put away again soon.
    static func changeView(_ view: inout EditorView, editor: Editor, step: Int, _ rng: inout SeededRandom) {
        if rng.chance(0.05) { view.message = rng.chance(0.5) ? "" : "Saved (\(step))" }
        if rng.chance(0.01) { view.message = "A message long enough to take more than one row: \(step) of them" }
        if rng.chance(0.02) { view.isReadOnly.toggle() }
        if view.overlay != nil ? rng.chance(0.3) : rng.chance(0.02) {
            view.overlay = view.overlay != nil ? nil : rng.chance(0.5) ? .help : .preview(format: "slack", text: editor.text)
        }
        if view.prompt != nil ? rng.chance(0.2) : rng.chance(0.02) {
            let text = rng.pick(["", "jo", "a\u{1B}b", "a much longer query than the row has room for, 漢字"])
            view.prompt = view.prompt != nil ? nil : PromptLine(label: rng.pick(["Find:", "Overwrite x? (y)es (n)o"]),
                                                                 text: text, cursor: rng.int(0 ..< text.count + 1),
                                                                 hint: rng.pick([nil, .find, .cancel]))
        }
        if !view.matches.isEmpty ? rng.chance(0.2) : rng.chance(0.02) {
            var matches: [Range<Int>] = []
            var p = 0
            let count = editor.storage.count
            let turnOn = view.matches.isEmpty
            while turnOn && p < count {
                p += rng.int(0 ..< 12)
                let end = min(count, p + rng.int(1 ..< 4))
                if p < end { matches.append(p ..< end) }
                p = end
            }
            view.matches = matches
            view.currentMatch = matches.isEmpty ? nil : rng.int(0 ..< matches.count)
        }
    }

    @Test(arguments: 0 ..< 40)
    func theTerminalShowsEveryFrameOfRandomScripts(_ seed: Int) {
        for whole in [false, true] {
            var rng = SeededRandom(seed: UInt64(seed) &* 6_700_417 &+ 11)
            let width = rng.pick([20, 23, 31, 44])
            let height = rng.pick([4, 5, 6, 9, 14])
            var text = ""
            for _ in 0 ..< rng.int(0 ..< 60) { text += rng.pick(Self.pieces) }
            let area = FrameLayout.textArea(width: width, height: height)
            var editor = Editor(MarkedText(text: text), cursor: rng.int(0 ..< text.unicodeScalars.count + 1),
                                config: EditorConfig(triggers: ["@", "#"], implicitThreshold: rng.pick([0, 2, 3]),
                                                     width: area.columns, pageRows: area.rows))
            var view = EditorView(fileName: rng.chance(0.5) ? "notes.md" : nil)
            var writer = FrameWriterTests.writer()
            writer.wholeClusters = whole
            var terminal = Emulator(width: width, height: height, clusters: whole)
            var previous: Screen?
            var script: [Key] = []
            for step in 0 ..< 120 {
                let key = Self.randomKey(&rng)
                script.append(key)
                Self.run(editor.handle(key), &editor)
                view.isModified = editor.isModified
                Self.changeView(&view, editor: editor, step: step, &rng)

                let next = FrameLayout.frame(for: editor, view: view, width: width, height: height)
                var out: [UInt8] = []
                writer.write(next.screen, over: previous, cleared: previous == nil, rows: height, columns: width,
                             into: &out)
                terminal.feed(out)
                let context = "seed \(seed) whole \(whole) step \(step) \(width)×\(height) after \(script.suffix(8))"
                guard terminal.shows(next.screen, whole: whole, context: context) else { return }
                view.viewport = next.viewport
                previous = next.screen
            }
        }
    }

    // MARK: - The diff

    @Test func typingChangesTheTypedRowAndTheTitleOnly() throws {
        var editor = try makeEditor("first line\nsecond| line\nthird line", width: 30)
        var view = EditorView(fileName: "a.md")
        let before = FrameLayout.frame(for: editor, view: view, width: 30, height: 8)
        view.viewport = before.viewport
        _ = editor.handle(.char("!"))
        view.isModified = editor.isModified
        let after = FrameLayout.frame(for: editor, view: view, width: 30, height: 8)
        let changed = (0 ..< 8).compactMap { row in after.screen.changedColumns(row: row, from: before.screen).map { (row, $0) } }
        // The title gains its [+] and its position; on row 2 the "!" and everything after it shifts.
        #expect(changed.map(\.0) == [0, 2])
        #expect(changed[1].1 == 6 ..< 12)
        #expect(after.screen.lines[2].hasPrefix("second! line"))
        // What goes to the terminal for the text row: the changed run, from one move.
        var writer = FrameWriterTests.writer()
        var out: [UInt8] = []
        writer.write(before.screen, over: nil, cleared: true, rows: 8, columns: 30, into: &out)
        out.removeAll()
        writer.write(after.screen, over: before.screen, cleared: false, rows: 8, columns: 30, into: &out)
        #expect(String(decoding: out, as: UTF8.self).contains("\u{1B}[3;7H\u{1B}(B\u{1B}[m\u{1B}[39;49m! line\u{1B}[3;8H"))
    }

    // MARK: - Clusters, both ways

    static let clusters = "a👩‍👩‍👧‍👦b👍🏽c🇫🇷d"

    /// Draws `screen` on a fresh emulated terminal the way `whole` says, through the writer.
    static func shown(_ screen: Screen, whole: Bool) -> Emulator {
        setlocale(LC_ALL, "C.UTF-8")  // the writer and the emulator measure with wcwidth
        var writer = FrameWriterTests.writer()
        writer.wholeClusters = whole
        var terminal = Emulator(width: screen.width, height: screen.height, clusters: whole)
        var out: [UInt8] = []
        writer.write(screen, over: nil, cleared: true, rows: screen.height, columns: screen.width, into: &out)
        terminal.feed(out)
        return terminal
    }

    @Test func aCellHoldsAWholeCluster() throws {
        let f = frame(try makeEditor(Self.clusters + "|"))
        #expect(textLines(f)[0] == Self.clusters + String(repeating: " ", count: 10))
        #expect(f.screen.text(row: 1, column: 1) == "👩‍👩‍👧‍👦")
        #expect(f.screen[1, 2].isContinuation)
        #expect(f.screen.text(row: 1, column: 4) == "👍🏽")
        #expect(f.screen.text(row: 1, column: 7) == "🇫🇷")
        #expect(f.screen.cursor! == (1, 10))
    }

    @Test func wholeClustersAreSentWhole() throws {
        let f = frame(try makeEditor(Self.clusters + "|"))
        let terminal = Self.shown(f.screen, whole: true)
        #expect(terminal.lines[1] == Self.clusters + String(repeating: " ", count: 10))
        #expect(Array(terminal.text[1][0 ..< 10]) == ["a", "👩‍👩‍👧‍👦", "", "b", "👍🏽", "", "c", "🇫🇷", "", "d"])
        #expect(terminal.cursor == (1, 10))
    }

    @Test func otherwiseTheirFirstCodePointIsSent() throws {
        let f = frame(try makeEditor(Self.clusters + "|"))
        let terminal = Self.shown(f.screen, whole: false)
        // The family and the thumb show their first emoji; the flag's two letters each
        // take a column of their own, as a terminal that measures code points draws them.
        #expect(Array(terminal.text[1][0 ..< 10]) == ["a", "👩", "", "b", "👍", "", "c", "🇫", "🇷", "d"])
        #expect(terminal.cursor == (1, 10))
    }

    /// The bytes of a cluster sent whole: blanks over its cells, then the cluster from a
    /// move back to them, and a move to the cell after it (the terminal may measure it
    /// otherwise). Sent by its first code point, the family is one emoji and no joiner.
    @Test func theBytesOfACluster() {
        var screen = Screen(width: 6, height: 1)
        screen[0, 0] = ScreenCell(ascii: 0x61, .text)
        screen[0, 1] = screen.cell("👩‍👩‍👧‍👦", .text)
        screen[0, 2] = .continuation(.text)
        screen[0, 3] = ScreenCell(ascii: 0x62, .text)
        var whole = FrameWriterTests.writer()
        whole.wholeClusters = true
        var out: [UInt8] = []
        whole.write(screen, over: Screen(width: 6, height: 1), cleared: false, rows: 1, columns: 6, into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "\u{1B}[1;1H\u{1B}(B\u{1B}[m\u{1B}[39;49ma  \u{1B}[1;2H👩‍👩‍👧‍👦\u{1B}[1;4Hb\u{1B}[?25l")
        var first = FrameWriterTests.writer()
        out.removeAll()
        first.write(screen, over: Screen(width: 6, height: 1), cleared: false, rows: 1, columns: 6, into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "\u{1B}[1;1H\u{1B}(B\u{1B}[m\u{1B}[39;49ma👩\u{1B}[1;4Hb\u{1B}[?25l")
    }

    /// A cluster typed changes only its own cells and the title; the terminal then shows
    /// it where the cursor was, in both ways.
    @Test(arguments: [false, true])
    func aClusterTypedAfterOthersShowsAtTheCursor(_ whole: Bool) throws {
        var editor = try makeEditor(Self.clusters + "|")
        let before = frame(editor)
        var writer = FrameWriterTests.writer()
        writer.wholeClusters = whole
        var terminal = Emulator(width: 20, height: 8, clusters: whole)
        var out: [UInt8] = []
        writer.write(before.screen, over: nil, cleared: true, rows: 8, columns: 20, into: &out)
        terminal.feed(out)
        _ = editor.handle(.paste("👍🏽"))
        let after = frame(editor)
        #expect((1 ..< 8).compactMap { after.screen.changedColumns(row: $0, from: before.screen) } == [10 ..< 12])
        out.removeAll()
        writer.write(after.screen, over: before.screen, cleared: false, rows: 8, columns: 20, into: &out)
        terminal.feed(out)
        #expect(terminal.text[1][10] == (whole ? "👍🏽" : "👍"))
        #expect(terminal.cursor == (1, 12))
    }

    // MARK: - A line exactly as wide as the row

    /// The cursor at the end of a line that fills its row goes where the next character
    /// will: the start of the row below, which the line gains for it (empty). The title's
    /// `Col` counts the same: the next character is the 21st.
    @Test(arguments: ["abcdefghijklmnopqrst", String(repeating: "👩‍👩‍👧‍👦", count: 10)], [false, true])
    func theNextCharacterAfterAFullRowShowsAtTheCursor(_ line: String, _ whole: Bool) throws {
        var editor = try makeEditor(line + "\nnext line|", width: 20)
        _ = editor.handle(.up)
        _ = editor.handle(.end)
        let view = EditorView(fileName: "a.md")
        let before = FrameLayout.frame(for: editor, view: view, width: 20, height: 8)
        func rows(_ lines: [String]) -> [String] {
            lines.map { $0 + String(repeating: " ", count: 20 - DisplayWidth.of($0)) }
        }
        #expect(textLines(before) == rows([line, "", "next line", "", ""]))
        #expect(before.screen.cursor! == (2, 0))
        #expect(before.screen.lines[0].hasSuffix("Col \(line.count + 1)"))

        var writer = FrameWriterTests.writer()
        writer.wholeClusters = whole
        var terminal = Emulator(width: 20, height: 8, clusters: whole)
        var out: [UInt8] = []
        writer.write(before.screen, over: nil, cleared: true, rows: 8, columns: 20, into: &out)
        terminal.feed(out)
        #expect(terminal.cursor == (2, 0))

        _ = editor.handle(.char("x"))
        let after = FrameLayout.frame(for: editor, view: view, width: 20, height: 8)
        #expect(textLines(after) == rows([line, "x", "next line", "", ""]))
        #expect(after.screen.cursor! == (2, 1))
        #expect(after.screen.lines[0].hasSuffix("Col \(line.count + 2)"))
        out.removeAll()
        writer.write(after.screen, over: before.screen, cleared: false, rows: 8, columns: 20, into: &out)
        terminal.feed(out)
        #expect(terminal.text[2][0] == "x")
        #expect(terminal.cursor == (2, 1))
        #expect(terminal.shows(after.screen, whole: whole, context: "after x"))
    }
}
