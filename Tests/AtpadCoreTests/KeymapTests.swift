import AtpadCore
import Testing

/// The one key table (docs/keys.md, "Every key"): no key means two things in one mode, and
/// lookups follow it.
@Suite struct KeymapTests {
    @Test func noKeyIsBoundTwiceInAMode() {
        for mode in KeyMode.allCases {
            var seen: [Key: Command] = [:]
            for binding in Keymap.bindings where binding.modes.contains(mode) || binding.modes.contains(.anywhere) {
                for key in binding.keys {
                    if let earlier = seen[key], earlier != binding.command {
                        Issue.record("\(key) is bound to \(earlier) and \(binding.command) in \(mode)")
                    }
                    seen[key] = binding.command
                }
            }
        }
    }

    @Test func lookupsFollowTheMode() {
        #expect(Keymap.command(for: .escape, in: .editing) == .unselect)
        #expect(Keymap.command(for: .escape, in: .chooser) == .dismiss)
        #expect(Keymap.command(for: .escape, in: .find) == .cancel)
        #expect(Keymap.command(for: .tab, in: .saveAs) == .completePath)
        #expect(Keymap.command(for: .up, in: .quietChooser) == nil)
        #expect(Keymap.command(for: .alt("3"), in: .quietChooser) == .pickRow(3))
        // Ctrl-Q quits whatever is open.
        for mode in KeyMode.allCases { #expect(Keymap.command(for: .ctrl("q"), in: mode) == .quit) }
        #expect(Keymap.keys(for: .move(.lineStart), in: .editing) == [.ctrl("a"), .home])
    }

    /// Each question's line names its answers from the table, under each one's first key.
    @Test func aQuestionsLineIsMadeFromItsAnswers() {
        #expect(Keymap.answers(in: .quitQuestion) == "(y)es (n)o (Esc) cancel")
        #expect(Keymap.answers(in: .draftQuestion) == "(r)ecover (d)iscard (k)eep both")
        #expect(Keymap.answers(in: .overwriteQuestion) == "(y)es (n)o")
        #expect(Keymap.answers(in: .changedOnDiskQuestion) == "(o)verwrite (r)eload (c)ancel")
        #expect(Keymap.answers(in: .deletedQuestion) == "(s)ave it again (k)eep editing")
        #expect(Keymap.answers(in: .replaceQuestion) == "(y)es (n)o (a)ll")
        #expect(Keymap.answers(in: .postQuestion) == "(y)es (n)o")
        // Only questions have answers.
        for mode in KeyMode.allCases where !mode.isQuestion { #expect(Keymap.answers(in: mode).isEmpty, "\(mode)") }
        // The keys' docs quote the lines as asked.
        #expect(Keymap.bindings.first { $0.command == .quit }?.detail?
            .contains("Save changes before quitting? (y)es (n)o (Esc) cancel") == true)
        #expect(Keymap.bindings.first { $0.command == .replace }?.detail?.contains("Replace? (y)es (n)o (a)ll") == true)
    }

    /// Every answer a line names is looked up through the keymap in its question's mode,
    /// in either case; typed characters mean nothing outside a question.
    @Test func answersResolveThroughTheKeymap() {
        let answers = Keymap.bindings.filter { $0.answer != nil }
        #expect(!answers.isEmpty)
        for binding in answers {
            #expect(binding.modes.allSatisfy { $0.isQuestion }, "\(binding.command)")
            for mode in binding.modes {
                for key in binding.keys {
                    #expect(Keymap.command(for: key, in: mode) == binding.command, "\(key) in \(mode)")
                    if case let .char(c) = key {
                        let other = Character(c.isUppercase ? c.lowercased() : c.uppercased())
                        #expect(Keymap.command(for: .char(other), in: mode) == binding.command, "\(other) in \(mode)")
                    }
                }
            }
        }
        for mode in KeyMode.allCases where !mode.isQuestion {
            for c in "ynarkdoscYN" { #expect(Keymap.command(for: .char(c), in: mode) == nil, "\(c) in \(mode)") }
        }
        #expect(KeyMode.allCases.filter { $0.isQuestion }.count == KeyMode.questions.count)
        // Esc, Ctrl-C and Ctrl-G cancel every question but the draft question, which waits
        // for its answer.
        for mode in KeyMode.questions {
            for key: Key in [.escape, .ctrl("c"), .ctrl("g")] {
                #expect(Keymap.command(for: key, in: mode) == (mode == .draftQuestion ? nil : .cancel), "\(key) in \(mode)")
            }
        }
    }

    @Test func familiesAreOneRowUnderTheirLabel() {
        let rows = Keymap.rows()
        #expect(rows.filter { $0.help == "Select" }.map(\.keys) == ["Shift+arrows"])
        #expect(rows.first { $0.help == "Page up/down" }?.keys == "PgUp, PgDn")
        #expect(rows.first { $0.help == "Chooser: pick" }?.keys == "Enter, Tab")
        #expect(rows.first { $0.help == "Chooser: pick row N" }?.keys == "Alt-1…9")
        #expect(rows.suffix(Keymap.notes.count) == Keymap.notes[...])
    }

    /// Every question is in the key list (docs/keys.md) with the answers its line shows,
    /// and F1's shorter list names the first key of every answer, all from the bindings.
    @Test func theQuestionsAnswersAreListedFromTheirBindings() {
        let rows = Keymap.rows()
        for mode in KeyMode.allCases where mode.isQuestion {
            let row = rows.first { $0.help == mode.question }
            #expect(row?.detail == "answers: " + Keymap.answers(in: mode), "\(mode)")
            for key in Keymap.bindings.filter({ $0.modes.contains(mode) && $0.answer != nil }).compactMap(\.keys.first) {
                #expect(row?.keys.split(separator: " ").contains(Substring(key.name)) == true, "\(key) in \(mode)")
            }
        }
        let f1 = Keymap.rows(questionsTogether: true)
        let listed = Set(f1.filter { ["Yes, no, all", "Draft/file answers", "Cancel"].contains($0.help) }
            .flatMap { $0.keys.split(separator: " ").map(String.init) })
        for binding in Keymap.bindings where binding.answer != nil {
            #expect(listed.contains(binding.keys[0].name), "\(binding.command)")
        }
        #expect(f1.filter { KeyMode.allCases.compactMap(\.question).contains($0.help) }.isEmpty)
    }
}
