import AtpadCore

/// Turns the last frame into the next one when only part of it can have changed: the
/// rows of the text area an edit did not reach are kept (shifted in the document when they
/// come after it), only the lines it touched are wrapped and drawn again, and of the other
/// rows only those whose inputs changed (title, message, help bar, selection) are redrawn.
///
/// A keystroke then touches a row or two of the screen instead of laying out, filling and
/// comparing all of it: that memory traffic, not the arithmetic, is what the echo of a key
/// costs. The result is the frame `FrameLayout.frame(for:view:width:height:)` would lay out
/// (a property test compares the two after every key of random scripts); where that cannot
/// be known cheaply — a chooser, an overlay, a prompt, find matches, a message on more than
/// one row, an edit above the first row, a cursor that left the rows, a new size —
/// `update` declines and the frame is laid out whole.
enum FrameUpdate {
    /// Declines: the editor no longer keeps a journal of what recent versions left alone,
    /// so every frame is laid out whole and compared with the last.
    static func update(_ frame: inout Frame, editor: Editor, view: EditorView, width: Int, height: Int) -> Bool {
        false
    }
}
