import AtpadCore
import Foundation

/// Remembers soft-wrapped lines between frames: a keystroke changes one line, so the
/// next frame re-wraps only that one. Transparent — the layout stays a function of the
/// editor and the view — and safe to use from several threads (tests lay out in parallel).
final class WrapCache: @unchecked Sendable {
    struct Key: Hashable {
        var text: String
        var width: Int
        var tabWidth: Int
        var atomic: [Range<Int>]
    }

    static let shared = WrapCache()

    /// Two generations of a few screens of lines each: a line used again is moved to the
    /// young one, and when the young one fills the old one is dropped. The lines on screen
    /// stay cached while typing; a jump costs at most one small generation to free.
    private let capacity = 256
    private let lock = NSLock()
    private var young: [Key: [SoftWrap.Row]] = [:]
    private var old: [Key: [SoftWrap.Row]] = [:]

    /// The rows of `text`, wrapped now or earlier.
    func rows(_ text: String, width: Int, tabWidth: Int, atomic: [Range<Int>]) -> [SoftWrap.Row] {
        // Long texts (a window of a huge line) are rarely seen twice: not cached.
        guard text.utf8.count <= 4096 else {
            return SoftWrap.rows(text, width: width, tabWidth: tabWidth, atomic: atomic)
        }
        let key = Key(text: text, width: width, tabWidth: tabWidth, atomic: atomic)
        lock.lock()
        if let cached = young[key] {
            lock.unlock()
            return cached
        }
        if let cached = old[key] {
            store(key, cached)
            lock.unlock()
            return cached
        }
        lock.unlock()
        let wrapped = SoftWrap.rows(text, width: width, tabWidth: tabWidth, atomic: atomic)
        lock.lock()
        store(key, wrapped)
        lock.unlock()
        return wrapped
    }

    /// Puts an entry in the young generation, turning generations over when it is full.
    private func store(_ key: Key, _ value: [SoftWrap.Row]) {
        if young.count >= capacity {
            old = young
            young = [:]
            young.reserveCapacity(capacity)
        }
        young[key] = value
    }
}
