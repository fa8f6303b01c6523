/// Where every name word and handle of a directory starts, bucketed by its first one and
/// first two folded scalars, each bucket in ranking order (shorter name, then directory
/// order).
///
/// A query's first word must start a name word (or the handle must start with the query)
/// for the prefix class, and its first letter must start a name word for the initials
/// class, so those classes are found by walking one bucket rather than the directory.
/// Because a bucket is already in tie-break order, the walk stops as soon as it has found
/// enough results: a keystroke costs in proportion to its results.
struct WordStartIndex: Sendable {
    /// One bucket table: entry positions grouped by a hash of a word's first scalars.
    struct Table: Sendable {
        /// Bucket `b` is `positions[starts[b] ..< starts[b + 1]]`.
        let starts: [Int32]
        let positions: [Int32]
        let bits: Int

        func bucket(_ hash: UInt32) -> Range<Int> {
            let b = Int(hash >> UInt32(32 - bits))
            return Int(starts[b]) ..< Int(starts[b + 1])
        }
    }

    /// Keyed by a word's first scalar.
    let first: Table
    /// Keyed by a word's first two scalars (words of one scalar are only in `first`).
    let pair: Table

    static func hash(_ a: UInt32) -> UInt32 {
        (a &+ 1) &* 0x9E37_79B1
    }

    static func hash(_ a: UInt32, _ b: UInt32) -> UInt32 {
        ((a &* 0x0100_0193) ^ (b &+ 0x5BD1_E995)) &* 0x9E37_79B1
    }

    /// Builds the tables for entries given in ranking `order`; `starts(position, visit)`
    /// calls `visit` with the first two scalars of each name word and of the handle
    /// (the second is nil for a one-scalar word).
    init(count: Int, order: [Int32], starts: (Int, (UInt32, UInt32?) -> Void) -> Void) {
        // About one bucket per 16 entries, within sensible bounds.
        let firstBits = min(16, max(8, Int.bitWidth - (count / 16).leadingZeroBitCount))
        let pairBits = min(20, max(10, Int.bitWidth - (count / 4).leadingZeroBitCount))
        var firstCounts = [Int32](repeating: 0, count: (1 << firstBits) + 1)
        var pairCounts = [Int32](repeating: 0, count: (1 << pairBits) + 1)
        // Counting pass, then a filling pass in ranking order (a counting sort by bucket).
        for position in order {
            var lastFirst = -1
            var lastPair = -1
            starts(Int(position)) { a, b in
                // One entry per bucket: two words of one name with the same start are one hit.
                let f = Int(Self.hash(a) >> UInt32(32 - firstBits))
                if f != lastFirst { firstCounts[f + 1] += 1; lastFirst = f }
                if let b {
                    let p = Int(Self.hash(a, b) >> UInt32(32 - pairBits))
                    if p != lastPair { pairCounts[p + 1] += 1; lastPair = p }
                }
            }
        }
        for i in 1 ..< firstCounts.count { firstCounts[i] += firstCounts[i - 1] }
        for i in 1 ..< pairCounts.count { pairCounts[i] += pairCounts[i - 1] }
        var firstFill = firstCounts
        var pairFill = pairCounts
        var firstPositions = [Int32](repeating: 0, count: Int(firstCounts[firstCounts.count - 1]))
        var pairPositions = [Int32](repeating: 0, count: Int(pairCounts[pairCounts.count - 1]))
        for position in order {
            var lastFirst = -1
            var lastPair = -1
            starts(Int(position)) { a, b in
                let f = Int(Self.hash(a) >> UInt32(32 - firstBits))
                if f != lastFirst {
                    firstPositions[Int(firstFill[f])] = position
                    firstFill[f] += 1
                    lastFirst = f
                }
                if let b {
                    let p = Int(Self.hash(a, b) >> UInt32(32 - pairBits))
                    if p != lastPair {
                        pairPositions[Int(pairFill[p])] = position
                        pairFill[p] += 1
                        lastPair = p
                    }
                }
            }
        }
        first = Table(starts: firstCounts, positions: firstPositions, bits: firstBits)
        pair = Table(starts: pairCounts, positions: pairPositions, bits: pairBits)
    }
}
