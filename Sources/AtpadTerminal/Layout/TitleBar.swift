/// The top row: the program, the file (or "[new comment]"), `[read-only]`, a modified
/// mark and the number of mentions on the left, the cursor's line and column on the right
/// — "atpad — notes.md [+] · 3 mentions          Ln 12, Col 4" — shortened to fit.
enum TitleBar {
    static func draw(_ view: EditorView, mentionCount: Int, position: (line: Int, column: Int),
                     into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .title)
        let cells = title(view, mentionCount: mentionCount, position: position, width: screen.width,
                          clusters: &screen.clusters)
        screen.put(cells, row: row, column: 0)
    }

    /// What the title is made from.
    private struct Drawn: Equatable, Sendable {
        var fileName: String?
        var isReadOnly: Bool
        var isModified: Bool
        var mentionCount: Int
    }

    private static let last = LastCells<Drawn>()

    /// `Ln N, Col C`, ASCII only: built byte by byte, without walking clusters.
    private static func placeCells(_ position: (line: Int, column: Int)) -> [ScreenCell] {
        "Ln \(position.line), Col \(position.column)".utf8.map { ScreenCell(ascii: $0, .title) }
    }

    private static func title(_ view: EditorView, mentionCount: Int, position: (line: Int, column: Int),
                              width: Int, clusters: inout LongClusters) -> [ScreenCell] {
        // The same on most keys (only the position changes as one types): made once.
        let drawn = Drawn(fileName: view.fileName, isReadOnly: view.isReadOnly, isModified: view.isModified,
                          mentionCount: mentionCount)
        let parts = last.parts(for: drawn, clusters: &clusters) { clusters in [
            VisibleText.cells(view.fileName ?? "[new comment]", role: .title, clusters: &clusters),
            VisibleText.cells((view.isReadOnly ? " [read-only]" : "") + (view.isModified ? " [+]" : ""),
                              role: .title, clusters: &clusters),
            VisibleText.cells(" · \(mentionCount) mention" + (mentionCount == 1 ? "" : "s"), role: .title,
                              clusters: &clusters),
            VisibleText.cells("atpad — ", role: .title, clusters: &clusters),
        ] }
        let (name, marks, count, program) = (parts[0], parts[1], parts[2], parts[3])
        // ASCII only: built byte by byte, without walking clusters.
        let place = placeCells(position)
        let named = name + marks
        // `left`, then the position at the right edge, at least two columns apart.
        func withPlace(_ left: [ScreenCell]) -> [ScreenCell]? {
            guard left.count + 2 + place.count <= width else { return nil }
            return left + Array(repeating: ScreenCell(ascii: 0x20, .title), count: width - left.count - place.count)
                + place
        }
        // Whatever does not fit goes, least telling first: the program, the count, the
        // position, then the front of the file name (its end tells files apart best).
        if let cells = withPlace(program + named + count) ?? withPlace(named + count) ?? withPlace(named) {
            return cells
        }
        return named.count <= width ? named : VisibleText.fitLeading(name, width: max(1, width - marks.count)) + marks
    }
}
