import Foundation

/// The bottom row: key names in `help.key`, what they do in `help`, as many entries as fit.
enum HelpBar {
    static func draw(_ entries: [KeyHelp.Entry], into screen: inout Screen, row: Int) {
        screen.fill(row: row, role: .help)
        screen.put(cells(entries, width: screen.width), row: row, column: 0)
    }

    /// The bar's cells for a width; the same every frame, so they are worked out once.
    private static func cells(_ entries: [KeyHelp.Entry], width: Int) -> [ScreenCell] {
        let key = entries.map { $0.keys + "\u{1}" + $0.action }.joined(separator: "\u{2}") + "\u{3}\(width)"
        return HelpBarCache.shared.cells(for: key) {
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

/// The help bars drawn so far, by their entries and width (a handful: one per width the
/// terminal has had).
private final class HelpBarCache: @unchecked Sendable {
    static let shared = HelpBarCache()
    private let lock = NSLock()
    private var bars: [String: [ScreenCell]] = [:]

    func cells(for key: String, make: () -> [ScreenCell]) -> [ScreenCell] {
        lock.lock()
        if let cells = bars[key] {
            lock.unlock()
            return cells
        }
        lock.unlock()
        let cells = make()
        lock.lock()
        if bars.count > 64 { bars.removeAll() }
        bars[key] = cells
        lock.unlock()
        return cells
    }
}
