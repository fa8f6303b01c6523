import AtpadCore
import Testing
@testable import AtpadDirectory

/// Builds an index from names (ids `p0`, `p1`, … in order, no handles) plus extra entities.
private func index(_ names: [String], handles: [String?] = []) -> DirectoryIndex {
    DirectoryIndex(names.enumerated().map { offset, name in
        Entity(id: "p\(offset)", name: name, handle: offset < handles.count ? handles[offset] : nil)
    })
}

private func ids(_ results: [Candidate]) -> [String] {
    results.map(\.entity.id)
}

@Suite struct RankingClassTests {
    @Test func prefixOfANameWord() throws {
        let directory = index(["John Doe", "Adoen Smith"])
        let results = directory.rankedMatches("doe")
        #expect(results.map(\.candidate.entity.id) == ["p0", "p1"])
        #expect(results[0].matchClass == .prefix)
        #expect(results[0].candidate.matches == [5 ..< 8])
        #expect(results[1].matchClass == .substring)
        #expect(results[1].candidate.matches == [1 ..< 4])
    }

    @Test func anExactWordOrHandleComesFirstWithinTheFirstClass() throws {
        // `jose` is the whole word José, only the start of Joseph (docs/directories.md).
        let directory = index(["Joseph Reed", "José Álvarez"])
        #expect(directory.rankedMatches("jose").map(\.candidate.entity.id) == ["p1", "p0"])
        // Before frecency and name length too, but never across classes.
        let frecent = directory.rankedMatches("jose", frecency: { $0 == "p0" ? 10 : 0 })
        #expect(frecent.map(\.candidate.entity.id) == ["p1", "p0"])
        let handles = index(["Annabel Lee", "Ann Sims", "Bo Annist"], handles: [nil, nil, "ann"])
        #expect(handles.rankedMatches("ann").map(\.candidate.entity.id) == ["p1", "p2", "p0"])
        // Several query words: one of them whole is enough.
        let two = index(["Jon Snowden", "Jona Snowe"])
        #expect(two.rankedMatches("jon snow").map(\.candidate.entity.id) == ["p0", "p1"])
    }

    @Test func strongMatchesAreMarked() throws {
        let directory = index(["John Doe", "Adoen Smith", "Jade Dunn"])
        #expect(directory.rank("doe").map(\.isStrong) == [true, false])
        #expect(directory.rank("jd").map(\.isStrong) == [true, true])
    }

    @Test func prefixOfTheHandleHasNoNameRanges() throws {
        let directory = index(["John Doe"], handles: ["jdoe"])
        let result = try #require(directory.rankedMatches("jdo").first)
        #expect(result.matchClass == .prefix)
        #expect(result.candidate.matches == [])
    }

    @Test func handleWithAnAtSignMatchesWithoutIt() {
        let directory = index(["Bruce Wayne"], handles: ["@bwayne"])
        #expect(directory.matchClass(of: 0, for: "bwa") == .prefix)
    }

    @Test func severalQueryWordsStartDifferentNameWordsInOrder() {
        let directory = index(["Travis Bickle", "Travis Barker", "Bob Travis", "Travis Scott"])
        let results = directory.rankedMatches("travis b")
        #expect(results.map(\.candidate.entity.id) == ["p0", "p1"])
        #expect(results.allSatisfy { $0.matchClass == .prefix })
        #expect(results[0].candidate.matches == [0 ..< 6, 7 ..< 8])
        // Out of order is no prefix match (and here no match at all).
        #expect(directory.matchClass(of: 0, for: "b travis") == nil)
        #expect(directory.matchClass(of: 2, for: "b travis") == .prefix)
    }

    @Test func queryWordsNeedDifferentNameWords() {
        let directory = index(["Jo Ng", "John Jones"])
        #expect(directory.matchClass(of: 0, for: "jo jo") == nil)
        #expect(directory.matchClass(of: 1, for: "jo jo") == .prefix)
    }

    @Test func queryWordsMaySkipNameWords() {
        let directory = index(["Maria de la Cruz"])
        let result = directory.rankedMatches("maria cr")
        #expect(result.first?.matchClass == .prefix)
        #expect(result.first?.candidate.matches == [0 ..< 5, 12 ..< 14])
    }

    @Test func nameWordsSplitAtHyphens() {
        let directory = index(["Anne-Marie Dupont"])
        let marie = directory.rankedMatches("marie")
        #expect(marie.first?.matchClass == .prefix)
        #expect(marie.first?.candidate.matches == [5 ..< 10])
        // A hyphen in the query splits query words the same way.
        #expect(directory.matchClass(of: 0, for: "anne-m") == .prefix)
        #expect(directory.matchClass(of: 0, for: "amd") == .initials)
    }

    @Test func initialsOfConsecutiveWords() {
        let directory = index(["John Doe", "Maria de la Cruz", "Jean-Luc Picard"])
        let jd = directory.rankedMatches("jd")
        // Jean-Luc Picard has a j and later a d: fuzzy, after the initials.
        #expect(jd.map(\.candidate.entity.id) == ["p0", "p2"])
        #expect(jd.map(\.matchClass) == [.initials, .fuzzy])
        #expect(jd[0].candidate.matches == [0 ..< 1, 5 ..< 6])

        #expect(directory.matchClass(of: 1, for: "mdlc") == .initials)
        #expect(directory.matchClass(of: 1, for: "dlc") == .initials)
        // Initials must be of consecutive words: m…c skips two.
        #expect(directory.matchClass(of: 1, for: "mc") == .fuzzy)
        #expect(directory.matchClass(of: 2, for: "jlp") == .initials)
        // One letter is a prefix, never initials.
        #expect(directory.matchClass(of: 0, for: "j") == .prefix)
        // Initials have no spaces.
        #expect(directory.matchClass(of: 0, for: "j d") == .prefix)
    }

    @Test func substringOfTheName() {
        let directory = index(["John Doe"])
        let result = directory.rankedMatches("ohn")
        #expect(result.first?.matchClass == .substring)
        #expect(result.first?.candidate.matches == [1 ..< 4])
        #expect(directory.matchClass(of: 0, for: "n d") == .substring)
    }

    @Test func substringOfTheHandle() {
        let directory = index(["Zed Zulu"], handles: ["xyzzy"])
        let result = directory.rankedMatches("yzz")
        #expect(result.first?.matchClass == .substring)
        #expect(result.first?.candidate.matches == [])
    }

    @Test func cjkNamesMatchBySubstring() {
        let directory = index(["王伟", "李娜", "王芳", "田中太郎"])
        #expect(ids(directory.rank("王")) == ["p0", "p2"])
        #expect(directory.matchClass(of: 0, for: "王") == .prefix)
        let wei = directory.rankedMatches("伟")
        #expect(wei.map(\.candidate.entity.id) == ["p0"])
        #expect(wei[0].matchClass == .substring)
        #expect(wei[0].candidate.matches == [1 ..< 2])
        #expect(directory.matchClass(of: 3, for: "中太") == .substring)
    }

    @Test func fuzzyCharactersInOrder() {
        let directory = index(["John Doe", "Jane Doe"])
        let result = directory.rankedMatches("jhn")
        #expect(result.map(\.candidate.entity.id) == ["p0"])
        #expect(result[0].matchClass == .fuzzy)
        #expect(result[0].candidate.matches == [0 ..< 1, 2 ..< 4])
        // Spaces in a fuzzy query are ignored.
        #expect(directory.matchClass(of: 0, for: "jo  de") == .fuzzy)
        #expect(directory.matchClass(of: 0, for: "xj") == nil)
    }

    @Test func fuzzyInTheHandle() {
        let directory = index(["Zed Zulu"], handles: ["xyzzy"])
        #expect(directory.matchClass(of: 0, for: "xzy") == .fuzzy)
        #expect(directory.rank("xzy").first?.matches == [])
    }

    @Test func classesRankBestFirst() {
        // In directory order: initials, substring, fuzzy, prefix.
        let directory = index(["Sam Ted Aron", "Bastardo", "Sam Otto", "Stan Ley"])
        let results = directory.rankedMatches("st")
        #expect(results.map(\.matchClass) == [.prefix, .initials, .substring, .fuzzy])
        #expect(results.map(\.candidate.entity.id) == ["p3", "p0", "p1", "p2"])
        #expect(results.map(\.position) == [3, 0, 1, 2])
    }

    @Test func noMatchGivesNoResults() {
        #expect(index(["John Doe"]).rank("zzz").isEmpty)
        #expect(DirectoryIndex([]).rank("a").isEmpty)
        #expect(DirectoryIndex([]).rank("").isEmpty)
    }
}

@Suite struct RankingOrderTests {
    @Test func frecencyFirstWithinAClass() {
        let directory = index(["Bruce Wayne", "Bruce Banner", "Bruce Kibbutz Junior"])
        let scores = ["p1": 5.0, "p2": 9.0]
        let results = directory.rank("bruce") { scores[$0] ?? 0 }
        #expect(ids(results) == ["p2", "p1", "p0"])
    }

    @Test func classBeatsFrecency() {
        let directory = index(["Abruce Sub", "Bruce Wayne"])
        let results = directory.rank("bruce") { $0 == "p0" ? 100 : 0 }
        #expect(ids(results) == ["p1", "p0"])
    }

    @Test func shorterNameBreaksFrecencyTies() {
        let directory = index(["Bruce Banner", "Bruce Wayne", "Bruce Lee"])
        #expect(ids(directory.rank("bruce")) == ["p2", "p1", "p0"])
    }

    @Test func nameLengthCountsCharactersNotScalars() {
        // "Jose\u{301}" is four Characters, as long as "Josh"; directory order decides.
        let directory = index(["Jose\u{301} Ab", "Josh Ab"])
        #expect(ids(directory.rank("jos")) == ["p0", "p1"])
    }

    @Test func directoryOrderBreaksTheRest() {
        let directory = index(["Travis Bickle", "Travis Barker", "Travis Bxxxxx"])
        #expect(ids(directory.rank("travis b")) == ["p0", "p1", "p2"])
        #expect(ids(directory.rank("trav")) == ["p0", "p1", "p2"])
    }

    @Test func emptyQueryListsByFrecencyThenDirectoryOrder() {
        let directory = index(["Long Name Here", "Al", "Bo", "Cy"])
        #expect(ids(directory.rank("")) == ["p0", "p1", "p2", "p3"])
        #expect(ids(directory.rank("   ")) == ["p0", "p1", "p2", "p3"])
        #expect(ids(directory.rank("") { $0 == "p2" ? 1 : 0 }) == ["p2", "p0", "p1", "p3"])
        #expect(directory.rankedMatches("").allSatisfy { $0.matchClass == nil && $0.candidate.matches.isEmpty })
    }

    @Test func limitKeepsTheBest() {
        let names = (0 ..< 100).map { "Person \(String(repeating: "x", count: 100 - $0))" }
        let directory = index(names)
        #expect(directory.rank("person").count == 50)
        let ten = directory.rank("person", limit: 10)
        // Shorter names rank first: the last ten entries, shortest first.
        #expect(ids(ten) == (90 ..< 100).reversed().map { "p\($0)" })
        #expect(directory.rank("person", limit: 0).isEmpty)
        #expect(directory.rank("person", limit: 1000).count == 100)
        #expect(ids(directory.rank("", limit: 3)) == ["p0", "p1", "p2"])
    }

    @Test func nanFrecencyCountsAsZero() {
        let directory = index(["Bruce Banner", "Bruce Wayne"])
        #expect(ids(directory.rank("bruce") { $0 == "p0" ? .nan : 0 }) == ["p1", "p0"])
    }
}

@Suite struct RankingQueryTests {
    @Test func queryIsFoldedLikeNames() {
        let directory = index(["José Álvarez", "Zoë Ørsted", "Łukasz Wróbel", "Björn Müller", "Günther Strauß"])
        #expect(directory.matchClass(of: 0, for: "JOSÉ") == .prefix)
        #expect(directory.matchClass(of: 0, for: "alvarez") == .prefix)
        #expect(directory.matchClass(of: 1, for: "zoe ors") == .prefix)
        #expect(directory.matchClass(of: 2, for: "lukasz") == .prefix)
        #expect(directory.matchClass(of: 3, for: "muller") == .prefix)
        #expect(directory.matchClass(of: 4, for: "strauss") == .prefix)
        #expect(directory.matchClass(of: 4, for: "STRAUẞ") == .prefix)
    }

    @Test func queryIsTrimmedAndSpacesCollapse() {
        let directory = index(["Travis Bickle", "Travis Barker"])
        #expect(directory.rank("  travis   b  ") == directory.rank("travis b"))
        #expect(directory.rank("  travis   b  ").count == 2)
    }

    @Test func rangesAfterSharpSFolding() {
        let directory = index(["Günther Strauß", "Jürgen Weiß"])
        // "straus" matches only the first s of "ss"; the whole ß is emphasised.
        #expect(directory.rank("straus").first?.matches == [8 ..< 14])
        #expect(directory.rank("strauss").first?.matches == [8 ..< 14])
        #expect(directory.rank("weis").first?.matches == [7 ..< 11])
        #expect(directory.rank("ther str").first?.matches == [3 ..< 11])
    }

    @Test func rangesCoverCombiningMarks() {
        let directory = index(["Jose\u{301} Alvarez"])
        #expect(directory.rank("jose").first?.matches == [0 ..< 5])
        #expect(directory.rank("se").first?.matches == [2 ..< 5])
    }

    @Test func rangesAreScalarOffsetsIntoTheOriginalName() {
        let directory = index(["  Ævar   Þórsson"])
        // Folded "aevar thorsson"; "thor" maps back past the leading and repeated spaces.
        #expect(directory.rank("thor").first?.matches == [9 ..< 12])
        #expect(directory.rank("aev").first?.matches == [2 ..< 4])
    }
}
