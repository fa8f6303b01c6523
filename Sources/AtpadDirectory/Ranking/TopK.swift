import AtpadCore
import HeapModule

/// Keeps the best `limit` keys seen, in a heap whose maximum is the worst kept, so a
/// search over a large directory costs O(n log limit) rather than a full sort.
struct TopK {
    let limit: Int
    private var heap = Heap<RankKey>()
    /// The worst key kept once `limit` are kept, which a key must rank before to get in:
    /// kept apart because it is read for every candidate and the heap works its maximum out.
    private(set) var threshold: RankKey?

    init(limit: Int) {
        self.limit = limit
    }

    mutating func insert(_ key: RankKey) {
        if let threshold {
            guard key < threshold else { return }
            heap.replaceMax(with: key)
        } else {
            heap.insert(key)
            guard heap.count == limit else { return }
        }
        threshold = heap.max
    }

    func sorted() -> [RankKey] {
        heap.unordered.sorted()
    }
}
