import AtpadCore

/// The keys as the help bar, the prompt row and the F1 list show them, all read from
/// ``Keymap`` (docs/keys.md): this file chooses which commands the bottom row names and in
/// what words; the keys themselves are the table's.
enum KeyHelp {
    /// One entry: the keys as written for people, and what they do.
    struct Entry: Hashable, Sendable {
        var keys: String
        var action: String
    }

    /// The bottom row while editing, most important first (trimmed from the end).
    static let bar: [Entry] = entries(.editing, [
        ([.save], "Save"), ([.quit], "Quit"), ([.undo], "Undo"), ([.mentionHere], "Mention"), ([.help], "Help"),
        ([.find], "Find"),
    ])

    /// The bottom row while an explicit search owns the navigation keys.
    static let explicitChooserBar: [Entry] = entries(.chooser, [
        ([.choosePrevious, .chooseNext], "Choose"), ([.pick], "Pick"), ([.dismiss], "Dismiss"), ([.help], "Help"),
    ])

    /// The bottom row while an implicit search shows results (it never steals keys).
    static let implicitChooserBar: [Entry] = entries(.quietChooser, [
        ([.pick], "Pick"), ([.chooseNext, .choosePrevious], "Choose"), ([.dismiss], "Dismiss"), ([.help], "Help"),
    ])

    /// The bottom row while the F1 list is up.
    static let closeBar: [Entry] = [Entry(keys: "Any key", action: "Close help")]

    /// The bottom row while the F2 preview is up (any key but Ctrl-Q goes back).
    static let previewBar: [Entry] = [Entry(keys: "Any key", action: "Back")] + entries(.editing, [([.quit], "Quit")])

    /// The keys a prompt lists at the right end of its row: its mode's bindings with help.
    static func entries(for hint: PromptHint) -> [Entry] {
        switch hint {
        case .saveAs: promptEntries { $0.modes.contains(.saveAs) }
        case .find: promptEntries { $0.modes.contains(.find) }
        case .replace: promptEntries { $0.modes.contains(.replace) }
        case .goToLine: promptEntries { $0.modes.contains(.goToLine) }
        // A question names its answers itself; Esc cancels it as it cancels a prompt.
        case .cancel: promptEntries { $0.command == .cancel }
        }
    }

    /// Every key, for F1.
    static let all: [Entry] = Keymap.rows(questionsTogether: true).map { Entry(keys: $0.keys, action: $0.help) }

    private static func promptEntries(_ include: (Binding) -> Bool) -> [Entry] {
        Keymap.bindings.compactMap { binding in
            guard include(binding), let help = binding.help else { return nil }
            return Entry(keys: shortNames(binding.keys), action: help)
        }
    }

    /// Entries for the bottom row: each names commands of `mode` and shows the first key of
    /// each (`↑↓`, `^N/^P`).
    private static func entries(_ mode: KeyMode, _ items: [([Command], String)]) -> [Entry] {
        items.map { commands, action in
            let keys = commands.compactMap { command in
                (Keymap.keys(for: command, in: mode) + Keymap.keys(for: command, in: .editing)).first
            }
            return Entry(keys: shortNames(keys), action: action)
        }
    }

    /// Short key names joined with `/`, or side by side when each is one symbol (`↑↓`).
    private static func shortNames(_ keys: [Key]) -> String {
        let names = keys.map(\.shortName)
        return names.joined(separator: names.allSatisfy { $0.count == 1 } ? "" : "/")
    }
}
