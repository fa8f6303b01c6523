import Foundation

/// A bounded memo of two generations: a value used again moves to the young one, and
/// when the young one fills the old one is dropped, so what is drawn frame after frame
/// stays and a jump costs at most one small generation to free. Safe to use from
/// several threads (tests lay out in parallel).
final class GenerationCache<Key: Hashable, Value>: @unchecked Sendable {
    // @unchecked: both generations are only touched under `lock`.
    private let capacity: Int
    private let lock = NSLock()
    private var young: [Key: Value] = [:]
    private var old: [Key: Value] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value for `key`, made by `make` (outside the lock) when it is not kept.
    func value(for key: Key, make: () -> Value) -> Value {
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
        let made = make()
        lock.lock()
        store(key, made)
        lock.unlock()
        return made
    }

    private func store(_ key: Key, _ value: Value) {
        if young.count >= capacity {
            old = young
            young = [:]
            young.reserveCapacity(capacity)
        }
        young[key] = value
    }
}
