import Foundation

/// Remembers the cells of short texts drawn outside the document (names, details, the
/// title, the help bar), which come back frame after frame. Two generations, like
/// `WrapCache`, and safe to use from several threads (tests lay out in parallel).
final class VisibleTextCache: @unchecked Sendable {
    struct Key: Hashable {
        var text: String
        var role: Role
        var emphasis: [Range<Int>]
        var emphasisRole: Role?
    }

    static let shared = VisibleTextCache()
    /// Longer texts (a message, say) are converted each time.
    static let longest = 256

    private let capacity = 512
    private let lock = NSLock()
    private var young: [Key: [ScreenCell]] = [:]
    private var old: [Key: [ScreenCell]] = [:]

    func cells(for key: Key) -> [ScreenCell]? {
        lock.lock()
        defer { lock.unlock() }
        if let cells = young[key] { return cells }
        if let cells = old[key] {
            store(key, cells)
            return cells
        }
        return nil
    }

    func store(_ cells: [ScreenCell], for key: Key) {
        lock.lock()
        store(key, cells)
        lock.unlock()
    }

    private func store(_ key: Key, _ cells: [ScreenCell]) {
        if young.count >= capacity {
            old = young
            young = [:]
        }
        young[key] = cells
    }
}
