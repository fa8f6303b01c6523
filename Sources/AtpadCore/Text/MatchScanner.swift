/// Finds where a query occurs in a text fed as UTF-8 runs, in one pass: Knuth–Morris–Pratt
/// over folded scalars (``Folding``, or none for an exact query), skipping eight
/// ASCII bytes at a time while no match can be under way.
///
/// It reports candidates as scalar ranges of the original text: each starts at the first
/// scalar its first original scalar folded to and ends after the last one of its last
/// (so `s` never matches half of `ß` → `ss`), extended over following scalars that fold
/// to nothing (an accent written as a combining mark goes with the letter). Candidates
/// may overlap; the caller keeps the ones it wants (non-overlapping, on grapheme
/// boundaries). Each candidate says whether the scalars around its edges already show
/// that they are cluster boundaries, so the caller looks closer only at the others.
struct MatchScanner {
    struct Candidate {
        var range: Range<Int>
        /// Whether `range.lowerBound` is known to be a cluster boundary.
        var startIsBoundary: Bool
        /// Whether `range.upperBound` is known to be a cluster boundary.
        var endIsBoundary = false
    }

    private let pattern: [UInt32]
    /// `failure[i]`: the length of the longest proper border of `pattern[...i]`.
    private let failure: [Int]
    private let exact: Bool
    /// The ASCII bytes that can start a match (0xFF, which UTF-8 never holds, for none).
    private let startByte: UInt8
    private let startByteUpper: UInt8
    private var matched = 0
    /// Where a folded scalar came from: the offset of its original scalar (-1 when it is
    /// not the first scalar that one folded to), that scalar, and the one before it.
    private struct Origin {
        var offset: Int
        var scalar: UInt32
        var before: UInt32
    }

    /// The origins of the last `pattern.count` folded scalars fed (a ring).
    private var origins: [Origin]
    private var fed = 0
    /// The last original scalar scanned (0 before the text: a start is a boundary).
    private var previous: UInt32 = 0
    /// The scalar offset of the next byte run's first scalar.
    private var offset = 0
    /// The last candidate, still growing over scalars that fold to nothing.
    private var pending: Candidate?
    private var candidates: [Candidate] = []

    /// A scanner for `query`, or nil when it folds to nothing. A query with an upper-case
    /// letter compares exactly (smart case).
    init?(query: String) {
        let exact = query.unicodeScalars.contains { $0.properties.changesWhenLowercased }
        var pattern: [UInt32] = []
        for s in query.unicodeScalars {
            if exact { pattern.append(s.value) } else { Folding.foldScalar(s) { pattern.append($0) } }
        }
        guard let first = pattern.first else { return nil }
        self.pattern = pattern
        self.exact = exact
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in pattern.indices.dropFirst() {
            while k > 0 && pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        self.failure = failure
        origins = [Origin](repeating: Origin(offset: -1, scalar: 0, before: 0), count: pattern.count)
        let ascii = first < 0x80 ? UInt8(first) : 0xFF
        startByte = ascii
        startByteUpper = !exact && ascii >= 0x61 && ascii <= 0x7A ? ascii - 0x20 : ascii
    }

    /// Scans the next run of the text (whole scalars of valid UTF-8).
    mutating func scan(_ bytes: [UInt8]) {
        var i = 0
        let n = bytes.count
        while i < n {
            if matched == 0 && pending == nil {
                let from = i
                i = MatchScanner.skip(bytes, from: i, startByte, startByteUpper)
                offset += i - from
                if i > from { previous = UInt32(bytes[i - 1]) }
                if i == n { break }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                let value = UInt32(!exact && lead >= 0x41 && lead <= 0x5A ? lead + 0x20 : lead)
                settle(feed(value, from: offset, UInt32(lead)), at: UInt32(lead))
                previous = UInt32(lead)
                i += 1
                offset += 1
                continue
            }
            let (scalar, length) = UTF8Scan.scalar(in: bytes, at: i)
            i += length
            if matched == 0 && pending == nil && scalar.value != pattern[0]
                && (exact || Folding.isCaseless(scalar.value)) {
                // It folds to itself and cannot start a match: nothing to feed (CJK text).
                previous = scalar.value
                offset += 1
                continue
            }
            if exact {
                settle(feed(scalar.value, from: offset, scalar.value), at: scalar.value)
            } else {
                var emitted = 0
                var start: Origin?
                Folding.foldScalar(scalar) { value in
                    // Only a match ending at the last scalar of this fold counts.
                    start = feed(value, from: emitted == 0 ? offset : -1, scalar.value)
                    emitted += 1
                }
                if emitted > 0 {
                    settle(start, at: scalar.value)
                } else if let last = pending {
                    pending?.range = last.range.lowerBound ..< offset + 1
                }
            }
            previous = scalar.value
            offset += 1
        }
    }

    /// Every candidate, once the whole text has been scanned (the text's end is a
    /// boundary).
    mutating func finish() -> [Candidate] {
        if var last = pending {
            last.endIsBoundary = true
            candidates.append(last)
        }
        pending = nil
        return candidates
    }

    /// After original scalar `scalar` (at `offset`) folded to something: the pending
    /// candidate, which ends right before it, is complete; and a match that ended with
    /// this scalar (from `start`) begins.
    private mutating func settle(_ start: Origin?, at scalar: UInt32) {
        if var last = pending {
            last.endIsBoundary = TextStorage.isCertainBoundary(between: previous, and: scalar)
            candidates.append(last)
            pending = nil
        }
        if let start, start.offset >= 0 {
            let known = start.offset == 0 || TextStorage.isCertainBoundary(between: start.before, and: start.scalar)
            pending = Candidate(range: start.offset ..< offset + 1, startIsBoundary: known)
        }
    }

    /// Feeds one folded scalar of original scalar `scalar` at `offset` (-1: not the
    /// first scalar of its fold); returns the origin of a match ending here, if any.
    private mutating func feed(_ value: UInt32, from offset: Int, _ scalar: UInt32) -> Origin? {
        let m = pattern.count
        origins[fed % m] = Origin(offset: offset, scalar: scalar, before: previous)
        fed += 1
        while matched > 0 && pattern[matched] != value { matched = failure[matched - 1] }
        if pattern[matched] == value { matched += 1 }
        guard matched == m else { return nil }
        matched = failure[m - 1]
        return origins[fed % m]
    }

    /// The first index at or after `start` holding a non-ASCII byte, `a` or `b`; eight
    /// bytes at a time (a byte-equals test on a whole word: `x - 0x01…` borrows into the
    /// high bit of a byte exactly when some byte of `x` is zero).
    private static func skip(_ bytes: [UInt8], from start: Int, _ a: UInt8, _ b: UInt8) -> Int {
        bytes.withUnsafeBytes { raw in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let wordA = ones &* UInt64(a)
            let wordB = ones &* UInt64(b)
            var i = start
            while i + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let xa = word ^ wordA
                let xb = word ^ wordB
                if (word | ((xa &- ones) & ~xa) | ((xb &- ones) & ~xb)) & highs != 0 { break }
                i += 8
            }
            while i < raw.count {
                let byte = raw[i]
                if byte >= 0x80 || byte == a || byte == b { break }
                i += 1
            }
            return i
        }
    }
}
