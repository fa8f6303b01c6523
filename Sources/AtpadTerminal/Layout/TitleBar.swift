/// The top row: the program, the file (or "[new comment]"), a modified mark and the number
/// of mentions — "atpad — notes.md [+] · 3 mentions" — shortened to fit.
enum TitleBar {
    static func draw(_ view: EditorView, mentionCount: Int, into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .title)
        let name = VisibleText.cells(view.fileName ?? "[new comment]", role: .title)
        let mark = VisibleText.cells(view.isModified ? " [+]" : "", role: .title)
        let count = VisibleText.cells(" · \(mentionCount) mention" + (mentionCount == 1 ? "" : "s"), role: .title)
        let program = VisibleText.cells("atpad — ", role: .title)
        // Whatever does not fit goes, least telling first: the program, the count, then
        // the front of the file name (its end tells files apart best).
        let choices = [program + name + mark + count, name + mark + count, name + mark]
        let cells = choices.first { $0.count <= screen.width }
            ?? VisibleText.fitLeading(name, width: max(1, screen.width - mark.count)) + mark
        screen.put(cells, row: row, column: 0)
    }
}
