import AtpadCore
import HeapModule

/// How an entry matched a query (docs/directories.md, "Ranking and frecency"); a lower raw
/// value ranks first.
public enum MatchClass: Int, Sendable, Comparable, CaseIterable {
    /// A name word or the handle starts with the query; several query words start
    /// different name words, in order.
    case prefix = 1
    /// The query is the initials of two or more consecutive name words (`jd` → John Doe).
    case initials = 2
    /// The query is a substring of the name or the handle (how CJK names match).
    case substring = 3
    /// The query's characters, spaces aside, appear in order in the name or the handle.
    case fuzzy = 4

    public static func < (lhs: MatchClass, rhs: MatchClass) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// One ranked result together with why and where it ranked.
public struct RankedMatch: Hashable, Sendable {
    /// The entry's position in directory order.
    public var position: Int
    /// The class it matched in; nil for the empty query, which lists everything.
    public var matchClass: MatchClass?
    /// The entity and the ranges of its name that matched.
    public var candidate: Candidate
}

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
        limit: Int = 50,
        frecency: (String) -> Double = { _ in 0 }
    ) -> [Candidate] {
        rankedMatches(query, limit: limit, frecency: frecency).map(\.candidate)
    }

    /// Like ``rank(_:limit:frecency:)``, also telling each result's class and position.
    public func rankedMatches(
        _ query: String,
        limit: Int = 50,
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
    func rankedMatches(_ query: String, limit: Int, frecent: [Int32: Double]) -> [RankedMatch] {
        guard limit > 0, count > 0 else { return [] }
        let folded = FoldedQuery(query)
        let keys = withTables { $0.bestKeys(folded, limit: limit, frecent: frecent, buffers: $0.buffers) }
        return keys.map { key in
            let position = Int(key.position)
            let matchClass = MatchClass(rawValue: Int(key.matchClass))
            let matches = matchClass.map { self.nameRanges(position, folded, $0) } ?? []
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

// MARK: - The query

/// A query folded like the names, split the ways each class needs it.
struct FoldedQuery {
    /// The folded query, spaces trimmed and collapsed.
    let scalars: [UInt32]
    /// Query words, split at spaces and hyphens like name words, as ranges of `scalars`.
    let words: [Range<Int>]
    /// The query without spaces, for the fuzzy class.
    let compact: [UInt32]
    /// The query without spaces or hyphens: every class needs these in order in the name
    /// or handle, so it is a quick reject for most entries.
    let letters: [UInt32]
    let hasSpace: Bool

    init(_ query: String) {
        var scalars: [UInt32] = []
        var ignored: [Int32] = []
        Folding.append(query, to: &scalars, origins: &ignored)
        self.scalars = scalars
        var words: [Range<Int>] = []
        var start: Int? = nil
        for (offset, value) in scalars.enumerated() {
            if Folding.isWordSeparator(value) {
                if let open = start { words.append(open ..< offset) }
                start = nil
            } else if start == nil {
                start = offset
            }
        }
        if let open = start { words.append(open ..< scalars.count) }
        self.words = words
        compact = scalars.filter { $0 != Folding.space }
        letters = scalars.filter { !Folding.isWordSeparator($0) }
        hasSpace = scalars.contains(Folding.space)
    }

    var isEmpty: Bool { scalars.isEmpty }
}

// MARK: - Folded text in bytes

/// How the folded names and handles are stored (what a scan of a million
/// people touches): back to back in one table of bytes, one entry after another, each
/// entry in as few bytes a scalar as its largest folded scalar needs: one (nearly every
/// name: folding leaves Latin names ASCII), two (Greek, Cyrillic, CJK, Hangul…: up to
/// U+FFFF) or three (emoji, CJK extension B: up to U+10FFFF), low byte first. Offsets into
/// an entry's text (name words, matched spans) count scalars whatever its width.
///
/// `starts[i]` is entry `i`'s first byte in its low 30 bits and its bytes a scalar, less
/// one, in the top two; `starts[i + 1]`'s low 30 bits are where it ends. The last start
/// has no width.
enum FoldedUnits {
    static let widthShift: UInt32 = 30
    static let offsetMask: UInt32 = (1 << 30) - 1
    /// The most bytes a table can hold.
    static let capacity = Int(offsetMask)

    /// Appends `scalars` to `bytes` in the fewest bytes a scalar; returns the start bits
    /// of that width (to OR into the entry's start).
    @discardableResult
    static func append(_ scalars: ArraySlice<UInt32>, to bytes: inout [UInt8]) -> UInt32 {
        let largest = scalars.max() ?? 0
        let width = largest <= 0xFF ? 1 : largest <= 0xFFFF ? 2 : 3
        for value in scalars {
            bytes.append(UInt8(truncatingIfNeeded: value))
            if width > 1 { bytes.append(UInt8(truncatingIfNeeded: value >> 8)) }
            if width > 2 { bytes.append(UInt8(truncatingIfNeeded: value >> 16)) }
        }
        return UInt32(width - 1) << widthShift
    }

    /// Entry `position`'s text.
    @inline(__always)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>,
                     _ position: Int) -> TextRef {
        let start = starts[position]
        let lower = Int(start & offsetMask)
        let upper = Int(starts[position + 1] & offsetMask)
        return TextRef(bytes: UnsafeBufferPointer(rebasing: bytes[lower ..< upper]),
                       width: Int(start >> widthShift) + 1)
    }
}

/// One entry's folded text as scalars, whatever its storage: what the matchers read.
protocol FoldedText {
    /// The number of scalars.
    var count: Int { get }
    subscript(_ offset: Int) -> UInt32 { get }
}

extension FoldedText {
    var isEmpty: Bool { count == 0 }
}

/// Text of one byte a scalar.
struct Text1: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }
    @inline(__always) subscript(_ offset: Int) -> UInt32 { UInt32(bytes[offset]) }
}

/// Text of two bytes a scalar, low byte first.
struct Text2: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count >> 1 }
    @inline(__always) subscript(_ offset: Int) -> UInt32 {
        UInt32(bytes[2 * offset]) | UInt32(bytes[2 * offset + 1]) << 8
    }
}

/// Text of three bytes a scalar, low byte first.
struct Text3: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count / 3 }
    @inline(__always) subscript(_ offset: Int) -> UInt32 {
        UInt32(bytes[3 * offset]) | UInt32(bytes[3 * offset + 1]) << 8 | UInt32(bytes[3 * offset + 2]) << 16
    }
}

/// One entry's text, any width. Its subscript tests the width at every scalar; the hot
/// matchers are given ``Text1``, ``Text2`` or ``Text3`` instead (see ``Buffers``).
struct TextRef: FoldedText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes a scalar: 1, 2 or 3.
    let width: Int
    var count: Int { width == 1 ? bytes.count : width == 2 ? bytes.count >> 1 : bytes.count / 3 }
    var text1: Text1 { Text1(bytes: bytes) }
    var text2: Text2 { Text2(bytes: bytes) }
    var text3: Text3 { Text3(bytes: bytes) }
    subscript(_ offset: Int) -> UInt32 {
        width == 1 ? text1[offset] : width == 2 ? text2[offset] : text3[offset]
    }
}

// MARK: - Matching over the flat arrays

/// Borrowed views of the index's flat arrays for one search; the matchers below work on
/// these without allocating.
struct Buffers {
    /// Folded names and handles in bytes (see ``FoldedUnits``).
    let names: UnsafeBufferPointer<UInt8>
    let nameStarts: UnsafeBufferPointer<UInt32>
    let words: UnsafeBufferPointer<Int32>
    let wordStarts: UnsafeBufferPointer<Int32>
    let handles: UnsafeBufferPointer<UInt8>
    let handleStarts: UnsafeBufferPointer<UInt32>

    func name(_ position: Int) -> TextRef {
        FoldedUnits.text(names, nameStarts, position)
    }

    func handle(_ position: Int) -> TextRef {
        FoldedUnits.text(handles, handleStarts, position)
    }

    /// The entry's name words as (start, end) pairs, flattened.
    func nameWords(_ position: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(rebasing: words[Int(wordStarts[position]) * 2 ..< Int(wordStarts[position + 1]) * 2])
    }

    /// Whether the name or the handle holds `letters` in order: what a scan asks of every
    /// entry its letter mask lets through.
    func holds(_ letters: [UInt32], _ position: Int) -> Bool {
        func check(_ text: TextRef) -> Bool {
            switch text.width {
            case 1: Matching.isSubsequence(letters, of: text.text1)
            case 2: Matching.isSubsequence(letters, of: text.text2)
            default: Matching.isSubsequence(letters, of: text.text3)
            }
        }
        if check(name(position)) { return true }
        let handle = handle(position)
        return !handle.isEmpty && check(handle)
    }

    /// The best class entry `position` matches `query` in
    /// (docs/directories.md, "Ranking and frecency"), or nil.
    func classify(_ position: Int, _ query: FoldedQuery) -> MatchClass? {
        let name = name(position)
        let handle = handle(position)
        let words = nameWords(position)
        switch name.width {
        case 1: return Self.classify(name.text1, handleOf: handle, words, query)
        case 2: return Self.classify(name.text2, handleOf: handle, words, query)
        default: return Self.classify(name.text3, handleOf: handle, words, query)
        }
    }

    private static func classify<Name: FoldedText>(
        _ name: Name, handleOf handle: TextRef, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> MatchClass? {
        switch handle.width {
        case 1: classify(name, handle.text1, words, query)
        case 2: classify(name, handle.text2, words, query)
        default: classify(name, handle.text3, words, query)
        }
    }

    private static func classify<Name: FoldedText, Handle: FoldedText>(
        _ name: Name, _ handle: Handle, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> MatchClass? {
        // Every class needs the query's letters in order in the name or the handle.
        let nameMaybe = Matching.isSubsequence(query.letters, of: name)
        let handleMaybe = !handle.isEmpty && Matching.isSubsequence(query.letters, of: handle)
        if !nameMaybe && !handleMaybe { return nil }

        if handleMaybe && Matching.starts(handle, 0, handle.count, with: query.scalars[...]) { return .prefix }
        if nameMaybe && Matching.wordPrefixes(query, name: name, words: words, emit: { _, _ in }) {
            return .prefix
        }
        if nameMaybe && Matching.initials(query, name: name, words: words, emit: { _, _ in }) {
            return .initials
        }
        if nameMaybe && Matching.substring(query.scalars, of: name, emit: { _, _ in }) { return .substring }
        if handleMaybe && Matching.substring(query.scalars, of: handle, emit: { _, _ in }) { return .substring }
        if nameMaybe && Matching.subsequence(query.compact, of: name, emit: { _, _ in }) { return .fuzzy }
        if handleMaybe && Matching.subsequence(query.compact, of: handle, emit: { _, _ in }) { return .fuzzy }
        return nil
    }

    /// Whether a query word equals a whole name word, or the query equals the handle
    /// (folded): within class 1 such an entry ranks first (`jose` → José before Joseph).
    func isExact(_ position: Int, _ query: FoldedQuery) -> Bool {
        let name = name(position)
        let handle = handle(position)
        let words = nameWords(position)
        switch name.width {
        case 1: return Self.isExact(name.text1, handleOf: handle, words, query)
        case 2: return Self.isExact(name.text2, handleOf: handle, words, query)
        default: return Self.isExact(name.text3, handleOf: handle, words, query)
        }
    }

    private static func isExact<Name: FoldedText>(
        _ name: Name, handleOf handle: TextRef, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> Bool {
        switch handle.width {
        case 1: isExact(name, handle.text1, words, query)
        case 2: isExact(name, handle.text2, words, query)
        default: isExact(name, handle.text3, words, query)
        }
    }

    private static func isExact<Name: FoldedText, Handle: FoldedText>(
        _ name: Name, _ handle: Handle, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> Bool {
        if handle.count == query.scalars.count, Matching.starts(handle, 0, handle.count, with: query.scalars[...]) {
            return true
        }
        for w in 0 ..< words.count / 2 {
            let start = Int(words[w * 2])
            let end = Int(words[w * 2 + 1])
            for queryWord in query.words where queryWord.count == end - start {
                if Matching.starts(name, start, end, with: query.scalars[queryWord]) {
                    return true
                }
            }
        }
        return false
    }

    /// Reports the folded spans of the name that match in `matchClass`; nothing when only
    /// the handle matched in that class.
    func recordName(
        _ position: Int,
        _ query: FoldedQuery,
        _ matchClass: MatchClass,
        _ emit: (Int, Int) -> Void
    ) {
        // For the few results shown: the text is read through ``TextRef`` as it is.
        let name = name(position)
        let words = nameWords(position)
        // Check first, then record: a matcher that fails part way would have reported spans.
        let noEmit: (Int, Int) -> Void = { _, _ in }
        switch matchClass {
        case .prefix:
            if Matching.wordPrefixes(query, name: name, words: words, emit: noEmit) {
                _ = Matching.wordPrefixes(query, name: name, words: words, emit: emit)
            }
        case .initials:
            _ = Matching.initials(query, name: name, words: words, emit: emit)
        case .substring:
            _ = Matching.substring(query.scalars, of: name, emit: emit)
        case .fuzzy:
            if Matching.isSubsequence(query.compact, of: name) {
                _ = Matching.subsequence(query.compact, of: name, emit: emit)
            }
        }
    }
}

/// The four matchers of docs/directories.md, "Ranking and frecency", over folded scalars.
/// Each reports matched spans of the name as (start, end) folded offsets through `emit`.
enum Matching {
    /// Whether `text[start ..< end]` starts with `prefix`.
    static func starts<Text: FoldedText>(_ text: Text, _ start: Int, _ end: Int,
                                         with prefix: ArraySlice<UInt32>) -> Bool {
        guard prefix.count <= end - start else { return false }
        var offset = start
        for value in prefix {
            if text[offset] != value { return false }
            offset += 1
        }
        return true
    }

    /// Each query word starts a different name word, in order. Taking the earliest
    /// possible name word for each query word finds an assignment whenever one exists.
    static func wordPrefixes<Text: FoldedText>(
        _ query: FoldedQuery,
        name: Text,
        words: UnsafeBufferPointer<Int32>,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !query.words.isEmpty else { return false }
        var word = 0
        let wordCount = words.count / 2
        for queryWord in query.words {
            let needle = query.scalars[queryWord]
            var found = false
            while word < wordCount {
                let start = Int(words[word * 2])
                let end = Int(words[word * 2 + 1])
                word += 1
                if starts(name, start, end, with: needle) {
                    emit(start, start + needle.count)
                    found = true
                    break
                }
            }
            if !found { return false }
        }
        return true
    }

    /// The query (one word, two scalars or more) is the first letters of as many
    /// consecutive name words.
    static func initials<Text: FoldedText>(
        _ query: FoldedQuery,
        name: Text,
        words: UnsafeBufferPointer<Int32>,
        emit: (Int, Int) -> Void
    ) -> Bool {
        let length = query.scalars.count
        let wordCount = words.count / 2
        guard !query.hasSpace, length >= 2, length <= wordCount else { return false }
        for first in 0 ... wordCount - length {
            var all = true
            for offset in 0 ..< length where name[Int(words[(first + offset) * 2])] != query.scalars[offset] {
                all = false
                break
            }
            if all {
                for offset in 0 ..< length {
                    let start = Int(words[(first + offset) * 2])
                    emit(start, start + 1)
                }
                return true
            }
        }
        return false
    }

    /// The first occurrence of `needle` in `text`.
    static func substring<Text: FoldedText>(
        _ needle: [UInt32],
        of text: Text,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        let first = needle[0]
        for start in 0 ... text.count - needle.count where text[start] == first {
            var offset = 1
            while offset < needle.count, text[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count {
                emit(start, start + needle.count)
                return true
            }
        }
        return false
    }

    /// `needle` appears in order in `text`, each scalar at its earliest place.
    static func subsequence<Text: FoldedText>(
        _ needle: [UInt32],
        of text: Text,
        emit: (Int, Int) -> Void
    ) -> Bool {
        guard !needle.isEmpty else { return false }
        var next = 0
        for offset in 0 ..< text.count where text[offset] == needle[next] {
            emit(offset, offset + 1)
            next += 1
            if next == needle.count { return true }
        }
        return false
    }

    /// `needle` (possibly empty) appears in order in `text`.
    static func isSubsequence<Text: FoldedText>(_ needle: [UInt32], of text: Text) -> Bool {
        var next = 0
        guard next < needle.count else { return true }
        for offset in 0 ..< text.count where text[offset] == needle[next] {
            next += 1
            if next == needle.count { return true }
        }
        return false
    }
}

// MARK: - Bounded best-of selection

/// What orders results: class, then (within class 1) an exact word or handle match, then
/// higher frecency, then shorter name, then directory order: `<` ranks before.
struct RankKey: Comparable {
    var matchClass: UInt8
    var frecency: Double
    var length: Int32
    var position: Int32
    /// Class 1 only: a query word is a whole name word or the handle (``Buffers/isExact``).
    var exact: Bool = false

    /// Whether `a` ranks before `b`.
    static func < (a: RankKey, b: RankKey) -> Bool {
        if a.matchClass != b.matchClass { return a.matchClass < b.matchClass }
        if a.exact != b.exact { return a.exact }
        if a.frecency != b.frecency { return a.frecency > b.frecency }
        if a.length != b.length { return a.length < b.length }
        return a.position < b.position
    }
}

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
