import FoundationEssentials
import Glibc
import Synchronization

/// Which letters a text holds, as 64 bits: a-z, 0-9, and everything else hashed into the
/// rest. An entry can match a query only if its mask holds every bit of the query's, so
/// most entries are rejected with one AND before any matching.
enum LetterMask {
    static func bit(_ value: UInt32) -> UInt64 {
        switch value {
        case 0x61 ... 0x7A: return 1 << UInt64(value - 0x61)
        case 0x30 ... 0x39: return 1 << UInt64(26 + value - 0x30)
        default: return 1 << UInt64(36 + (value &* 0x9E37_79B1) >> 27 % 28)
        }
    }

    /// `bit` of every ASCII value, looked up rather than computed: masks are made for
    /// every scalar of a million names.
    private static let asciiBits: [UInt64] = (0 ..< 128).map { bit(UInt32($0)) }

    static func of<Text: FoldedText>(_ values: Text) -> UInt64 {
        var mask: UInt64 = 0
        asciiBits.withUnsafeBufferPointer { ascii in
            for offset in 0 ..< values.count {
                let v = values[offset]
                mask |= v < 128 ? ascii[Int(v)] : bit(v)
            }
        }
        return mask
    }

    static func of(_ text: TextRef) -> UInt64 {
        switch text.width {
        case 1: of(text.text1)
        case 2: of(text.text2)
        default: of(text.text3)
        }
    }

    static func of(_ values: [UInt32]) -> UInt64 {
        var mask: UInt64 = 0
        for v in values { mask |= bit(v) }
        return mask
    }
}

/// The entries whose name or handle holds the last scanned query's letters in order: the
/// next keystroke usually adds a letter, and its matches are among these.
final class NarrowingCache: Sendable {
    private let last = Mutex<(letters: [UInt32], survivors: [Int32])?>(nil)

    /// The cached survivors when `letters` extends the cached query's letters.
    func survivors(for letters: [UInt32]) -> [Int32]? {
        last.withLock { last in
            guard let last, last.letters.count <= letters.count, letters.starts(with: last.letters) else { return nil }
            return last.survivors
        }
    }

    func store(_ letters: [UInt32], _ survivors: [Int32]) {
        last.withLock { $0 = (letters, survivors) }
    }
}

extension DirectoryIndex {
    /// How many entries of a query's word-start bucket are looked at for exact word or
    /// handle matches (first within class 1: docs/directories.md, "Ranking and frecency").
    /// Buckets of the sample directory and of directories of a few thousand people are
    /// smaller; in a million-person directory a one-letter bucket holds a hundred thousand,
    /// too many to walk on every keystroke (docs/benchmarks-history.md, "Exact matches first").
    static let exactSearchBudget = 1024

    /// The ranking order, letter masks and word-start buckets of a directory.
    static func buildSearchTables(count: Int, buffers: Buffers, nameLengths: [Int32])
        -> (order: [Int32], masks: [UInt64], index: WordStartIndex) {
        // Shortest name first, then directory order: a counting sort by length (lengths
        // past `cap` are rare and sorted among themselves).
        let cap = 512
        var counts = [Int](repeating: 0, count: cap + 2)
        for length in nameLengths { counts[min(Int(length), cap) + 1] += 1 }
        for i in 1 ..< counts.count { counts[i] += counts[i - 1] }
        var order = [Int32](repeating: 0, count: count)
        for position in 0 ..< count {
            let slot = min(Int(nameLengths[position]), cap)
            order[counts[slot]] = Int32(position)
            counts[slot] += 1
        }
        let longStart = counts[cap - 1]
        if longStart < count {
            order[longStart...].sort { (nameLengths[Int($0)], $0) < (nameLengths[Int($1)], $1) }
        }

        var masks = [UInt64](repeating: 0, count: count)
        for position in 0 ..< count {
            masks[position] = LetterMask.of(buffers.name(position)) | LetterMask.of(buffers.handle(position))
        }

        // Every word start (and handle start) in ranking order, with its buckets.
        let bits = WordStartIndex.bits(count: count)
        var positions: [Int32] = []
        var firsts: [Int32] = []
        var pairs: [Int32] = []
        let estimate = buffers.words.count / 2 + count
        positions.reserveCapacity(estimate)
        firsts.reserveCapacity(estimate)
        pairs.reserveCapacity(estimate)
        func add(_ position: Int32, _ text: TextRef, _ start: Int, _ end: Int) {
            positions.append(position)
            firsts.append(WordStartIndex.firstBucket(text[start], bits: bits.first))
            pairs.append(end - start > 1 ? WordStartIndex.pairBucket(text[start], text[start + 1], bits: bits.pair) : -1)
        }
        for position in order {
            let p = Int(position)
            let name = buffers.name(p)
            let words = buffers.nameWords(p)
            for w in 0 ..< words.count / 2 {
                let start = Int(words[2 * w])
                let end = Int(words[2 * w + 1])
                if end > start { add(position, name, start, end) }
            }
            let handle = buffers.handle(p)
            if !handle.isEmpty { add(position, handle, 0, handle.count) }
        }
        let index = WordStartIndex(bits: bits, positions: positions, firsts: &firsts, pairs: &pairs)
        return (order, masks, index)
    }
}

extension SearchTables {
    /// The best `limit` rank keys for `query`
    /// (docs/directories.md, "Ranking and frecency"), found class by class.
    ///
    /// Within a class, entries with no frecency are ordered by name length and then
    /// position — the order of the word-start buckets — so walking a bucket yields them
    /// best first; the few entries with a frecency are classified directly and placed
    /// before (positive) or after (negative) them.
    func bestKeys(_ query: FoldedQuery, limit: Int, frecent: [Int32: Double], buffers: Buffers) -> [RankKey] {
        var result: [RankKey] = []
        result.reserveCapacity(min(limit, 1024))

        // Frecent entries by class, best first.
        var frecentByClass: [[RankKey]] = Array(repeating: [], count: 5)
        for (position, score) in frecent {
            let matchClass: UInt8
            if query.isEmpty {
                matchClass = 0
            } else if let found = buffers.classify(Int(position), query) {
                matchClass = UInt8(found.rawValue)
            } else {
                continue
            }
            frecentByClass[Int(matchClass)].append(RankKey(
                matchClass: matchClass, frecency: score,
                length: query.isEmpty ? 0 : nameLengths[Int(position)], position: position,
                exact: matchClass == 1 && buffers.isExact(Int(position), query)))
        }
        for c in frecentByClass.indices { frecentByClass[c].sort() }

        /// Adds one class: its positive-frecency entries, then `walk`'s (which must give
        /// the class's other entries best first), then its negative-frecency entries.
        /// Returns false when the limit is reached.
        func add(_ matchClass: UInt8, exact: Bool = false, walk: (_ take: (Int32) -> Bool) -> Void) -> Bool {
            let ranked = frecentByClass[Int(matchClass)].filter { $0.exact == exact }
            for key in ranked where key.frecency > 0 {
                result.append(key)
                if result.count == limit { return false }
            }
            var full = false
            walk { position in
                result.append(RankKey(matchClass: matchClass, frecency: 0,
                                      length: matchClass == 0 ? 0 : nameLengths[Int(position)],
                                      position: position, exact: exact))
                full = result.count == limit
                return !full
            }
            if full { return false }
            for key in ranked where key.frecency < 0 {
                result.append(key)
                if result.count == limit { return false }
            }
            return true
        }

        if query.isEmpty {
            // Frecency, then directory order.
            _ = add(0) { take in
                for position in 0 ..< Int32(count) where frecent[position] == nil {
                    if !take(position) { return }
                }
            }
            return result
        }

        // The buckets hold entries by their words' first scalars; a query that does not
        // start with its first word (a leading hyphen) is scanned instead.
        guard let firstWord = query.words.first, firstWord.lowerBound == 0 else {
            return scanKeys(query, limit: limit, frecent: frecent, buffers: buffers)
        }
        let w0 = query.scalars[0]
        let bucket = firstWord.count >= 2
            ? (wordStartIndex.pair, wordStartIndex.pair.bucket(WordStartIndex.hash(w0, query.scalars[1])))
            : (wordStartIndex.first, wordStartIndex.first.bucket(WordStartIndex.hash(w0)))

        /// Walks a bucket in ranking order, taking the entries of `matchClass`; with
        /// `exact`, only those whose exactness (``Buffers/isExact``) is that — except past
        /// `exactEnd`, where the exact pass did not look and every entry counts as inexact.
        func walkBucket(_ table: WordStartIndex.TableView, _ range: Range<Int>, _ matchClass: MatchClass,
                        exact: Bool? = nil, exactEnd: Int = 0, _ take: (Int32) -> Bool) {
            let letters = LetterMask.of(query.letters)
            let positions = table.positions
            var previous: Int32 = -1
            for i in range {
                let position = positions[i]
                if position == previous { continue }
                previous = position
                if letterMasks[Int(position)] & letters != letters || frecent[position] != nil { continue }
                if let exact, i < exactEnd, buffers.isExact(Int(position), query) != exact { continue }
                guard buffers.classify(Int(position), query) == matchClass else { continue }
                if !take(position) { return }
            }
        }

        // Class 1 in two passes over its bucket: exact word or handle matches first
        // (docs/directories.md, "Ranking and frecency"). The exact pass looks at the first
        // `exactSearchBudget` entries of the bucket (all of them but in directories of many
        // thousands, where it keeps a keystroke cheap).
        let exactEnd = min(bucket.1.upperBound, bucket.1.lowerBound + DirectoryIndex.exactSearchBudget)
        guard add(1, exact: true, walk: {
                  walkBucket(bucket.0, bucket.1.lowerBound ..< exactEnd, .prefix, exact: true, exactEnd: exactEnd, $0)
              }),
              add(1, walk: { walkBucket(bucket.0, bucket.1, .prefix, exact: false, exactEnd: exactEnd, $0) })
        else { return result }
        if !query.hasSpace, query.scalars.count >= 2 {
            let initialsBucket = wordStartIndex.first.bucket(WordStartIndex.hash(w0))
            guard add(2, walk: { walkBucket(wordStartIndex.first, initialsBucket, .initials, $0) }) else {
                return result
            }
        }

        // Substring and fuzzy: a scan of the entries that can match at all.
        let rest = scanKeys(query, limit: limit - result.count, frecent: frecent, buffers: buffers,
                            classes: 3 ... 4)
        return result + rest
    }

    /// The best keys by classifying every entry that holds the query's letters in order
    /// (narrowed from the previous scan when the query only grew), keeping classes in
    /// `classes`.
    func scanKeys(_ query: FoldedQuery, limit: Int, frecent: [Int32: Double], buffers: Buffers,
                  classes: ClosedRange<UInt8> = 1 ... 4) -> [RankKey] {
        guard limit > 0 else { return [] }
        var best = TopK(limit: limit)
        let letters = query.letters
        let mask = LetterMask.of(letters)
        var survivors: [Int32] = []

        func consider(_ position: Int32) {
            let p = Int(position)
            guard buffers.holds(letters, p) else { return }
            survivors.append(position)
            guard let found = buffers.classify(p, query) else { return }
            let matchClass = UInt8(found.rawValue)
            guard classes.contains(matchClass) else { return }
            if let worst = best.threshold, matchClass > worst.matchClass { return }
            let score = frecent[position] ?? 0
            best.insert(RankKey(matchClass: matchClass, frecency: score, length: nameLengths[p], position: position,
                                exact: matchClass == 1 && buffers.isExact(p, query)))
        }

        if let previous = narrowing.survivors(for: letters) {
            for position in previous { consider(position) }
        } else {
            let masks = letterMasks
            for position in 0 ..< masks.count where masks[position] & mask == mask {
                consider(Int32(truncatingIfNeeded: position))
            }
        }
        narrowing.store(letters, survivors)
        return best.sorted()
    }
}
