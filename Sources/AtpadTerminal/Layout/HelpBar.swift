import Synchronization

/// The bottom row: key names in `help.key`, what they do in `help`, as many entries as fit.
enum HelpBar {
    static func draw(_ entries: [KeyHelp.Entry], into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .help)
        screen.put(memoCells(entries, width: screen.width, clusters: &screen.clusters), row: row, column: 0)
    }

    /// The bars drawn last, by entries and width: every frame draws one of a few bars, the
    /// same as the frame before, and laying out its words is a twentieth of a keystroke's
    /// frame (BENCHMARKS.md, "Fast paths kept and removed"). A bar holding a long cluster
    /// (numbered in its screen's table) is not kept.
    private static let laidOut = Mutex<[Key: [ScreenCell]]>([:])

    private struct Key: Hashable {
        var entries: [KeyHelp.Entry]
        var width: Int
    }

    private static func memoCells(_ entries: [KeyHelp.Entry], width: Int, clusters: inout LongClusters) -> [ScreenCell] {
        let key = Key(entries: entries, width: width)
        if let cells = laidOut.withLock({ $0[key] }) { return cells }
        let cells = cells(entries, width: width, clusters: &clusters)
        if !cells.contains(where: \.isLong) {
            laidOut.withLock { known in
                if known.count >= 16 { known.removeAll() }
                known[key] = cells
            }
        }
        return cells
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
