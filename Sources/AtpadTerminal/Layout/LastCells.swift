import Synchronization

/// What a piece of the frame was made into the last time, with the inputs it was made
/// from: every frame is laid out whole, and the help bar and the title's names are the
/// same from one key to the next, so remaking them on every key was most of an empty
/// comment's frame. Cells that name a long cluster are never kept: their number belongs
/// to the screen they were made for.
final class LastCells<Key: Equatable & Sendable>: Sendable {
    private let last = Mutex<(key: Key, parts: [[ScreenCell]])?>(nil)

    /// The parts for `key`: the last ones when `key` is the same, else `make`'s.
    func parts(for key: Key, clusters: inout LongClusters,
               make: (inout LongClusters) -> [[ScreenCell]]) -> [[ScreenCell]] {
        if let kept = last.withLock({ $0.flatMap { $0.key == key ? $0.parts : nil } }) { return kept }
        let parts = make(&clusters)
        if !parts.contains(where: { $0.contains(where: \.isLong) }) { last.withLock { $0 = (key, parts) } }
        return parts
    }
}
