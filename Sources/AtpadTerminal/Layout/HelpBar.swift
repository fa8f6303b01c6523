/// The bottom row: key names in `help.key`, what they do in `help`, as many entries as fit.
enum HelpBar {
    static func draw(_ entries: [KeyHelp.Entry], into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .help)
        screen.put(cells(entries, width: screen.width), row: row, column: 0)
    }

    /// The bar's cells for a width; the same every frame, so they are worked out once.
    static func cells(_ entries: [KeyHelp.Entry], width: Int) -> [ScreenCell] {
        RowCache.helpBars.cells(entries: entries, width: width) {
            var cells: [ScreenCell] = []
            for entry in entries {
                let keys = VisibleText.cells(entry.keys, role: .helpKey)
                let action = VisibleText.cells(" " + entry.action, role: .help)
                let gap = cells.isEmpty ? [] : VisibleText.cells("  ", role: .help)
                guard cells.count + gap.count + keys.count + action.count <= width else { break }
                cells += gap + keys + action
            }
            return cells
        }
    }
}
