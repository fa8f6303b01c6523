import AtpadCore
import AtpadTestSupport
import Testing
@testable import AtpadDirectory

/// The ranking of docs/directories.md, "Ranking and frecency", written the plain way:
/// classify every entry on folded scalar arrays, sort everything, cut at the limit. Folding
/// itself is trusted (it has its own tests).
enum ReferenceRanker {
    struct Result: Equatable {
        var id: String
        var matchClass: MatchClass?
        var matches: [Range<Int>]
    }

    static func rank(
        _ entities: [Entity],
        query: String,
        limit: Int,
        frecency: (String) -> Double
    ) -> [Result] {
        let folded = Array(Folding.folded(query).unicodeScalars)
        var rows: [(result: Result, exact: Bool, score: Double, length: Int, position: Int)] = []
        for (position, entity) in entities.enumerated() {
            let score = frecency(entity.id)
            if folded.isEmpty {
                rows.append((Result(id: entity.id, matchClass: nil, matches: []), false, score, 0, position))
                continue
            }
            guard let (matchClass, spans) = classify(entity, folded) else { continue }
            let matches = originalRanges(entity.name, spans)
            let exact = matchClass == .prefix && isExact(entity, folded)
            rows.append((Result(id: entity.id, matchClass: matchClass, matches: matches), exact, score,
                         entity.name.count, position))
        }
        rows.sort { a, b in
            let classA = a.result.matchClass?.rawValue ?? 0
            let classB = b.result.matchClass?.rawValue ?? 0
            if classA != classB { return classA < classB }
            if a.exact != b.exact { return a.exact }
            if a.score != b.score { return a.score > b.score }
            if a.length != b.length { return a.length < b.length }
            return a.position < b.position
        }
        return rows.prefix(max(0, limit)).map(\.result)
    }

    typealias Scalars = [Unicode.Scalar]

    /// Within class 1: a query word is a whole name word, or the query is the handle.
    static func isExact(_ entity: Entity, _ query: Scalars) -> Bool {
        let name = Array(Folding.folded(entity.name).unicodeScalars)
        var handle = Array(Folding.folded(entity.handle ?? "").unicodeScalars)
        if handle.first == "@" { handle.removeFirst() }
        if !handle.isEmpty && handle == query { return true }
        let nameWords = Set(words(name).map { String(String.UnicodeScalarView($0.word)) })
        return words(query).contains { nameWords.contains(String(String.UnicodeScalarView($0.word))) }
    }

    /// Words split at spaces and hyphens, with their start offsets.
    static func words(_ text: Scalars) -> [(start: Int, word: Scalars)] {
        var result: [(Int, Scalars)] = []
        var current: Scalars = []
        var start = 0
        for (offset, scalar) in text.enumerated() {
            if scalar == " " || scalar == "-" {
                if !current.isEmpty { result.append((start, current)) }
                current = []
            } else {
                if current.isEmpty { start = offset }
                current.append(scalar)
            }
        }
        if !current.isEmpty { result.append((start, current)) }
        return result
    }

    static func hasPrefix(_ text: Scalars, _ prefix: Scalars) -> Bool {
        text.count >= prefix.count && Array(text[0 ..< prefix.count]) == prefix
    }

    static func find(_ needle: Scalars, in text: Scalars) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        return (0 ... text.count - needle.count).first { Array(text[$0 ..< $0 + needle.count]) == needle }
    }

    /// Offsets of `needle` in order in `text`, earliest each time.
    static func subsequence(_ needle: Scalars, in text: Scalars) -> [Int]? {
        guard !needle.isEmpty else { return nil }
        var offsets: [Int] = []
        var from = 0
        for scalar in needle {
            guard let found = text[from...].firstIndex(of: scalar) else { return nil }
            offsets.append(found)
            from = found + 1
        }
        return offsets
    }

    /// Tries every assignment of query words to later and later name words, earliest first.
    static func assign(_ queryWords: [Scalars], _ nameWords: [(start: Int, word: Scalars)], from: Int) -> [Range<Int>]? {
        guard let first = queryWords.first else { return [] }
        for index in from ..< nameWords.count where hasPrefix(nameWords[index].word, first) {
            if let rest = assign(Array(queryWords.dropFirst()), nameWords, from: index + 1) {
                return [nameWords[index].start ..< nameWords[index].start + first.count] + rest
            }
        }
        return nil
    }

    /// The class and the folded spans of the name that matched.
    static func classify(_ entity: Entity, _ query: Scalars) -> (MatchClass, [Range<Int>])? {
        let name = Array(Folding.folded(entity.name).unicodeScalars)
        var handle = Array(Folding.folded(entity.handle ?? "").unicodeScalars)
        if handle.first == "@" { handle.removeFirst() }
        let nameWords = words(name)
        let queryWords = words(query).map(\.word)

        if !queryWords.isEmpty, let spans = assign(queryWords, nameWords, from: 0) { return (.prefix, spans) }
        if !handle.isEmpty, hasPrefix(handle, query) { return (.prefix, []) }

        if !query.contains(" "), query.count >= 2, query.count <= nameWords.count {
            for first in 0 ... nameWords.count - query.count {
                let window = nameWords[first ..< first + query.count]
                if window.map({ $0.word[0] }) == query {
                    return (.initials, window.map { $0.start ..< $0.start + 1 })
                }
            }
        }
        if let at = find(query, in: name) { return (.substring, [at ..< at + query.count]) }
        if find(query, in: handle) != nil { return (.substring, []) }

        let compact = query.filter { $0 != " " }
        if let offsets = subsequence(compact, in: name) { return (.fuzzy, offsets.map { $0 ..< $0 + 1 }) }
        if subsequence(compact, in: handle) != nil { return (.fuzzy, []) }
        return nil
    }

    /// Folded spans to merged ranges of the original name (the generated names have one
    /// scalar per Character, so no cluster widening is needed).
    static func originalRanges(_ name: String, _ spans: [Range<Int>]) -> [Range<Int>] {
        let origins = Folding.fold(name).origins
        var ranges = spans.map { origins[$0.lowerBound] ..< origins[$0.upperBound - 1] + 1 }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        while !ranges.isEmpty {
            let next = ranges.removeFirst()
            if let last = merged.last, next.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound ..< max(last.upperBound, next.upperBound)
            } else {
                merged.append(next)
            }
        }
        return merged
    }
}

@Suite struct RankingPropertyTests {
    /// Letters chosen to collide a lot: accented forms of the same letters, ß against ss,
    /// separators, a CJK pair.
    static let nameAlphabet: [String] = ["a", "b", "s", "e", "é", "É", "ß", "o", "ø", "Ø", "æ", "王", "伟", " ", "-", "  "]
    static let queryAlphabet: [String] = ["a", "b", "s", "e", "E", "é", "ß", "ss", "o", "ø", "ae", "王", "伟", " ", "-"]

    static func randomText(_ alphabet: [String], maxLength: Int, using rng: inout SeededRandom) -> String {
        let length = Int.random(in: 0 ... maxLength, using: &rng)
        return (0 ..< length).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    @Test func rankingEqualsTheReference() {
        var rng = SeededRandom(seed: 20_240_601)
        for trial in 0 ..< 600 {
            let count = Int.random(in: 0 ... 14, using: &rng)
            var entities: [Entity] = []
            for offset in 0 ..< count {
                var name = Self.randomText(Self.nameAlphabet, maxLength: 9, using: &rng)
                if Folding.folded(name).isEmpty { name = "a" + name }
                let handle: String? = Bool.random(using: &rng)
                    ? Self.randomText(["a", "b", "s", "e", "@", "-"], maxLength: 5, using: &rng) : nil
                entities.append(Entity(id: "e\(offset)", name: name, handle: handle))
            }
            let scores = Dictionary(uniqueKeysWithValues: entities.map {
                ($0.id, Double(Int.random(in: 0 ... 2, using: &rng)))
            })
            let frecency = { (id: String) in scores[id] ?? 0 }
            let directory = DirectoryIndex(entities)

            for _ in 0 ..< 8 {
                let query = Self.randomText(Self.queryAlphabet, maxLength: 4, using: &rng)
                let limit = [1, 3, 50].randomElement(using: &rng)!
                let expected = ReferenceRanker.rank(entities, query: query, limit: limit, frecency: frecency)
                let actual = directory.rankedMatches(query, limit: limit, frecency: frecency).map {
                    ReferenceRanker.Result(id: $0.candidate.entity.id, matchClass: $0.matchClass, matches: $0.candidate.matches)
                }
                #expect(actual == expected, "trial \(trial), query \(query.debugDescription), names \(entities.map(\.name))")
                if actual != expected { return }
            }
        }
    }

    /// The indexed search (word-start buckets walked in tie-break order, frecent entries
    /// placed apart, scans narrowed from the previous keystroke's) against the reference,
    /// on bigger directories typed into one character at a time, with negative, zero,
    /// NaN and positive frecency.
    @Test func typedQueriesOnLargerDirectoriesEqualTheReference() {
        Self.typedQueriesEqualTheReference(seed: 77_001, trials: 60, names: Self.nameAlphabet,
                                           handles: ["a", "b", "s", "e", "@", "-"], queries: Self.queryAlphabet)
    }

    /// Names and handles with scalars past U+FFFF beside narrower ones: the index stores
    /// such an entry three bytes a scalar (``FoldedUnits``); it ranks like any other.
    static let wideNameAlphabet = nameAlphabet + ["😀", "𠀋", "🐈", "𝔞"]
    static let wideQueryAlphabet = queryAlphabet + ["😀", "𠀋", "🐈"]

    @Test func typedQueriesWithScalarsPastU_FFFFEqualTheReference() {
        Self.typedQueriesEqualTheReference(seed: 16_002, trials: 40, names: Self.wideNameAlphabet,
                                           handles: ["a", "b", "e", "@", "-", "😀", "𠀋"], queries: Self.wideQueryAlphabet)
    }

    static func typedQueriesEqualTheReference(seed: UInt64, trials: Int, names: [String], handles: [String],
                                              queries: [String]) {
        var rng = SeededRandom(seed: seed)
        for trial in 0 ..< trials {
            let count = Int.random(in: 50 ... 400, using: &rng)
            var entities: [Entity] = []
            for offset in 0 ..< count {
                var name = Self.randomText(names, maxLength: 12, using: &rng)
                if Folding.folded(name).isEmpty { name = "b" + name }
                let handle: String? = Bool.random(using: &rng)
                    ? Self.randomText(handles, maxLength: 6, using: &rng) : nil
                entities.append(Entity(id: "e\(offset)", name: name, handle: handle))
            }
            var scores: [String: Double] = [:]
            for entity in entities where Int.random(in: 0 ..< 10, using: &rng) == 0 {
                scores[entity.id] = [-1, 0.5, 3, .nan].randomElement(using: &rng)!
            }
            let frecency = { (id: String) in scores[id] ?? 0 }
            let directory = DirectoryIndex(entities)
            for _ in 0 ..< 4 {
                let typed = Self.randomText(queries, maxLength: 6, using: &rng)
                let limit = [1, 5, 50].randomElement(using: &rng)!
                var query = ""
                for character in typed {
                    query.append(character)
                    let expected = ReferenceRanker.rank(entities, query: query, limit: limit, frecency: {
                        let s = frecency($0)
                        return s.isNaN ? 0 : s
                    })
                    let actual = directory.rankedMatches(query, limit: limit, frecency: frecency).map {
                        ReferenceRanker.Result(id: $0.candidate.entity.id, matchClass: $0.matchClass, matches: $0.candidate.matches)
                    }
                    #expect(actual == expected, "trial \(trial), query \(query.debugDescription), limit \(limit)")
                    if actual != expected { return }
                }
            }
        }
    }
}
