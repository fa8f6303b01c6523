/// The one-line prompt at the bottom of the screen, over the help bar
/// (docs/keys.md, "Prompts and the chooser"): a label (`Find:`, `Save as:`, or a whole
/// question such as `Overwrite notes.md? (y)es (n)o`) and, for prompts that take text, what
/// the person typed with the cursor in it.
public struct PromptLine: Hashable, Sendable {
    /// The label or question, drawn in the `prompt` role.
    public var label: String
    /// The text typed after the label ("" for a question).
    public var text: String
    /// The cursor's place in `text`, as a count of Characters from its start.
    public var cursor: Int
    /// The keys the prompt answers to, shown at the right end of its row when there is
    /// room (the prompt takes the help bar's row, so its keys go there).
    public var hint: PromptHint?

    public init(label: String, text: String = "", cursor: Int? = nil, hint: PromptHint? = nil) {
        self.label = label
        self.text = text
        self.cursor = cursor ?? text.count
        self.hint = hint
    }
}

/// Which keys a prompt lists at the right end of its row.
public enum PromptHint: Hashable, Sendable {
    /// `Save as:` — Tab completes, Enter saves, Esc cancels.
    case saveAs
    /// `Find:` — Enter done, Ctrl-F/Down next, Shift-Tab/Up previous, Esc cancels.
    case find
    /// `Replace:` and `With:` — Enter goes on, Esc cancels.
    case replace
    /// `Go to line:` — Enter goes, Esc cancels.
    case goToLine
    /// A question whose answers its label names: only Esc cancels.
    case cancel
}

/// What may cover the text area instead of the document.
public enum Overlay: Hashable, Sendable {
    /// The F1 list of keys.
    case help
    /// F2: the comment as its file format will write it, read-only.
    case preview(format: String, text: String)
}
