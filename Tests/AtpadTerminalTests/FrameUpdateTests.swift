import AtpadCore
@testable import AtpadTerminal
import AtpadTestSupport
import Testing

/// The frame laid out from the last one (`FrameLayout.frame(for:view:width:height:after:)`,
/// which keeps the rows an edit did not reach) is the frame a whole layout gives, after
/// every key of random scripts; and its damage names every cell that changed.
@Suite struct FrameUpdateTests {
    static let pieces = [
        "a", "b", "word", " ", " ", "  ", "\n", "\n", "\t", "é", "e\u{301}", "漢字", "한", "😀", "👩‍👩‍👧", "🇫🇷",
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

    /// A document row as absolute positions and cells, whatever segment it was wrapped from.
    static func absolute(_ row: DocumentRow) -> [String] {
        ["\(row.start) \(row.end) \(row.endsLine)"] + row.cells.map { "\(row.base + $0.offset):\($0.column):\($0.width):\($0.character)" }
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
    /// each put away again soon, so that most frames can still be updated in place.
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

    @Test(arguments: 0 ..< 80)
    func updatedFramesEqualWholeLayouts(_ seed: Int) {
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
        var previous: Frame?
        var updated = 0
        var script: [Key] = []
        for step in 0 ..< 200 {
            let key = Self.randomKey(&rng)
            script.append(key)
            Self.run(editor.handle(key), &editor)
            view.isModified = editor.isModified
            Self.changeView(&view, editor: editor, step: step, &rng)

            let before = previous?.screen
            let oldRows = previous?.map.rows.map(Self.absolute) ?? []
            let next = FrameLayout.frame(for: editor, view: view, width: width, height: height, after: &previous)
            let whole = FrameLayout.frame(for: editor, view: view, width: width, height: height)
            let context = "seed \(seed) step \(step) \(width)×\(height) after \(script.suffix(12))"
            guard next.screen == whole.screen else {
                func show(_ s: Screen) -> String {
                    "cursor \(String(describing: s.cursor))\n" + zip(s.lines, s.roleLines).map { "|\($0)|  |\($1)|" }.joined(separator: "\n")
                }
                Issue.record("screens differ, \(context)\nold rows \(oldRows)\nnew rows \(next.map.rows.map(Self.absolute))\nwhole rows \(whole.map.rows.map(Self.absolute))\ntext \(editor.text.debugDescription)\nupdated:\n\(show(next.screen))\nwhole:\n\(show(whole.screen))")
                return
            }
            guard next.viewport == whole.viewport else {
                Issue.record("viewports differ: \(next.viewport) vs \(whole.viewport), \(context)")
                return
            }
            guard next.map.rows.map(Self.absolute) == whole.map.rows.map(Self.absolute),
                  next.map.documentEnd == whole.map.documentEnd, next.map.chooser == whole.map.chooser else {
                Issue.record("maps differ, \(context)")
                return
            }
            // Replaying the damage on the last screen gives the new one.
            if let before, !next.damage.isFull {
                var replayed = before
                for span in next.damage.spans {
                    // By text, as the backend draws it: the two screens number long clusters
                    // each in its own table.
                    for c in span.columns {
                        replayed[span.row, c] = replayed.cell(next.screen.text(row: span.row, column: c),
                                                              next.screen[span.row, c].role)
                    }
                }
                replayed.cursor = next.screen.cursor
                guard replayed == next.screen else {
                    Issue.record("damage misses changed cells, \(context)")
                    return
                }
            }
            if next.isUpdate { updated += 1 }
            view.viewport = next.viewport
            previous = next
        }
        // Many frames of a script are updates (not whole layouts), or this tests little.
        // (Most scripts update 40–170 of their 200 frames; the chooser, edits above the
        // first row and tiny text areas send the others to a whole layout.)
        #expect(updated >= 10, "seed \(seed): only \(updated) of 200 frames were updated in place")
    }

    @Test func typingRedrawsOnlyTheTypedCellAndTheTitle() throws {
        var editor = try makeEditor("first line\nsecond| line\nthird line", width: 30)
        var view = EditorView(fileName: "a.md")
        var previous: Frame? = FrameLayout.frame(for: editor, view: view, width: 30, height: 8)
        view.viewport = previous!.viewport
        _ = editor.handle(.char("!"))
        view.isModified = editor.isModified
        let next = FrameLayout.frame(for: editor, view: view, width: 30, height: 8, after: &previous)
        #expect(next.isUpdate && !next.damage.isFull)
        // The title gains its [+]; on row 2 the "!" and everything after it shifts.
        #expect(next.damage.spans.map(\.row) == [0, 2])
        #expect(next.damage.spans[1].columns == 6 ..< 12)
        #expect(next.screen.lines[2].hasPrefix("second! line"))
    }

    @Test func anEditAboveTheFirstRowLaysOutTheWholeFrame() throws {
        var editor = try makeEditor("a\nb\nc\nd\ne\nf\ng\nh|", width: 20)
        var view = EditorView()
        var previous: Frame? = FrameLayout.frame(for: editor, view: view, width: 20, height: 6)
        view.viewport = previous!.viewport
        #expect(previous!.map.rows.first!.start > 0)
        _ = editor.handle(.ctrlHome)
        _ = editor.handle(.char("x"))
        let next = FrameLayout.frame(for: editor, view: view, width: 20, height: 6, after: &previous)
        #expect(!next.isUpdate && !next.damage.isFull)
        #expect(next.screen == FrameLayout.frame(for: editor, view: view, width: 20, height: 6).screen)
        #expect(next.screen.lines[1].hasPrefix("xa"))
    }
}

/// A typed key redraws its text row and, in the title, only the cursor's position.
@Suite struct TitlePositionUpdateTests {
    @Test func aTypedKeyRewritesOnlyThePositionInTheTitle() throws {
        var editor = Editor(MarkedText(text: "hello"), cursor: 5, config: EditorConfig(width: 60, pageRows: 9))
        let view = EditorView(fileName: "a.md", isModified: true)
        var last: Frame? = FrameLayout.frame(for: editor, view: view, width: 60, height: 12)
        _ = editor.handle(.char("!"))
        let next = FrameLayout.frame(for: editor, view: view, width: 60, height: 12, after: &last)
        #expect(next.isUpdate)
        #expect(next.screen.lines[0].hasSuffix("Ln 1, Col 7"))
        #expect(next.screen.lines == FrameLayout.frame(for: editor, view: view, width: 60, height: 12).screen.lines)
        let title = try #require(next.damage.spans.first { $0.row == 0 })
        // "Ln 1, Col 6" → "Ln 1, Col 7": one cell, the last.
        #expect(title.columns == 59 ..< 60)
    }

    @Test func aLongerPositionRedrawsTheWholeTitle() throws {
        var editor = Editor(MarkedText(text: "123456789"), cursor: 8, config: EditorConfig(width: 60, pageRows: 9))
        let view = EditorView(fileName: "a.md", isModified: true)
        var last: Frame? = FrameLayout.frame(for: editor, view: view, width: 60, height: 12)
        _ = editor.handle(.right)  // Col 9 → Col 10
        let next = FrameLayout.frame(for: editor, view: view, width: 60, height: 12, after: &last)
        #expect(next.screen.lines[0].hasSuffix("Ln 1, Col 10"))
        #expect(next.screen.lines == FrameLayout.frame(for: editor, view: view, width: 60, height: 12).screen.lines)
    }
}
