/// The bottom row: key names in `help.key`, what they do in `help`, as many entries as fit.
enum HelpBar {
    static func draw(_ entries: [KeyHelp.Entry], into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .help)
        let cells = cells(entries, width: screen.width, clusters: &screen.clusters)
        screen.put(cells, row: row, column: 0)
    }

    /// The bar's cells for a width (long clusters numbered in `clusters`).
    static func cells(_ entries: [KeyHelp.Entry], width: Int, clusters: inout LongClusters) -> [ScreenCell] {
        var cells: [ScreenCell] = []
        for entry in entries {
            let keys = VisibleText.cells(entry.keys, role: .helpKey, clusters: &clusters)
            let action = VisibleText.cells(" " + entry.action, role: .help, clusters: &clusters)
            let gap = cells.isEmpty ? [] : VisibleText.cells("  ", role: .help, clusters: &clusters)
            guard cells.count + gap.count + keys.count + action.count <= width else { break }
            cells += gap + keys + action
        }
        return cells
    }
}
