import Foundation

/// Rows of the frame that come back unchanged frame after frame — the help bar, the
/// title — kept as cells so a keystroke does not build them again. Safe to use from
/// several threads (tests lay out in parallel).
final class RowCache: @unchecked Sendable {
    static let helpBars = RowCache()
    static let titles = RowCache()

    private let lock = NSLock()
    private var byKey: [ExactText: [ScreenCell]] = [:]
    private var bars: [(entries: [KeyHelp.Entry], width: Int, cells: [ScreenCell])] = []

    /// The cells for `key`, made by `make` the first time.
    func cells(key: String, make: () -> [ScreenCell]) -> [ScreenCell] {
        lock.lock()
        let key = ExactText(key)
        if let cells = byKey[key] {
            lock.unlock()
            return cells
        }
        lock.unlock()
        let cells = make()
        lock.lock()
        if byKey.count > 64 { byKey.removeAll() }
        byKey[key] = cells
        lock.unlock()
        return cells
    }

    /// The cells of a help bar of `entries` at `width`. The bars are a few constant arrays,
    /// which compare equal at once when they share storage: no key is built per frame.
    func cells(entries: [KeyHelp.Entry], width: Int, make: () -> [ScreenCell]) -> [ScreenCell] {
        lock.lock()
        if let hit = bars.first(where: { $0.width == width && $0.entries == entries }) {
            lock.unlock()
            return hit.cells
        }
        lock.unlock()
        let cells = make()
        lock.lock()
        if bars.count > 16 { bars.removeAll() }
        bars.append((entries, width, cells))
        lock.unlock()
        return cells
    }
}
