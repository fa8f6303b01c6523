import AtpadCore
@testable import AtpadTerminal
import Foundation
import Testing

/// The chooser popup and the one-line picker, as screens
/// (docs/behaviour.md, "Chooser look"; docs/editor.md).
@Suite struct ChooserViewTests {
    let people = (0..<20).map { Candidate(entity: Entity(id: "p\($0)", name: "Person \($0)"), matches: [0..<1]) }

    /// An editor with an explicit search for `query` after `before`, answered with `answer`.
    func searching(_ before: String, _ query: String, answer: [Candidate]?, isFinal: Bool = true,
                   width: Int = 40, config: EditorConfig = EditorConfig()) throws -> Editor {
        var e = try makeEditor(before, width: width, config: config)
        search(&e, typing: query, answer: answer, isFinal: isFinal)
        return e
    }

    // MARK: Placement

    @Test func belowTheCursorRowAtTheTriggerColumn() throws {
        let e = try searching("hi |", "@jo", answer: [john, johanna])
        let f = frame(e, width: 40, height: 9)
        #expect(f.screen.lines == padded([
            "[new comment] · 0 mentions   Ln 1, Col 7",
            "hi @jo",
            "   ┌────────────────────────────────┐",
            "   │ John Doe  @jdoe · iOS engineer │",
            "   │ Johanna Lee                    │",
            "   └────────────────────────────────┘",
            "",
            "",
            "↑↓ Choose  Enter Pick  Esc Dismiss",
        ], 40))
        #expect(Array(f.screen.roleLines[1...5]) == [
            "...sss..................................",
            "...cccccccccccccccccccccccccccccccccc...",
            "...cCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCc...",
            "...ccxxcccccccccccccccccccccccccccccc...",
            "...cccccccccccccccccccccccccccccccccc...",
        ])
        #expect(f.screen.cursor! == (1, 6))
    }

    @Test func aboveWhenThereIsNoRoomBelow() throws {
        let e = try searching("1\n2\n3\n4\n5\nhi |", "@jo", answer: [john, johanna], width: 30)
        let f = frame(e, width: 30, height: 10)
        #expect(f.screen.cursor!.row == 6)
        #expect(Array(f.screen.lines[1...6]) == [
            "1                             ",
            "┌────────────────────────────┐",
            "│ John Doe  @jdoe · iOS eng… │",
            "│ Johanna Lee                │",
            "└────────────────────────────┘",
            "hi @jo                        ",
        ])
    }

    @Test func shrinksToTheRowsAvailableAndNeverCoversTheCursor() throws {
        let e = try searching("1\n2\nhi |", "@p", answer: people, width: 30)
        let f = frame(e, width: 30, height: 8)
        // The cursor is on row 3: one row for the box above it, three below (down to the
        // message line; the help bar stays).
        #expect(Array(f.screen.lines[3...7]) == [
            "hi @p                         ",
            "   ┌──────────┐               ",
            "   │ Person 0 │               ",
            "   └─── 1/20 ↓┘               ",
            "↑↓ Choose  Enter Pick         ",
        ])
    }

    @Test func theBoxNeverCoversTheCursorRow() throws {
        for lines in 0..<12 {
            let before = String(repeating: "x\n", count: lines) + "hi |"
            let e = try searching(before, "@p", answer: people, width: 30)
            for height in 6...14 {
                let f = frame(e, width: 30, height: height)
                let cursor = try #require(f.screen.cursor)
                #expect(f.screen.lines[cursor.row].hasPrefix("hi @p"), "lines \(lines) height \(height)")
                if let box = f.map.chooser {
                    #expect(!box.rows.contains(cursor.row))
                    #expect(box.rows.lowerBound >= 1 && box.rows.upperBound <= height)
                }
            }
        }
    }

    @Test func clampedAtTheRightEdge() throws {
        let e = try searching("a long line of text that goes |", "@jo", answer: [johanna], width: 40)
        let f = frame(e, width: 40, height: 8)
        #expect(Array(f.screen.lines[1...4]) == [
            "a long line of text that goes @jo       ",
            "                         ┌─────────────┐",
            "                         │ Johanna Lee │",
            "                         └─────────────┘",
        ])
    }

    @Test func theBoxNeverLeavesHalfAWideCharacter() throws {
        let e = try searching("|\n漢字漢字漢字漢字漢字漢字漢字漢字", "@jo", answer: [johanna], width: 40)
        let f = frame(e, width: 40, height: 8)
        // The box covers columns 0–14; the character at 14–15 lost its leading half.
        #expect(f.screen.lines[2] == "┌─────────────┐ 漢字漢字漢字漢字        ")
        #expect(f.screen.text(row: 2, column: 15) == " ")
        #expect(f.screen.text(row: 2, column: 16) == "漢")
    }

    @Test func wideCharactersBeforeTheTriggerMoveThePopup() throws {
        let e = try searching("漢字 |", "@", answer: [john])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[2].hasPrefix("     ┌"))
        #expect(f.screen.text(row: 2, column: 5) == "┌")
    }

    @Test func theWidthFitsTheWidestRowUpToSixty() throws {
        let long = Candidate(entity: Entity(id: "x", name: String(repeating: "Long Name ", count: 10)))
        let e = try searching("|", "@", answer: [long, john], width: 100)
        let f = frame(e, width: 100, height: 10)
        let box = try #require(f.map.chooser)
        #expect(box.columns == 0..<60)
        #expect(f.screen.lines[3].hasPrefix("│ Long Name Long Name Long Name Long Name Long Name Long … │"))
    }

    // MARK: Rows

    @Test func matchedCharactersAreEmphasisedAndDetailsDimmed() throws {
        let lee = Candidate(entity: Entity(id: "l", name: "Jo Lee", handle: "jlee"), matches: [0..<2, 3..<4])
        let e = try searching("|", "@", answer: [john, lee])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[4].hasPrefix("│ Jo Lee  @jlee"))
        #expect(f.screen.roleLines[4].hasPrefix("ccxxcxccccddddd"))
        // The selected row is one bar: no emphasis inside it.
        #expect(f.screen.roleLines[3].hasPrefix("cCCCCCCCCCC"))
    }

    /// A participant of the conversation is marked and shows their role first (docs/posting.md).
    @Test func participantsAreMarkedWithTheirRole() throws {
        var joan = Candidate(entity: Entity(id: "j", name: "Joan Roe", handle: "jroe"), matches: [0..<2])
        joan.participantRole = "reviewer"
        let e = try searching("|", "@jo", answer: [joan, john])
        let f = frame(e, width: 44, height: 8)
        #expect(f.screen.lines[3].hasPrefix("│ ● Joan Roe  reviewer · @jroe"))
        #expect(f.screen.lines[4].hasPrefix("│ John Doe  @jdoe · iOS engineer"))
    }

    @Test func namesAndDetailsAreSanitised() throws {
        let evil = Candidate(entity: Entity(id: "e", name: "Eve\u{1B}[2J\u{7}", handle: "e\u{85}ve", detail: "a\nb"))
        let e = try searching("|", "@", answer: [john, evil])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[4] == "│ Eve^[[2J^G  @e<U+0085>ve · a^Jb │".padding(40))
        for row in 0..<f.screen.height {
            for c in 0..<f.screen.width {
                #expect(!f.screen.text(row: row, column: c).unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
            }
        }
    }

    @Test func wideNamesAreMeasuredInColumns() throws {
        let wang = Candidate(entity: Entity(id: "7", name: "王伟", handle: "wang"), matches: [0..<1])
        let e = try searching("|", "@王", answer: [wang, john])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[3] == "│ 王伟  @wang                    │      ")
        #expect(f.screen.text(row: 3, column: 2) == "王")
        #expect(f.screen[3, 3].isContinuation)
        #expect(f.screen.roleLines[3].hasPrefix("cCCCCCCCCCCCC"))
    }

    /// A name's emoji clusters are whole in their cells, and reach the terminal as the
    /// text's do: whole, or by their first code point.
    @Test func namesKeepTheirClustersWhole() throws {
        let family = Candidate(entity: Entity(id: "8", name: "Ana 👩‍👩‍👧‍👦 👍🏽 🇫🇷"), matches: [0..<1])
        let e = try searching("|", "@An", answer: [family])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[3] == "│ Ana 👩‍👩‍👧‍👦 👍🏽 🇫🇷 │" + "".padding(24))
        #expect(f.screen.text(row: 3, column: 6) == "👩‍👩‍👧‍👦")
        #expect(f.screen[3, 7].isContinuation)
        #expect(f.screen.text(row: 3, column: 9) == "👍🏽")
        #expect(f.screen.text(row: 3, column: 12) == "🇫🇷")
        let whole = FrameDiffTests.shown(f.screen, whole: true)
        #expect(Array(whole.text[3][6 ..< 14]) == ["👩‍👩‍👧‍👦", "", " ", "👍🏽", "", " ", "🇫🇷", ""])
        let first = FrameDiffTests.shown(f.screen, whole: false)
        #expect(Array(first.text[3][6 ..< 14]) == ["👩", "", " ", "👍", "", " ", "🇫", "🇷"])
    }

    /// An emoji completion shows its emoji before its name, as a whole cluster in two
    /// cells; an insert that is not one emoji (`#12`) is not drawn.
    @Test func emojiCompletionsShowTheirEmojiBeforeTheName() throws {
        let thumbs = Candidate(entity: Entity(id: "1f44d", name: "thumbs up", handle: "+1", insert: "👍"), matches: [0..<2])
        let thinking = Candidate(entity: Entity(id: "1f914", name: "thinking face", handle: "thinking", insert: "🤔"),
                                 matches: [0..<2])
        let family = Candidate(entity: Entity(id: "1f46a", name: "family", handle: "family", insert: "👩‍👩‍👧‍👦"))
        let issue = Candidate(entity: Entity(id: "12", name: "Crash on save", insert: "#12"))
        let e = try searching("|", ":th", answer: [thumbs, thinking, family, issue],
                              config: EditorConfig(triggers: ["@", ":"]))
        let f = frame(e, width: 40, height: 10)
        #expect(Array(f.screen.lines[1...7]) == [
            ":th                                     ",
            "┌─────────────────────────────┐         ",
            "│ 👍 thumbs up  :+1           │         ",
            "│ 🤔 thinking face  :thinking │         ",
            "│ 👩‍👩‍👧‍👦 family  :family          │         ",
            "│ Crash on save               │         ",
            "└─────────────────────────────┘         ",
        ])
        #expect(f.screen.text(row: 3, column: 2) == "👍")
        #expect(f.screen[3, 3].isContinuation)
        #expect(f.screen.text(row: 5, column: 2) == "👩‍👩‍👧‍👦")
        // The emoji is in the row's colour; the matched characters of the name are still
        // emphasised on a row not selected.
        #expect(f.screen.roleLines[3].hasPrefix("cCCCCCCCCCCC"))
        #expect(f.screen.roleLines[4].hasPrefix("cccccxxcccc"))
        // The one-line picker shows it too.
        let small = frame(e, width: 40, height: 5)
        #expect(small.screen.lines.contains { $0.contains("👍 thumbs up") })
    }

    @Test func onlyAnInsertThatIsOneEmojiIsDrawn() {
        func emoji(_ insert: String?) -> String? {
            ChooserContent.emoji(of: Entity(id: "x", name: "x", insert: insert))
        }
        #expect(emoji("👍") == "👍" && emoji("❤️") == "❤️" && emoji("#️⃣") == "#️⃣" && emoji("👍🏽") == "👍🏽")
        #expect(emoji("🇫🇷") == "🇫🇷")
        for other in [nil, "", "#12", "#", "1", "©", "a", "👍👍", "漢"] as [String?] {
            #expect(emoji(other) == nil, "\(other ?? "nil")")
        }
    }

    /// Every entry of the bundled emoji directory (what `:` answers) shows its emoji.
    @Test func everyBundledEmojiIsDrawnBeforeItsName() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/emoji.json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        #expect(entries.count > 1000)
        for entry in entries {
            let entity = Entity(id: entry["id"] ?? "", name: entry["name"] ?? "", insert: entry["insert"])
            #expect(ChooserContent.emoji(of: entity) == entry["insert"], "\(entry)")
        }
    }

    // MARK: Scrolling

    @Test func aScrollIndicatorShowsWhenThereAreMore() throws {
        var e = try searching("|", "@p", answer: people)
        var f = frame(e, width: 40, height: 14)
        #expect(f.screen.lines[2] == "┌──────────┐".padding(40))
        #expect(f.screen.lines[3] == "│ Person 0 │".padding(40))
        #expect(f.screen.lines[11] == "└─── 1/20 ↓┘".padding(40))
        #expect(f.screen.roleLines[11] == "ccccSSSSSSSc" + String(repeating: ".", count: 28))
        for _ in 0..<9 { _ = e.handle(.down) }
        f = frame(e, width: 40, height: 14)
        #expect(f.screen.lines[2] == "┌──────────↑┐".padding(40))
        #expect(f.screen.lines[3].hasPrefix("│ Person 2 "))
        #expect(f.screen.lines[10].hasPrefix("│ Person 9 "))
        #expect(f.screen.roleLines[10].hasPrefix("cCCCCCCCCCC"))
        #expect(f.screen.lines[11] == "└─── 10/20 ↓┘".padding(40))
        #expect(f.map.chooserItem(atRow: 10, column: 5) == 9)
    }

    @Test func theConfiguredNumberOfRows() throws {
        var config = EditorConfig()
        config.chooserRows = 3
        let e = try searching("|", "@p", answer: people, config: config)
        let f = frame(e, width: 40, height: 14)
        let box = try #require(f.map.chooser)
        #expect(box.rows == 2..<7)
        #expect(f.map.chooser?.items.map(\.index) == [0, 1, 2])
    }

    // MARK: Status rows

    @Test func aDirectoryStillLoadingSaysSo() throws {
        let e = try searching("|", "@jo", answer: nil)
        let f = frame(e, width: 40, height: 8, view: EditorView(loadingDirectories: ["@"]))
        #expect(Array(f.screen.lines[2...4]) == ["┌────────────────────┐", "│ loading directory… │", "└────────────────────┘"].map { $0.padding(40) })
        // Another trigger's directory loading changes nothing here.
        let g = frame(e, width: 40, height: 8, view: EditorView(loadingDirectories: ["#"]))
        #expect(g.screen.lines[3] == "│ searching… │".padding(40))
    }

    @Test func searchingBeforeTheFirstResults() throws {
        let e = try searching("|", "@jo", answer: nil)
        let f = frame(e, width: 40, height: 8)
        #expect(Array(f.screen.lines[2...4]) == ["┌────────────┐", "│ searching… │", "└────────────┘"].map { $0.padding(40) })
        #expect(f.screen.roleLines[3].hasPrefix("cSSSSSSSSSSSSc"))
    }

    @Test func aQuietSignWhileMoreResultsMayCome() throws {
        let e = try searching("|", "@jo", answer: [john], isFinal: false)
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[4].hasPrefix("└─…"))
        #expect(f.screen.roleLines[4].hasPrefix("ccS"))
    }

    @Test func noMatchesForAFinishedEmptySearch() throws {
        let e = try searching("|", "@zz", answer: [])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[3] == "│ no matches │".padding(40))
    }

    @Test func aFailureIsAnErrorRow() throws {
        var e = try searching("|", "@jo", answer: nil)
        _ = e.receive(.failed(queryID: e.search!.queryID, message: "directory command exited with 3"))
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[3] == "│ directory command exited with 3 │".padding(40))
        #expect(f.screen.roleLines[3].hasPrefix("cSSSS"))
    }

    @Test func anErrorAfterSomeResultsKeepsThemAbove() throws {
        var e = try searching("|", "@jo", answer: [john], isFinal: false)
        _ = e.receive(.failed(queryID: e.search!.queryID, message: "timed out"))
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[3].hasPrefix("│ John Doe"))
        #expect(f.screen.lines[4].hasPrefix("│ timed out"))
    }

    // MARK: Implicit searches

    @Test func anImplicitSearchShowsOnlyWithResultsAtTheWordStart() throws {
        var e = try makeEditor("hi |", width: 40)
        search(&e, typing: "joh", answer: [])
        #expect(e.search?.kind == .implicit)
        #expect(frame(e, width: 40, height: 8).map.chooser == nil)
        search(&e, typing: "n", answer: [john])
        let f = frame(e, width: 40, height: 8)
        #expect(f.screen.lines[2].hasPrefix("   ┌"))
        #expect(f.screen.lines.last!.hasPrefix("Tab Pick  ^N/^P Choose"))
    }

    // MARK: The one-line picker

    @Test func aOneLinePickerOnTerminalsUnderSixRows() throws {
        var e = try searching("hi |", "@jo", answer: [john, johanna, jon])
        var f = frame(e, width: 40, height: 5)
        #expect(f.screen.lines.last == "@jo: John Doe │ Johanna Lee │ Jon Snow  ")
        #expect(f.screen.roleLines.last == "cccccCCCCCCCCcccxxccccccccccccxxcccccccc")
        #expect(f.map.chooserItem(atRow: 4, column: 20) == 1)
        #expect(f.map.chooserItem(atRow: 4, column: 14) == nil)
        _ = e.handle(.down)
        _ = e.handle(.down)
        f = frame(e, width: 30, height: 4)
        #expect(f.screen.lines.last == "@jo: … │ Jon Snow             ")
        #expect(f.screen.lines[1] == "hi @jo".padding(30))
    }

    @Test func thePickerAlwaysShowsTheSelectedEntry() throws {
        // Issue 13: in 30 columns, `@jo` then Down selected a row the line did not draw.
        let names = ["John Doe", "Jonathan Reyes", "Johanna Schmidt", "Jon Snow", "Joanna Kowalska", "Johnny Cash"]
        let answer = names.enumerated().map { Candidate(entity: Entity(id: "u\($0.offset)", name: $0.element)) }
        var e = try searching("|", "@jo", answer: answer, width: 30)
        for index in 0 ..< names.count {
            let f = frame(e, width: 30, height: 5)
            let line = f.screen.lines.last ?? ""
            #expect(line.contains(names[index]), "selected \(names[index]) not drawn in \(line)")
            let roles = f.screen.roleLines.last ?? ""
            #expect(roles.contains("C"), "the selected entry is highlighted")
            // A click where the selected entry is drawn picks that entry.
            let column = try #require(line.range(of: names[index]).map { line.distance(from: line.startIndex, to: $0.lowerBound) })
            #expect(f.map.chooserItem(atRow: 4, column: column) == index)
            _ = e.handle(.down)
        }
    }

    @Test func thePickerCutsWithAnEllipsis() throws {
        let e = try searching("|", "@p", answer: people)
        let f = frame(e, width: 30, height: 5)
        #expect(f.screen.lines.last == "@p: Person 0 │ Person 1 │ …   ")
    }

    @Test func thePickerShowsStatus() throws {
        let e = try searching("|", "@jo", answer: nil)
        #expect(frame(e, width: 30, height: 5).screen.lines.last == "@jo: searching…".padding(30))
        let none = try searching("|", "@zz", answer: [])
        #expect(frame(none, width: 30, height: 5).screen.lines.last == "@zz: no matches".padding(30))
    }

    // MARK: The map

    @Test func clicksOnRowsPickResultsAndTheBoxHidesText() throws {
        let e = try searching("hi |", "@jo", answer: [john, johanna])
        let f = frame(e, width: 40, height: 9)
        #expect(f.map.chooserItem(atRow: 3, column: 5) == 0)
        #expect(f.map.chooserItem(atRow: 4, column: 34) == 1)
        #expect(f.map.chooserItem(atRow: 4, column: 3) == nil)   // the border
        #expect(f.map.chooserItem(atRow: 2, column: 10) == nil)  // the top border
        #expect(f.map.isInChooser(row: 2, column: 10))
        #expect(f.map.position(atRow: 3, column: 10) == nil)
        #expect(f.map.position(atRow: 3, column: 1) == 6)        // left of the box: text (the end)
    }

    // MARK: Golden

    @Test func aFullEditingScreen() throws {
        var e = try makeEditor("""
            Thanks @[John Doe](1) and @[Jane Roe](2) for the review.\n\nI think 漢字 and emoji 👍🏽 \
            render fine now; tabs\tare four wide.\nCan |
            """, width: 60)
        search(&e, typing: "@jo", answer: [john, johanna, jon])
        _ = e.handle(.down)
        let f = frame(e, width: 60, height: 16, view: EditorView(fileName: "review.md", isModified: true))
        try expectGolden(f, "editing-60x16")
    }
}
