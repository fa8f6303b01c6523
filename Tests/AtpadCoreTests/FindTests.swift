@testable import AtpadCore
import Testing

/// Find (docs/keys.md, "Prompts and the chooser"): matches fold case and accents as the
/// chooser does unless the query has an upper-case letter; they start and end on grapheme
/// boundaries; a match in a mention selects the mention.
@Suite struct FindTests {
    func matches(_ markup: String, _ query: String) -> [Range<Int>] {
        Editor(AtpadMarkup.decode(markup)).matches(of: query)
    }

    @Test func foldsCaseAndAccents() {
        #expect(matches("Café cafe CAFÉ", "cafe") == [0..<4, 5..<9, 10..<14])
        #expect(matches("Café cafe CAFÉ", "café") == [0..<4, 5..<9, 10..<14])
        #expect(matches("Zoë Ørsted", "zoe orsted") == [0..<10])
    }

    @Test func specialLettersFoldAsInDirectorySearch() {
        #expect(matches("Straße", "strasse") == [0..<6])
        // Half of a letter's fold is not a match: `s` does not match one `s` of `ß`.
        #expect(matches("Straße", "s") == [0..<1])
        #expect(matches("Ærø", "aero") == [0..<3])
    }

    @Test func anUpperCaseLetterMakesTheComparisonExact() {
        #expect(matches("Cafe café CAFE Café", "Cafe") == [0..<4])
        #expect(matches("Café cafe", "Café") == [0..<4])
        #expect(matches("straße STRASSE", "STRASSE") == [7..<14])
    }

    @Test func aCombiningAccentBelongsToTheMatch() {
        // `e` + U+0301 is one character: folded, the accent goes with the match.
        #expect(matches("Jose\u{301} jose", "jose") == [0..<5, 6..<10])
        // Exact, the match would end inside the character: no match there.
        #expect(matches("E\u{301}E", "E") == [2..<3])
    }

    @Test func matchesStartAndEndOnGraphemeBoundaries() {
        #expect(matches("👩‍💻 👩", "👩") == [4..<5])
        #expect(matches("🇫🇷🇫🇷", "🇷🇫") == [])
    }

    @Test func matchesDoNotOverlapAndComeInOrder() {
        #expect(matches("aaaaa", "aa") == [0..<2, 2..<4])
        #expect(matches("abab abab", "abab") == [0..<4, 5..<9])
    }

    @Test func anEmptyQueryHasNoMatches() {
        #expect(matches("abc", "") == [])
        // A query of accents alone folds to nothing.
        #expect(matches("e\u{301}", "\u{301}") == [])
    }

    @Test func matchesInsideMentionsAreFound() {
        #expect(matches("hi @[John Doe](1) john", "john") == [4..<8, 13..<17])
    }

    @Test func aMatchInAMentionSelectsTheWholeMention() {
        let editor = Editor(AtpadMarkup.decode("hi @[John Doe](1) john"))
        #expect(editor.matchSelection(4..<8) == Selection(anchor: 12, head: 3))
        #expect(editor.matchSelection(10..<14) == Selection(anchor: 12, head: 3))
        #expect(editor.matchSelection(13..<17) == .cursor(13))
        // Touching a mention's edge is not being inside it.
        #expect(editor.matchSelection(0..<3) == .cursor(0))
    }

    /// Against a plain search over random ASCII text long enough to span many chunks.
    @Test(arguments: 0..<8)
    func agreesWithAPlainSearch(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &+ 77)
        var text = ""
        for _ in 0..<rng.int(0..<6000) { text += rng.pick(["a", "b", "A", "B", " ", "\n", "ab"]) }
        let query = (0..<rng.int(1..<4)).map { _ in rng.pick(["a", "b"]) }.joined()
        let hay = Array(text.lowercased().utf8)
        let needle = Array(query.utf8)
        var expected: [Range<Int>] = []
        var i = 0
        while i + needle.count <= hay.count {
            if Array(hay[i..<(i + needle.count)]) == needle {
                expected.append(i..<(i + needle.count))
                i += needle.count
            } else {
                i += 1
            }
        }
        #expect(Editor(MarkedText(text: text)).matches(of: query) == expected, "seed \(seed)")
    }

    /// On hard Unicode text: every match lies on cluster boundaries, after the one
    /// before it, and folds exactly to the folded query.
    @Test(arguments: 0..<20)
    func matchesAreWholeClustersThatFoldToTheQuery(_ seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &+ 901)
        let pieces = nastyPieces + ["E", "e\u{301}", "É", "ß", "ss", "S", "Æ", "ae"]
        var text = ""
        for _ in 0..<rng.int(0..<400) { text += rng.pick(pieces) }
        var query = ""
        for _ in 0..<rng.int(1..<3) { query += rng.pick(["e", "é", "s", "ss", "a", "ae", "E", "b", "👩‍💻"]) }
        let scalars = Array(text.unicodeScalars)
        var boundaries = Set([0])
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            boundaries.insert(offset)
        }
        let exact = query.unicodeScalars.contains { $0.properties.changesWhenLowercased }
        var last = 0
        for range in Editor(MarkedText(text: text)).matches(of: query) {
            let found = String(String.UnicodeScalarView(scalars[range]))
            #expect(boundaries.contains(range.lowerBound) && boundaries.contains(range.upperBound), "seed \(seed)")
            #expect(range.lowerBound >= last, "seed \(seed)")
            if exact {
                #expect(Array(found.unicodeScalars) == Array(query.unicodeScalars), "seed \(seed)")
            } else {
                #expect(Folding.folded(found) == Folding.folded(query), "seed \(seed): \(found.debugDescription)")
            }
            last = range.upperBound
        }
    }

    @Test func aMegabyteIsSearchedInOnePass() {
        let line = "The quick brown fox jumps over the lazy dog — Ærøskøbing, Straße. "
        var text = ""
        while text.utf8.count < 1_000_000 { text += line }
        let editor = Editor(MarkedText(text: text))
        let clock = ContinuousClock()
        var found: [Range<Int>] = []
        let elapsed = clock.measure { found = editor.matches(of: "strasse") }
        #expect(found.count == text.utf8.count / line.utf8.count)
        // About 25 ms in a debug build; the bound leaves room for a busy machine and
        // still catches anything quadratic.
        #expect(elapsed < .milliseconds(500), "\(elapsed)")
    }
}
