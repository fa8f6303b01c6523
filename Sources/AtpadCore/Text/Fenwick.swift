/// A Fenwick (binary indexed) tree of integers: prefix sums and point updates in O(log n).
///
/// The text storage keeps one over chunk sizes so that finding the chunk of a position
/// and shifting everything after an edit cost O(log chunks), not O(document).
struct Fenwick: Sendable {
    private var tree: [Int]

    init(_ values: [Int]) {
        tree = [0] + values
        let n = values.count
        if n > 0 {
            for i in 1...n {
                let parent = i + (i & -i)
                if parent <= n { tree[parent] += tree[i] }
            }
        }
    }

    var count: Int { tree.count - 1 }

    /// Adds `delta` to element `index` (0-based).
    mutating func add(_ index: Int, _ delta: Int) {
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// The sum of elements `0 ..< index`.
    func prefix(_ index: Int) -> Int {
        var i = index
        var sum = 0
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The largest `k` such that `prefix(k) <= target`, with the sum reached there.
    /// Elements must be non-negative.
    func lastIndex(withPrefixAtMost target: Int) -> (index: Int, sum: Int) {
        var pos = 0
        var sum = 0
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = pos + step
            if next < tree.count && sum + tree[next] <= target {
                pos = next
                sum += tree[next]
            }
            step /= 2
        }
        return (pos, sum)
    }
}
