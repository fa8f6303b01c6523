import AtpadCore
@testable import AtpadTerminal
import Testing

/// The prompt on the bottom row, find matches, the F2 preview and the F1 list (docs/keys.md).
@Suite struct PromptAndOverlayTests {
    // MARK: Prompts

    @Test func aFindPromptShowsItsKeysAtTheRightEnd() throws {
        let e = try makeEditor("one two|", width: 80)
        let prompt = PromptLine(label: "Find:", text: "query", hint: .find)
        let f = frame(e, width: 80, height: 6, view: EditorView(prompt: prompt))
        #expect(f.screen.lines[5] == "Find: query".padding(34) + "Enter Done  ^F/↓ Next  ⇧Tab/↑ Prev  Esc Cancel")
        #expect(f.screen.roleLines[5] == "pppppp" + String(repeating: ".", count: 28)
            + "kkkkkhhhhhhhkkkkhhhhhhhkkkkkkhhhhhhhkkkhhhhhhh")
        // The terminal's cursor is in the prompt, after the text.
        #expect(f.screen.cursor! == (5, 11))
        // Narrower, only the keys that leave the text room stay.
        let narrow = frame(e, width: 40, height: 6, view: EditorView(prompt: prompt))
        #expect(narrow.screen.lines[5] == "Find: query".padding(30) + "Enter Done")
        // The message row above still shows the message.
        let withMessage = frame(e, width: 40, height: 6, view: EditorView(message: "No matches", prompt: prompt))
        #expect(withMessage.screen.lines[4] == "No matches".padding(40))
    }

    @Test func longPromptTextScrollsToKeepTheCursorVisible() throws {
        let e = try makeEditor("|")
        let path = "/home/someone/projects/atpad/notes.md"
        func row(cursor: Int) -> (String, String, (row: Int, column: Int)) {
            let f = frame(e, width: 30, height: 6, view: EditorView(prompt: PromptLine(label: "Save as:", text: path,
                                                                                        cursor: cursor)))
            return (f.screen.lines[5], f.screen.roleLines[5], f.screen.cursor!)
        }
        // At the end: the start is cut, the cursor on the last column.
        let end = row(cursor: path.count)
        #expect(end.0 == "Save as: …ects/atpad/notes.md ")
        #expect(end.1 == "ppppppppp" + String(repeating: ".", count: 21))
        #expect(end.2 == (5, 29))
        // At the start: nothing scrolls, the end is cut.
        let start = row(cursor: 0)
        #expect(start.0 == "Save as: /home/someone/projec…")
        #expect(start.2 == (5, 9))
        // In the middle: cut at both ends, the cursor on its character with one after it.
        let middle = row(cursor: 30)
        #expect(middle.0 == "Save as: …e/projects/atpad/no…")
        #expect(middle.2 == (5, 28))
        #expect(middle.0.dropFirst(28).first == "o")
    }

    @Test func promptTextShowsControlCharactersAsEscapes() throws {
        let e = try makeEditor("|")
        let prompt = PromptLine(label: "Find:", text: "a\u{1B}[2Jb\tc", cursor: 4)
        let f = frame(e, width: 30, height: 6, view: EditorView(prompt: prompt))
        #expect(f.screen.lines[5] == "Find: a^[[2Jb^Ic".padding(30))
        // Four characters before the cursor: a, Esc (two cells), [, 2.
        #expect(f.screen.cursor! == (5, 6 + 5))
    }

    @Test func aQuestionPutsTheCursorAfterItsLabel() throws {
        let e = try makeEditor("hi|")
        let question = PromptLine(label: "Save changes to notes.md? (y)es (n)o", hint: .cancel)
        let wide = frame(e, width: 80, height: 6, view: EditorView(prompt: question))
        #expect(wide.screen.lines[5] == "Save changes to notes.md? (y)es (n)o".padding(70) + "Esc Cancel")
        #expect(wide.screen.cursor! == (5, 37))
        // Too long for the row: its end, which names the answers, stays.
        let long = PromptLine(label: "Overwrite a-very-long-file-name.md? (y)es (n)o")
        let narrow = frame(e, width: 30, height: 6, view: EditorView(prompt: long))
        #expect(narrow.screen.lines[5] == "…ng-file-name.md? (y)es (n)o  ")
        #expect(narrow.screen.roleLines[5] == String(repeating: "p", count: 29) + ".")
        #expect(narrow.screen.cursor! == (5, 29))
    }

    @Test func aPromptHidesTheChooserAndTheHelpBar() throws {
        var e = try makeEditor("hi |", width: 40)
        search(&e, typing: "@jo", answer: [john])
        let f = frame(e, width: 40, height: 9, view: EditorView(prompt: PromptLine(label: "Go to line:", hint: .goToLine)))
        #expect(f.map.chooser == nil)
        #expect(f.screen.lines[2].trimmed.isEmpty)
        #expect(f.screen.lines[8] == "Go to line: ".padding(32) + "Enter Go")
        let wide = frame(e, width: 60, height: 9, view: EditorView(prompt: PromptLine(label: "Go to line:", hint: .goToLine)))
        #expect(wide.screen.lines[8] == "Go to line: ".padding(40) + "Enter Go  Esc Cancel")
    }

    // MARK: Find matches

    @Test func matchesAndTheCurrentMatchHaveTheirRoles() throws {
        var e = try makeEditor("one two one two one|")
        let matches = [0 ..< 3, 8 ..< 11, 16 ..< 19]
        let view = EditorView(matches: matches, currentMatch: 1)
        #expect(textRoles(frame(e, view: view))[0] == "fff.....FFF.....fff.")
        // The selection goes over the other matches; the current match over the selection.
        for _ in 0 ..< 5 { _ = e.handle(.shiftLeft) }
        #expect(textRoles(frame(e, view: view))[0] == "fff.....FFF...vvvvv.")
        #expect(textRoles(frame(e, view: EditorView(matches: matches, currentMatch: 2)))[0] == "fff.....fff...vvFFF.")
        // No current match: all are plain matches.
        #expect(textRoles(frame(e, view: EditorView(matches: matches)))[0] == "fff.....fff...vvvvv.")
    }

    @Test func aMatchInsideAMentionShowsOverIt() throws {
        let e = try makeEditor("hi @[John Doe](1) jo|")
        let f = frame(e, view: EditorView(matches: [4 ..< 6, 13 ..< 15], currentMatch: 0))
        #expect(textLines(f)[0] == "hi @John Doe jo".padding(20))
        #expect(textRoles(f)[0] == "...mFFmmmmmm.ff.....")
    }

    /// The whole find screen: matches, the current one, the prompt with its keys, a
    /// message, the position in the title.
    @Test func aFindScreen() throws {
        let e = try makeEditor("""
            Thanks @[John Doe](1) for the review. John, can you look
            at the join |too? Johanna said she would join later.
            """, width: 60)
        let text = e.text
        // Every "jo", whatever its case (the scalars here are ASCII, one per position).
        let scalars = Array(text.lowercased().unicodeScalars)
        let matches = scalars.indices.dropLast().filter { scalars[$0] == "j" && scalars[$0 + 1] == "o" }.map { $0 ..< $0 + 2 }
        #expect(matches.count == 5)
        let view = EditorView(fileName: "review.md", isModified: true, message: "3 of 5 matches",
                              prompt: PromptLine(label: "Find:", text: "jo", hint: .find), matches: matches,
                              currentMatch: 2)
        let f = frame(e, width: 60, height: 12, view: view)
        try expectGolden(f, "find-60x12")
    }

    @Test func matchesOutOfViewOrEmptyAreIgnored() throws {
        let e = try makeEditor("abc|")
        let f = frame(e, view: EditorView(matches: [1 ..< 1, 2 ..< 3, 50 ..< 60], currentMatch: 7))
        #expect(textRoles(f)[0] == "..f.................")
    }

    // MARK: F2 preview

    @Test func thePreviewCoversTheTextAreaWrappedAndCut() throws {
        let e = try makeEditor("hi @[John Doe](1)|", width: 30)
        let text = "Hi <@U123> and\tthanks\u{1B}!\nsecond line that is long enough to wrap around\nthird\nfourth\nfifth"
        let f = frame(e, width: 30, height: 8, view: EditorView(overlay: .preview(format: "slack", text: text)))
        #expect(f.screen.lines == padded([
            "[new comment]     Ln 1, Col 13",
            "Preview (slack) — read-only",
            "Hi <@U123> and  thanks^[!",
            "second line that is long ",
            "enough to wrap around",
            "third",
            "…",
            "Any key Back  ^Q Quit",
        ], 30))
        #expect(f.screen.roleLines[1] == String(repeating: "p", count: 30))
        #expect(f.screen.roleLines[2] == String(repeating: ".", count: 30))
        #expect(f.screen.cursor == nil)
        #expect(f.map.position(atRow: 2, column: 0) == nil)
        // Wide enough, the heading says how to leave.
        let wide = frame(e, width: 60, height: 8, view: EditorView(overlay: .preview(format: "slack", text: "x")))
        #expect(wide.screen.lines[1] == "Preview (slack) — read-only · any key returns".padding(60))
        #expect(wide.screen.lines[2] == "x".padding(60))
    }

    // MARK: F1 list and help bar

    @Test func theKeyListHasTheNewKeys() throws {
        let listed = Dictionary(KeyHelp.all.map { ($0.keys, $0.action) }, uniquingKeysWith: { a, _ in a })
        #expect(listed["Alt-S"] == "Save as")
        #expect(listed["Ctrl-F"] == "Find")
        #expect(listed["Ctrl-N, Ctrl-P"] == "Next/previous match")
        #expect(listed["Alt-R"] == "Replace")
        #expect(listed["Ctrl-L"] == "Go to line")
        #expect(listed["Alt-A"] == "Select all")
        #expect(listed["F2"] == "Preview as saved")
        #expect(listed["Alt-Z"] == "Suspend")
        // All of them show on an 80×24 F1 screen.
        let f = frame(try makeEditor("|"), width: 80, height: 24, view: EditorView(overlay: .help))
        #expect(!f.screen.lines.contains { $0.hasPrefix(" …") || $0.contains("… ") })
        #expect(f.screen.lines.contains { $0.contains("F2               Preview as saved") })
        #expect(KeyHelp.bar.map(\.keys) == ["^S", "^Q", "^Z", "^Space", "F1", "^F"])
    }

    /// Every binding of the editing and chooser modes that has help is on F1, and every
    /// row of F1 is in the 80×24 screen, under the binding's keys.
    @Test func everyBindingWithHelpIsOnF1() throws {
        let f = frame(try makeEditor("|"), width: 80, height: 24, view: EditorView(overlay: .help))
        let screen = f.screen.lines.joined(separator: "\n")
        let shown: Set<KeyMode> = [.anywhere, .editing, .chooser, .quietChooser]
        for binding in Keymap.bindings where binding.help != nil && !binding.modes.isDisjoint(with: shown) {
            let row = try #require(KeyHelp.all.first { $0.action == binding.help }, "\(binding.command)")
            #expect(screen.contains(row.keys) && screen.contains(row.action), "\(binding.command)")
            // A family under a label (Shift+arrows) is named by it; other rows list every key.
            let labelled = Keymap.bindings.contains { $0.label == row.keys }
            #expect(labelled || binding.keys.allSatisfy { row.keys.contains($0.name) }, "\(binding.command)")
        }
        for note in Keymap.notes { #expect(screen.contains(note.keys) && screen.contains(note.help)) }
    }

    @Test func promptRowsListTheirModesKeys() {
        #expect(KeyHelp.entries(for: .find) == [
            .init(keys: "Enter", action: "Done"), .init(keys: "^F/↓", action: "Next"), .init(keys: "⇧Tab/↑", action: "Prev"),
            .init(keys: "Esc", action: "Cancel"),
        ])
        #expect(KeyHelp.entries(for: .saveAs).map(\.keys) == ["Enter", "Tab", "Esc"])
        #expect(KeyHelp.entries(for: .cancel) == [.init(keys: "Esc", action: "Cancel")])
        #expect(KeyHelp.explicitChooserBar.map(\.keys) == ["↑↓", "Enter", "Esc", "F1"])
        #expect(KeyHelp.implicitChooserBar.map(\.keys) == ["Tab", "^N/^P", "Esc", "F1"])
        #expect(KeyHelp.previewBar.map(\.keys) == ["Any key", "^Q"])
    }
}
