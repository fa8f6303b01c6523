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
        cells.reserveCapacity(width)
        for entry in entries {
            let keys = VisibleText.cells(entry.keys, role: .helpKey, clusters: &clusters)
            let action = VisibleText.cells(" " + entry.action, role: .help, clusters: &clusters)
            let gap = cells.isEmpty ? 0 : 2
            guard cells.count + gap + keys.count + action.count <= width else { break }
            cells.append(contentsOf: repeatElement(ScreenCell(ascii: 0x20, .help), count: gap))
            cells += keys
            cells += action
        }
        return cells
    }
}
