/// The top row: the program, the file (or "[new comment]"), a modified mark and the number
/// of mentions — "atpad — notes.md [+] · 3 mentions" — shortened to fit.
enum TitleBar {
    static func draw(_ view: EditorView, mentionCount: Int, into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .title)
        let width = screen.width
        let key = "\(view.fileName ?? "\u{0}")\u{1}\(view.isModified)\u{1}\(mentionCount)\u{1}\(width)"
        let cells = RowCache.titles.cells(key: key) { title(view, mentionCount: mentionCount, width: width) }
        screen.put(cells, row: row, column: 0)
    }

    private static func title(_ view: EditorView, mentionCount: Int, width: Int) -> [ScreenCell] {
        let name = VisibleText.cells(view.fileName ?? "[new comment]", role: .title)
        let mark = VisibleText.cells(view.isModified ? " [+]" : "", role: .title)
        let count = VisibleText.cells(" · \(mentionCount) mention" + (mentionCount == 1 ? "" : "s"), role: .title)
        let program = VisibleText.cells("atpad — ", role: .title)
        // Whatever does not fit goes, least telling first: the program, the count, then
        // the front of the file name (its end tells files apart best).
        let choices = [program + name + mark + count, name + mark + count, name + mark]
        return choices.first { $0.count <= width }
            ?? VisibleText.fitLeading(name, width: max(1, width - mark.count)) + mark
    }
}
