/// One key as the editor understands it, independent of any terminal.
///
/// The terminal's decoder and the replay key-script parser both produce these.
public enum Key: Hashable, Sendable {
    /// Typed text: one printable character (grapheme cluster).
    case char(Character)
    case enter, tab, backTab, backspace, delete, escape
    case left, right, up, down, home, end, pageUp, pageDown
    case shiftLeft, shiftRight, shiftUp, shiftDown, shiftHome, shiftEnd
    case ctrlLeft, ctrlRight, ctrlHome, ctrlEnd
    /// Ctrl plus a letter, lower-cased (`ctrl("s")` is Ctrl-S).
    case ctrl(Character)
    /// Ctrl-Space (the terminal sends NUL).
    case ctrlSpace
    /// Alt (Meta) plus a character (`alt("b")`, `alt("1")`).
    case alt(Character)
    case altBackspace
    case f1, f2
    /// F7: spelling's corrections (docs/spelling.md).
    case f7
    /// A bracketed paste: the whole pasted text as one key.
    case paste(String)
}
