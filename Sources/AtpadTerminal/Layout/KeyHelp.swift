/// The keys atpad answers to (SPEC §9), as the help bar and the F1 list show them.
enum KeyHelp {
    /// One key binding: the keys as written for people, and what they do.
    struct Entry: Hashable, Sendable {
        var keys: String
        var action: String
    }

    /// The bottom row while editing, most important first (trimmed from the end).
    static let bar: [Entry] = [
        Entry(keys: "^S", action: "Save"), Entry(keys: "^Q", action: "Quit"), Entry(keys: "^Z", action: "Undo"),
        Entry(keys: "^Space", action: "Mention"), Entry(keys: "F1", action: "Help"), Entry(keys: "^F", action: "Find"),
    ]

    /// The bottom row while an explicit search owns the navigation keys.
    static let explicitChooserBar: [Entry] = [
        Entry(keys: "↑↓", action: "Choose"), Entry(keys: "Enter", action: "Pick"), Entry(keys: "Esc", action: "Dismiss"),
        Entry(keys: "F1", action: "Help"),
    ]

    /// The bottom row while an implicit search shows results (it never steals keys).
    static let implicitChooserBar: [Entry] = [
        Entry(keys: "Tab", action: "Pick"), Entry(keys: "^N/^P", action: "Choose"), Entry(keys: "Esc", action: "Dismiss"),
        Entry(keys: "F1", action: "Help"),
    ]

    /// The bottom row while the F1 list is up.
    static let closeBar: [Entry] = [Entry(keys: "Any key", action: "Close help")]

    /// The bottom row while the F2 preview is up (any key but Ctrl-Q goes back).
    static let previewBar: [Entry] = [Entry(keys: "Any key", action: "Back"), Entry(keys: "^Q", action: "Quit")]

    /// The keys a prompt lists at the right end of its row, most important first.
    static func entries(for hint: PromptHint) -> [Entry] {
        switch hint {
        case .saveAs: saveAsHint
        case .find: findHint
        case .replace: replaceHint
        case .goToLine: goToLineHint
        case .cancel: cancelHint
        }
    }

    private static let saveAsHint: [Entry] = [
        Entry(keys: "Enter", action: "Save"), Entry(keys: "Tab", action: "Complete"), Entry(keys: "Esc", action: "Cancel"),
    ]
    private static let findHint: [Entry] = [
        Entry(keys: "Enter", action: "Done"), Entry(keys: "^F/↓", action: "Next"), Entry(keys: "⇧Tab/↑", action: "Prev"),
        Entry(keys: "Esc", action: "Cancel"),
    ]
    private static let replaceHint: [Entry] = [Entry(keys: "Enter", action: "OK"), Entry(keys: "Esc", action: "Cancel")]
    private static let goToLineHint: [Entry] = [Entry(keys: "Enter", action: "Go"), Entry(keys: "Esc", action: "Cancel")]
    private static let cancelHint: [Entry] = [Entry(keys: "Esc", action: "Cancel")]

    /// Every key, for F1.
    static let all: [Entry] = [
        Entry(keys: "Ctrl-S", action: "Save"),
        Entry(keys: "Alt-S", action: "Save as"),
        Entry(keys: "Ctrl-Q", action: "Quit (asks to save)"),
        Entry(keys: "Ctrl-Z", action: "Undo"),
        Entry(keys: "Ctrl-Y", action: "Redo"),
        Entry(keys: "Ctrl-C", action: "Copy"),
        Entry(keys: "Ctrl-X", action: "Cut"),
        Entry(keys: "Ctrl-V", action: "Paste"),
        Entry(keys: "Shift+arrows", action: "Select"),
        Entry(keys: "Alt-A", action: "Select all"),
        Entry(keys: "Ctrl-A, Home", action: "Line start"),
        Entry(keys: "Ctrl-E, End", action: "Line end"),
        Entry(keys: "Alt-B, Ctrl-Left", action: "Word left"),
        Entry(keys: "Alt-F, Ctrl-Right", action: "Word right"),
        Entry(keys: "Ctrl-W, Alt-Bksp", action: "Delete word back"),
        Entry(keys: "Alt-D", action: "Delete word forward"),
        Entry(keys: "Ctrl-K", action: "Delete to line end"),
        Entry(keys: "Ctrl-U", action: "Delete to line start"),
        Entry(keys: "PgUp, PgDn", action: "Page up/down"),
        Entry(keys: "Ctrl-Home/End", action: "Document start/end"),
        Entry(keys: "Ctrl-F", action: "Find"),
        Entry(keys: "Ctrl-N, Ctrl-P", action: "Next/previous match"),
        Entry(keys: "Alt-R", action: "Replace"),
        Entry(keys: "Ctrl-L", action: "Go to line"),
        Entry(keys: "Esc", action: "Cancel a prompt"),
        Entry(keys: "Ctrl-Space", action: "Mention here"),
        Entry(keys: "@", action: "Mention: type a name"),
        Entry(keys: "↑↓, Ctrl-P/N", action: "Chooser: move"),
        Entry(keys: "PgUp, PgDn", action: "Chooser: page"),
        Entry(keys: "Enter, Tab", action: "Chooser: pick"),
        Entry(keys: "Alt-1…9", action: "Chooser: pick row N"),
        Entry(keys: "Esc", action: "Chooser: dismiss"),
        Entry(keys: "Bksp at mention", action: "Select, then delete"),
        Entry(keys: "Mouse", action: "Click, drag, wheel"),
        Entry(keys: "F1", action: "This help"),
        Entry(keys: "F2", action: "Preview as saved"),
        Entry(keys: "Alt-Z", action: "Suspend (fg returns)"),
    ]
}
