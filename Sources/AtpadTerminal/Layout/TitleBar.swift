/// The top row: the program, the file (or "[new comment]"), `[read-only]`, a modified
/// mark and the number of mentions on the left, the cursor's line and column on the right
/// — "atpad — notes.md [+] · 3 mentions          Ln 12, Col 4" — shortened to fit. In a
/// commit message the subject's length and its limit come before the position
/// (`42/50 · Ln 1, Col 43`, docs/git.md).
enum TitleBar {
    static func draw(_ view: EditorView, mentionCount: Int, position: (line: Int, column: Int),
                     subject: (length: Int, limit: Int)? = nil, into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .title)
        let cells = title(view, mentionCount: mentionCount, position: position, subject: subject, width: screen.width,
                          clusters: &screen.clusters)
        screen.put(cells, row: row, column: 0)
    }

    /// `Ln N, Col C`, ASCII only: built byte by byte, without walking clusters.
    private static func placeCells(_ position: (line: Int, column: Int)) -> [ScreenCell] {
        ascii("Ln \(position.line), Col \(position.column)")
    }

    private static func ascii(_ text: String) -> [ScreenCell] {
        text.utf8.map { ScreenCell(ascii: $0, .title) }
    }

    /// The title's fixed words, each sign one cell: laid out once, not measured on every
    /// key (Unicode's width tables are cold between two keys).
    private static let program = [ScreenCell](cells: "atpad — ")
    private static let separator = [ScreenCell](cells: " · ")

    private static func title(_ view: EditorView, mentionCount: Int, position: (line: Int, column: Int),
                              subject: (length: Int, limit: Int)?, width: Int, clusters: inout LongClusters) -> [ScreenCell] {
        let name = VisibleText.cells(view.fileName ?? "[new comment]", role: .title, clusters: &clusters)
        let marks = VisibleText.cells((view.isReadOnly ? " [read-only]" : "") + (view.isModified ? " [+]" : ""),
                                      role: .title, clusters: &clusters)
        let count = separator + ascii("\(mentionCount) mention" + (mentionCount == 1 ? "" : "s"))
        // ASCII only: built byte by byte, without walking clusters.
        let place = (subject.map { ascii("\($0.length)/\($0.limit)") + separator } ?? []) + placeCells(position)
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

private extension [ScreenCell] {
    /// The title-role cells of fixed text (no long clusters, so no screen's table).
    init(cells text: String) {
        var clusters = LongClusters()
        self = VisibleText.cells(text, role: .title, clusters: &clusters)
        precondition(clusters.count == 0, "the title's fixed words hold no long cluster")
    }
}
