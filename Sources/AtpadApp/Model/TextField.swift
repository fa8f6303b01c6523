import AtpadCore
import AtpadTerminal

/// The text typed into a prompt, with its cursor: the editing keys of a one-line field
/// (characters, Backspace, Delete, Left/Right, Home/End, Ctrl-A/E/U/K/W, a paste).
struct TextField: Equatable, Sendable {
    private(set) var characters: [Character]
    /// The cursor, as a count of characters from the start.
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Applies an editing key (the text's own bindings in ``Keymap``, as in the document);
    /// returns false for keys a field does not take (the prompt decides what those do).
    /// `changed` tells whether the text changed.
    mutating func handle(_ key: Key) -> (taken: Bool, changed: Bool) {
        let before = characters
        switch key {
        case let .char(c):
            characters.insert(c, at: cursor)
            cursor += 1
            return (true, true)
        case let .paste(text):
            // A prompt is one line: line breaks and tabs in a paste become spaces.
            let line = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
            characters.insert(contentsOf: line, at: cursor)
            cursor += line.count
            return (true, characters != before)
        default:
            break
        }
        switch Keymap.command(for: key, in: .editing) {
        case .backspace?:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .deleteForward?:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .move(.left)?: cursor = max(0, cursor - 1)
        case .move(.right)?: cursor = min(characters.count, cursor + 1)
        case .move(.lineStart)?: cursor = 0
        case .move(.lineEnd)?: cursor = characters.count
        case .deleteToLineStart?:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToLineEnd?:
            characters.removeSubrange(cursor...)
        case .deleteWordBack?:
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return (false, false)
        }
        return (true, characters != before)
    }

    /// Replaces the whole text, the cursor at its end.
    mutating func set(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// The prompt line the terminal draws for this field.
    func line(label: String, hint: PromptHint? = nil) -> PromptLine {
        PromptLine(label: label, text: text, cursor: cursor, hint: hint)
    }
}
