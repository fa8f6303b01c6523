import AtpadCore

/// A directory prepared for ranking: every name and handle folded once, with name words
/// and search tables (docs/directories.md, "Ranking and frecency").
///
/// The folded text of all entries lives in a few flat tables rather than arrays per
/// entry, so a million-person directory is a handful of allocations and the search loop
/// walks contiguous memory. The tables live either in arrays built from the entities
/// (``IndexArrays``) or in an index file mapped from the cache (``MappedIndex``,
/// docs/directories.md, "Big directories: the index cache"); both are searched through the
/// same ``SearchTables`` view.
public struct DirectoryIndex: Sendable {
    /// Where the tables live.
    enum Storage: Sendable {
        case arrays(IndexArrays)
        case mapped(MappedIndex)
    }

    let storage: Storage
    /// The entries that matched the last scanned query, to narrow the next scan from.
    let narrowing = NarrowingCache()

    /// Prepares `entities` for ranking, in the given (directory) order.
    public init(_ entities: [Entity]) {
        storage = .arrays(IndexArrays(entities))
    }

    /// The index of `entities`, whose names and handles `builder` has folded, in order.
    init(_ entities: [Entity], builtBy builder: consuming Builder) {
        storage = .arrays(IndexArrays(entities, builtBy: builder))
    }

    /// The index held by a mapped index file.
    init(mapped: MappedIndex) {
        storage = .mapped(mapped)
    }

    /// The number of entries.
    public var count: Int {
        switch storage {
        case let .arrays(arrays): arrays.entities.count
        case let .mapped(mapped): mapped.count
        }
    }

    /// The entries in directory order. For a mapped index this decodes every entry: the
    /// search never needs it (it reads ``entity(at:)`` of the results shown).
    public var entities: [Entity] {
        switch storage {
        case let .arrays(arrays): arrays.entities
        case let .mapped(mapped): (0 ..< mapped.count).map(mapped.entity(at:))
        }
    }

    /// The entry at `position` in directory order.
    public func entity(at position: Int) -> Entity {
        switch storage {
        case let .arrays(arrays): arrays.entities[position]
        case let .mapped(mapped): mapped.entity(at: position)
        }
    }

    /// Whether the tables are read from a mapped index file.
    public var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }

    /// The positions of the entries whose id is in `ids`, by id.
    func positions(ofIDs ids: Set<String>) -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        switch storage {
        case let .arrays(arrays):
            var found: [String: Int] = [:]
            for (position, entity) in arrays.entities.enumerated() where ids.contains(entity.id) {
                if found[entity.id] == nil { found[entity.id] = position }
            }
            return found
        case let .mapped(mapped):
            var found: [String: Int] = [:]
            for id in ids {
                if let position = mapped.position(ofID: id) { found[id] = position }
            }
            return found
        }
    }

    /// Lends the search tables to `body`.
    func withTables<Result>(_ body: (SearchTables) -> Result) -> Result {
        switch storage {
        case let .arrays(arrays): arrays.withTables(narrowing: narrowing, body)
        case let .mapped(mapped): body(mapped.tables(narrowing: narrowing))
        }
    }

    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
        withTables { body($0.buffers) }
    }

    /// The best `limit` entries for `query`, ranked (docs/directories.md, "Ranking and frecency").
    ///
    /// - Parameter frecency: how recently and often an entity id was mentioned; higher
    ///   ranks first within a class. NaN counts as 0.
    public func rank(
        _ query: String,
        limit: Int = SourceDefaults.limit,
        frecency: (String) -> Double = { _ in 0 }
    ) -> [Candidate] {
        rankedMatches(query, limit: limit, frecency: frecency).map(\.candidate)
    }

    /// Like ``rank(_:limit:frecency:)``, also telling each result's class and position.
    public func rankedMatches(
        _ query: String,
        limit: Int = SourceDefaults.limit,
        frecency: (String) -> Double = { _ in 0 }
    ) -> [RankedMatch] {
        var frecent: [Int32: Double] = [:]
        for position in 0 ..< count {
            let score = frecency(entity(at: position).id)
            if score != 0, !score.isNaN { frecent[Int32(truncatingIfNeeded: position)] = score }
        }
        return rankedMatches(query, limit: limit, frecent: frecent)
    }

    /// The ranked results, with the frecency of the entries that have one given by
    /// position (every other entry's is 0): what a keystroke costs at most is then the
    /// walk of one bucket of ``WordStartIndex`` plus, when that finds too few, a scan of
    /// the entries that can match at all.
    ///
    /// - Parameter matchRanges: whether each result carries the ranges of its name that
    ///   matched (``Candidate/matches``), which only a reader who sees the name highlighted
    ///   needs; finding them is most of a short query's cost after the walk.
    func rankedMatches(_ query: String, limit: Int, frecent: [Int32: Double], matchRanges: Bool = true) -> [RankedMatch] {
        guard limit > 0, count > 0 else { return [] }
        let folded = FoldedQuery(query)
        let keys = withTables { $0.bestKeys(folded, limit: limit, frecent: frecent, buffers: $0.buffers) }
        return keys.map { key in
            let position = Int(key.position)
            let matchClass = MatchClass(rawValue: Int(key.matchClass))
            let matches = matchRanges ? matchClass.map { self.nameRanges(position, folded, $0) } ?? [] : []
            return RankedMatch(
                position: position,
                matchClass: matchClass,
                candidate: Candidate(entity: entity(at: position), matches: matches,
                                     isStrong: matchClass.map { $0 <= .initials })
            )
        }
    }

    /// The class entry `position` matches `query` in, or nil when it does not match (or
    /// the query is empty).
    public func matchClass(of position: Int, for query: String) -> MatchClass? {
        let folded = FoldedQuery(query)
        guard !folded.isEmpty else { return nil }
        return withBuffers { $0.classify(position, folded) }
    }

    // MARK: - Match ranges

    /// The ranges of the original name that matched, as Unicode-scalar offsets, widened to
    /// whole grapheme clusters, sorted and merged.
    private func nameRanges(_ position: Int, _ query: FoldedQuery, _ matchClass: MatchClass) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        withBuffers { buffers in
            buffers.recordName(position, query, matchClass) { spans.append($0 ..< $1) }
        }
        guard !spans.isEmpty else { return [] }

        let name = entity(at: position).name
        var folded: [UInt32] = []
        var origins: [Int32] = []
        Folding.append(name, to: &folded, origins: &origins)
        var boundaries: [Int] = [0]
        for character in name {
            boundaries.append(boundaries[boundaries.count - 1] + character.unicodeScalars.count)
        }
        var ranges: [Range<Int>] = spans.map { span in
            let lower = Int(origins[span.lowerBound])
            let upper = Int(origins[span.upperBound - 1]) + 1
            // Snap outwards to cluster boundaries so an accent is emphasised with its letter.
            let snappedLower = boundaries.last { $0 <= lower } ?? 0
            let snappedUpper = boundaries.first { $0 >= upper } ?? boundaries[boundaries.count - 1]
            return snappedLower ..< snappedUpper
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = [ranges[0]]
        for range in ranges.dropFirst() {
            let last = merged[merged.count - 1]
            if range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound ..< max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
