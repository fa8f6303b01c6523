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

    @Test func familiesAreOneRowUnderTheirLabel() {
        let rows = Keymap.rows()
        #expect(rows.filter { $0.help == "Select" }.map(\.keys) == ["Shift+arrows"])
        #expect(rows.first { $0.help == "Page up/down" }?.keys == "PgUp, PgDn")
        #expect(rows.first { $0.help == "Chooser: pick" }?.keys == "Enter, Tab")
        #expect(rows.first { $0.help == "Chooser: pick row N" }?.keys == "Alt-1…9")
        #expect(rows.suffix(Keymap.notes.count) == Keymap.notes[...])
    }
}
