/// One key binding: the keys, the command they run, in which modes, and how help shows it.
public struct Binding: Sendable {
    public var keys: [Key]
    public var command: Command
    public var modes: Set<KeyMode>
    /// What it does, short enough for F1 and the prompt row; nil for the keys every editor
    /// has (arrows, Enter, Backspace), which F1 does not list.
    public var help: String?
    /// More about it, for docs/keys.md and the man page.
    public var detail: String?
    /// How the keys are written for people when their names are not the best way
    /// (`Shift+arrows`); F1 and the docs show one row for consecutive bindings with the
    /// same help, under the first one's keys.
    public var label: String?
    /// What a question's line calls this answer, under its first key: `yes` reads
    /// `(y)es`, `cancel` on Esc `(Esc) cancel` (``Keymap/answers(in:)``); nil for keys a
    /// question's line does not name.
    public var answer: String?

    public init(_ keys: [Key], _ command: Command, _ modes: Set<KeyMode> = [.editing], help: String? = nil,
                detail: String? = nil, label: String? = nil, answer: String? = nil) {
        self.keys = keys
        self.command = command
        self.modes = modes
        self.help = help
        self.detail = detail
        self.label = label
        self.answer = answer
    }
}

/// One row of the key list (F1, docs/keys.md, the man page): keys as people write them,
/// what they do, and more for the docs.
public struct KeyHelpRow: Hashable, Sendable {
    public var keys: String
    public var help: String
    public var detail: String?
}

/// Every key atpad answers to, in one table: dispatch in the core and the app
/// looks commands up here, and the help bar, F1, the prompt row and the docs' key list
/// (`atpad keys`, docs/keys.md and the man page) are made from it.
public enum Keymap {
    public static let bindings: [Binding] = editing + chooser + prompts + questions

    private static let editing: [Binding] = [
        Binding([.ctrl("s")], .save, help: "Save", detail: "without a `FILE`, asks `Save as:` (with `--print`, ends the edit)"),
        Binding([.alt("s")], .saveAs, help: "Save as", detail: "asks `Save as:`, prefilled with the current name"),
        Binding([.ctrl("q")], .quit, [.anywhere], help: "Quit (asks to save)",
                detail: "with unsaved changes asks *Save changes before quitting? \(answers(in: .quitQuestion))*; "
                    + "works in every prompt, question, help and preview"),
        Binding([.ctrl("z")], .undo, help: "Undo", detail: "text, mentions and cursor together; a pick is one step"),
        Binding([.ctrl("y")], .redo, help: "Redo"),
        Binding([.ctrl("c")], .copy, help: "Copy",
                detail: "atpad's clipboard (mentions kept), and the terminal's (OSC 52) unless `--clipboard internal`"),
        Binding([.ctrl("x")], .cut, help: "Cut", detail: "as Copy, then deletes"),
        Binding([.ctrl("v")], .paste, help: "Paste", detail: "atpad's clipboard"),
        Binding([.shiftLeft], .select(.left), help: "Select", detail: "Shift with the arrows, Home or End; a mention is selected whole",
                label: "Shift+arrows"),
        Binding([.shiftRight], .select(.right), help: "Select"),
        Binding([.shiftUp], .select(.up), help: "Select"),
        Binding([.shiftDown], .select(.down), help: "Select"),
        Binding([.shiftHome], .select(.lineStart), help: "Select"),
        Binding([.shiftEnd], .select(.lineEnd), help: "Select"),
        Binding([.alt("a")], .selectAll, help: "Select all"),
        // One row on F1 (which an 80×24 screen holds whole): start and end.
        Binding([.ctrl("a"), .home], .move(.lineStart), help: "Line start/end", label: "^A/^E, Home/End"),
        Binding([.ctrl("e"), .end], .move(.lineEnd), help: "Line start/end"),
        Binding([.alt("b"), .ctrlLeft], .move(.wordLeft), help: "Word left", detail: "a mention is one word"),
        Binding([.alt("f"), .ctrlRight], .move(.wordRight), help: "Word right", detail: "a mention is one word"),
        Binding([.ctrl("w"), .altBackspace], .deleteWordBack, help: "Delete word back", detail: "a mention reached goes whole"),
        Binding([.alt("d")], .deleteWordForward, help: "Delete word forward", detail: "a mention reached goes whole"),
        // While the notice is shown only; the word forward the rest of the time.
        Binding([.alt("d")], .recoverDraft, [.draftNotice], help: "Recover the draft",
                detail: "while the message line names an unsaved draft (`1 unsaved draft from 10:32 — Alt-D recovers it`): "
                    + "it replaces the text, and Ctrl-Z brings back what was typed before; otherwise Alt-D deletes the word forward"),
        Binding([.ctrl("k")], .deleteToLineEnd, help: "Delete to line end", detail: "at the end of a line, joins the next"),
        Binding([.ctrl("u")], .deleteToLineStart, help: "Delete to line start"),
        Binding([.pageUp], .move(.pageUp), help: "Page up/down"),
        Binding([.pageDown], .move(.pageDown), help: "Page up/down"),
        Binding([.ctrlHome], .move(.documentStart), help: "Document start/end", label: "Ctrl-Home/End"),
        Binding([.ctrlEnd], .move(.documentEnd), help: "Document start/end"),
        Binding([.ctrl("f")], .find, help: "Find", detail: "asks `Find:`; then Ctrl-N / Ctrl-P find the next / previous match"),
        Binding([.ctrl("n")], .findNext, help: "Next/previous match", detail: "of the last Find, when no chooser is shown"),
        Binding([.ctrl("p")], .findPrevious, help: "Next/previous match"),
        Binding([.alt("r")], .replace, help: "Replace",
                detail: "asks `Replace:`, `With:`, then *Replace? \(answers(in: .replaceQuestion))* at each match"),
        Binding([.ctrl("l")], .goToLine, help: "Go to line", detail: "asks `Go to line:` (`N` or `N:C`)"),
        Binding([.escape], .unselect, help: "Unselect", detail: "a selection or a selected mention; never edits"),
        Binding([.ctrlSpace], .mentionHere, help: "Mention here",
                detail: "inserts `@` (right after a word, before that word: `hi jd` → `hi @jd`, searching `jd`); "
                    + "right after a dismissed `@jd` it reopens that search; on a selected mention it re-targets it"),
        Binding([.f1], .help, help: "This help", detail: "every key; any key closes the list (and does nothing else)"),
        Binding([.f2], .preview, help: "Preview as saved",
                detail: "the comment as its format will write it (Slack markup, say); any key returns"),
        Binding([.alt("z")], .suspend, help: "Suspend", detail: "as SIGTSTP does; `fg` brings atpad back"),
        Binding([.alt("q")], .reflow, help: "Reflow paragraph",
                detail: "the paragraph at the cursor (or those the selection touches) to 72 columns, as vim's `gq`; "
                    + "mentions, code and URLs stay whole; lists, quotes, tables, code and trailers are left as they are"),
        Binding([.f7], .correctSpelling, help: "Correct spelling",
                detail: "the misspelt word at or after the cursor, with its suggestions in the chooser; a pick "
                    + "replaces it (one undo step); the last rows add it to your word list or ignore it in this "
                    + "document (docs/spelling.md); Alt-N: the misspelt word after the cursor",
                label: "F7, Alt-N"),
        Binding([.alt("n")], .nextMisspelling, help: "Correct spelling"),
        Binding([.alt("o")], .signOff, help: "Sign off (git)",
                detail: "in git's message files: adds `Signed-off-by: NAME <EMAIL>` (git's committer) after the "
                    + "message's trailers, as `git commit -s` does, once"),
        // The keys every editor has: not listed in F1.
        Binding([.left], .move(.left)),
        Binding([.right], .move(.right)),
        Binding([.up], .move(.up)),
        Binding([.down], .move(.down)),
        Binding([.enter], .newline),
        Binding([.tab], .insertTab),
        Binding([.backspace], .backspace),
        Binding([.delete], .deleteForward),
    ]

    private static let chooser: [Binding] = [
        Binding([.up, .ctrl("p"), .backTab], .choosePrevious, [.chooser], help: "Chooser: move", label: "↑↓, Ctrl-P/N"),
        Binding([.down, .ctrl("n")], .chooseNext, [.chooser], help: "Chooser: move"),
        // A quiet chooser leaves the arrows to the text.
        Binding([.ctrl("n")], .chooseNext, [.quietChooser], help: "Chooser: move"),
        Binding([.ctrl("p")], .choosePrevious, [.quietChooser], help: "Chooser: move"),
        Binding([.pageUp], .choosePageUp, [.chooser], help: "Chooser: page"),
        Binding([.pageDown], .choosePageDown, [.chooser], help: "Chooser: page"),
        Binding([.enter, .tab], .pick, [.chooser], help: "Chooser: pick",
                detail: "a quiet chooser (implicit, emoji) takes Enter only after Tab or Ctrl-N/Ctrl-P"),
        Binding([.tab, .enter], .pick, [.quietChooser], help: "Chooser: pick"),
    ] + (1...9).map { n in
        Binding([.alt(Character("\(n)"))], .pickRow(n), [.chooser, .quietChooser], help: "Chooser: pick row N",
                label: n == 1 ? "Alt-1…9" : nil)
    } + [
        Binding([.escape], .dismiss, [.chooser, .quietChooser], help: "Chooser: dismiss"),
    ]

    private static let prompts: [Binding] = [
        Binding([.enter], .submit, [.saveAs], help: "Save"),
        Binding([.enter], .submit, [.find], help: "Done"),
        Binding([.enter], .submit, [.replace], help: "OK"),
        Binding([.enter], .submit, [.goToLine], help: "Go"),
        Binding([.tab], .completePath, [.saveAs], help: "Complete"),
        Binding([.ctrl("f"), .down], .findNext, [.find], help: "Next"),
        Binding([.backTab, .up], .findPrevious, [.find], help: "Prev"),
        Binding([.escape], .cancel, cancellable, help: "Cancel"),
        Binding([.ctrl("c"), .ctrl("g")], .cancel, cancellable),
    ]

    /// Where Esc, Ctrl-C and Ctrl-G cancel: every prompt and question but the draft
    /// question, which only its answers end (other keys wait for it, docs/drafts.md).
    private static let cancellable = KeyMode.prompts.union(KeyMode.questions).subtracting([.draftQuestion])

    /// The questions' answers, each under the word its question's line calls it; a
    /// question's line names its answers in this order (``answers(in:)``). Upper case
    /// answers too.
    private static let questions: [Binding] = [
        Binding([.char("y"), .char("Y")], .yes, [.quitQuestion, .overwriteQuestion, .replaceQuestion, .postQuestion],
                answer: "yes"),
        Binding([.char("n"), .char("N")], .no, [.quitQuestion, .overwriteQuestion, .replaceQuestion, .postQuestion],
                answer: "no"),
        Binding([.char("a"), .char("A")], .all, [.replaceQuestion], answer: "all"),
        // Quitting is the one question whose line names Esc as well.
        Binding([.escape], .cancel, [.quitQuestion], answer: "cancel"),
        Binding([.char("r"), .char("R")], .recover, [.draftQuestion], answer: "recover"),
        Binding([.char("d"), .char("D")], .discard, [.draftQuestion], answer: "discard"),
        Binding([.char("k"), .char("K")], .keepBoth, [.draftQuestion], answer: "keep both"),
        Binding([.char("o"), .char("O")], .overwrite, [.changedOnDiskQuestion], answer: "overwrite"),
        Binding([.char("r"), .char("R")], .reload, [.changedOnDiskQuestion], answer: "reload"),
        Binding([.char("c"), .char("C")], .cancel, [.changedOnDiskQuestion], answer: "cancel"),
        // A deleted file is asked about where a changed one would be: the yes and no of
        // habit answer it too.
        Binding([.char("s"), .char("S"), .char("y"), .char("Y")], .saveAgain, [.deletedQuestion], answer: "save it again"),
        Binding([.char("k"), .char("K"), .char("c"), .char("C"), .char("n"), .char("N")], .keepEditing, [.deletedQuestion],
                answer: "keep editing"),
    ]

    /// Input that is not a key binding, for F1 and the docs.
    public static let notes: [KeyHelpRow] = [
        KeyHelpRow(keys: "@", help: "Mention: type a name",
                   detail: "or another trigger (# $ % + ~ :) routed to a directory; the chooser follows the name"),
        KeyHelpRow(keys: "Bksp at mention", help: "Select, then delete",
                   detail: "Backspace after a mention (Delete before one) selects it; again deletes it "
                       + "(or trims it with `--trim-mentions`)"),
        KeyHelpRow(keys: "Mouse", help: "Click, drag, wheel",
                   detail: "a click places the cursor (never inside a mention), a drag selects, the wheel moves "
                       + "3 rows, a click on a chooser row picks it"),
        KeyHelpRow(keys: "Terminal paste", help: "One undo step",
                   detail: "a bracketed paste: no search per character; pasted atpad markup becomes mentions"),
    ]

    /// The command `key` runs in `mode` (bindings for every mode first), or nil.
    public static func command(for key: Key, in mode: KeyMode) -> Command? {
        // Pasted text is never a binding, and typed text only a question's answer: the echo
        // path looks nothing up.
        switch key {
        case .paste: return nil
        case .char: return mode.isQuestion ? lookup[mode]?[key] : nil
        default: return lookup[.anywhere]?[key] ?? lookup[mode]?[key]
        }
    }

    /// The answers the line of the question of `mode` names, in the table's order, each
    /// under its first key: `(y)es (n)o (Esc) cancel`.
    public static func answers(in mode: KeyMode) -> String {
        // From `questions` alone: the details of `editing` quote these lines.
        questions.filter { $0.modes.contains(mode) }.compactMap { binding in
            guard let word = binding.answer, let key = binding.keys.first?.name else { return nil }
            return word.hasPrefix(key) ? "(\(key))" + word.dropFirst(key.count) : "(\(key)) \(word)"
        }.joined(separator: " ")
    }

    /// The keys that run `command` in `mode`, in the table's order.
    public static func keys(for command: Command, in mode: KeyMode) -> [Key] {
        bindings.filter { $0.command == command && ($0.modes.contains(mode) || $0.modes.contains(.anywhere)) }
            .flatMap(\.keys)
    }

    /// Built once: the first binding of a key in a mode wins.
    private static let lookup: [KeyMode: [Key: Command]] = {
        var table: [KeyMode: [Key: Command]] = [:]
        for binding in bindings {
            for mode in binding.modes {
                for key in binding.keys where table[mode]?[key] == nil {
                    table[mode, default: [:]][key] = binding.command
                }
            }
        }
        return table
    }()

    /// The key list of docs/keys.md and, with `questionsTogether`, of F1: the bindings with
    /// help of `modes` (consecutive ones with the same help as one row, under the first
    /// one's label or all their keys), then each question of `modes` with its answers (the
    /// bindings its line is made of) — or, together, one row of every answer key, which
    /// keeps F1 on one 80×24 screen — then the notes.
    public static func rows(for modes: Set<KeyMode> = KeyMode.questions.union([.anywhere, .editing, .draftNotice, .chooser, .quietChooser]),
                            questionsTogether: Bool = false) -> [KeyHelpRow] {
        var groups: [[Binding]] = []
        for binding in bindings where binding.help != nil && !binding.modes.isDisjoint(with: modes) {
            if let last = groups.last?.last, last.help == binding.help {
                groups[groups.count - 1].append(binding)
            } else {
                groups.append([binding])
            }
        }
        return groups.map { group in
            var names: [String] = []
            for name in group.flatMap(\.keys).map(\.name) where !names.contains(name) { names.append(name) }
            return KeyHelpRow(keys: group[0].label ?? names.joined(separator: ", "),
                       help: group[0].help!, detail: group.lazy.compactMap(\.detail).first)
        } + (questionsTogether ? answersRow(modes) : questionRows(modes)) + notes
    }

    /// Two rows of the first key of every answer of the questions of `modes`: the yes, no
    /// and all that most questions take, then the answers of the draft and file questions.
    /// (Esc, which cancels them, has its own row.)
    private static func answersRow(_ modes: Set<KeyMode>) -> [KeyHelpRow] {
        let everyday: Set<Command> = [.yes, .no, .all]
        var rows: [(keys: [String], help: String)] = [([], "Yes, no, all"), ([], "Draft/file answers")]
        for binding in questions where !binding.modes.isDisjoint(with: modes) && binding.keys.first != .escape {
            let row = everyday.contains(binding.command) ? 0 : 1
            if let name = binding.keys.first?.name, !rows[row].keys.contains(name) { rows[row].keys.append(name) }
        }
        return rows.filter { !$0.keys.isEmpty }.map { KeyHelpRow(keys: $0.keys.joined(separator: " "), help: $0.help) }
    }

    /// One row a question: the first key of each answer, the question, and its line's
    /// answers as the detail (`(y)es (n)o (Esc) cancel`).
    private static func questionRows(_ modes: Set<KeyMode>) -> [KeyHelpRow] {
        KeyMode.allCases.filter { modes.contains($0) }.compactMap { mode in
            guard let question = mode.question else { return nil }
            let keys = questions.filter { $0.modes.contains(mode) }.compactMap { $0.keys.first?.name }
            return KeyHelpRow(keys: keys.joined(separator: " "), help: question, detail: "answers: " + answers(in: mode))
        }
    }
}
