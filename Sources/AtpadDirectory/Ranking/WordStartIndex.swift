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

    /// The bucket bits of the two tables for a directory of `count` entries: about one
    /// bucket per 16 entries (first scalar) and per 4 entries (first two), within bounds.
    static func bits(count: Int) -> (first: Int, pair: Int) {
        (min(16, max(8, Int.bitWidth - (count / 16).leadingZeroBitCount)),
         min(20, max(10, Int.bitWidth - (count / 4).leadingZeroBitCount)))
    }

    /// The first-scalar bucket of a word starting with `a`, for `bits` bits.
    static func firstBucket(_ a: UInt32, bits: Int) -> Int32 {
        Int32(hash(a) >> UInt32(32 - bits))
    }

    /// The two-scalar bucket of a word starting with `a`, `b`, for `bits` bits.
    static func pairBucket(_ a: UInt32, _ b: UInt32, bits: Int) -> Int32 {
        Int32(hash(a, b) >> UInt32(32 - bits))
    }

    /// Builds the tables from every word start, listed in ranking order: `positions[i]`
    /// is the entry, `firsts[i]` its first-scalar bucket and `pairs[i]` its two-scalar
    /// bucket (-1 for a one-scalar word). Two counting sorts, no comparisons; the bucket
    /// lists are consumed (marked in place) to keep the peak memory of a million names down.
    init(bits: (first: Int, pair: Int), positions: [Int32], firsts: inout [Int32], pairs: inout [Int32]) {
        first = Self.table(bits: bits.first, positions: positions, buckets: &firsts)
        pair = Self.table(bits: bits.pair, positions: positions, buckets: &pairs)
    }

    /// A counting sort of `positions` into `1 << bits` buckets (`buckets[i]`, -1: none),
    /// keeping their order within a bucket and one entry per entry and bucket.
    private static func table(bits: Int, positions: [Int32], buckets: inout [Int32]) -> Table {
        var starts = [Int32](repeating: 0, count: (1 << bits) + 1)
        var previous: (position: Int32, bucket: Int32) = (-1, -1)
        for i in positions.indices {
            let b = buckets[i]
            guard b >= 0 else { continue }
            // Two words of one name with the same start are one hit (adjacent: the list
            // holds each entry's words together).
            if positions[i] == previous.position && b == previous.bucket {
                buckets[i] = -1
                continue
            }
            previous = (positions[i], b)
            starts[Int(b) + 1] += 1
        }
        for i in 1 ..< starts.count { starts[i] += starts[i - 1] }
        var fill = starts
        var sorted = [Int32](repeating: 0, count: Int(starts[starts.count - 1]))
        for i in positions.indices where buckets[i] >= 0 {
            let b = Int(buckets[i])
            sorted[Int(fill[b])] = positions[i]
            fill[b] += 1
        }
        return Table(starts: starts, positions: sorted, bits: bits)
    }
}
