/// The F1 list of every key, covering the text area; in as many balanced columns as the
/// rows need and the width allows (the app closes it on any key).
enum HelpOverlay {
    static func draw(_ entries: [KeyHelp.Entry], into screen: inout Screen, rows: Range<Int>) {
        for r in rows { screen.fill(row: r, role: .help) }
        let height = rows.count
        guard height > 0, !entries.isEmpty, screen.width > 0 else { return }
        let keys = entries.map { VisibleText.cells($0.keys, role: .helpKey, clusters: &screen.clusters) }
        let narrowest = 1 + (keys.map(\.count).max() ?? 0) + 2 + 12
        let columns = min((entries.count + height - 1) / height, max(1, screen.width / narrowest))
        let shown = min(entries.count, columns * height)
        let perColumn = (shown + columns - 1) / columns
        let ranges = (0..<columns).map { column in column * perColumn ..< min(shown, (column + 1) * perColumn) }
        let keyWidths = ranges.map { range in range.map { keys[$0].count }.max() ?? 0 }
        // Columns as wide as their entries when they all fit so (nothing is cut), else equal.
        let actionWidths = entries.map { VisibleText.cells($0.action, role: .help, clusters: &screen.clusters).count }
        let needs = zip(ranges, keyWidths).map { range, keyWidth in
            1 + keyWidth + 2 + (range.map { actionWidths[$0] }.max() ?? 0) + 1
        }
        let widths = needs.reduce(0, +) <= screen.width ? needs : Array(repeating: screen.width / columns, count: columns)
        var left = 0
        for column in 0..<columns {
            let range = ranges[column]
            let keyWidth = keyWidths[column]
            let columnWidth = widths[column]
            defer { left += columnWidth }
            for i in range {
                var cells: [ScreenCell]
                if i == shown - 1 && shown < entries.count {
                    cells = VisibleText.cells(" …", role: .help, clusters: &screen.clusters)
                } else {
                    let pad = String(repeating: " ", count: keyWidth - keys[i].count + 2)
                    cells = VisibleText.cells(" ", role: .help, clusters: &screen.clusters) + keys[i]
                        + VisibleText.cells(pad + entries[i].action, role: .help, clusters: &screen.clusters)
                }
                cells = VisibleText.fit(cells, width: columnWidth - 1, ellipsisRole: .help)
                screen.put(cells, row: rows.lowerBound + i - range.lowerBound, column: left)
            }
        }
    }
}
