/// What a terminal too small to edit in shows instead of everything else: a centred
/// "terminal too small" (the document is not touched; a resize brings it back).
enum TooSmallNotice {
    /// Below this, the frame is only the notice.
    static let minimumWidth = 20
    static let minimumHeight = 4

    static func applies(width: Int, height: Int) -> Bool {
        width < minimumWidth || height < minimumHeight
    }

    static func draw(into screen: inout Screen) {
        guard screen.width > 0, screen.height > 0 else { return }
        let text = "terminal too small"
        // Too narrow for one line: one word per line.
        let lines = text.count <= screen.width ? [text] : ["terminal", "too small"]
        let first = max(0, (screen.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where first + i < screen.height {
            let cells = VisibleText.fit(VisibleText.cells(line, role: .status, clusters: &screen.clusters),
                                        width: screen.width)
            screen.put(cells, row: first + i, column: max(0, (screen.width - cells.count) / 2))
        }
    }
}
