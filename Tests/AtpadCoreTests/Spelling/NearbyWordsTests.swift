import AtpadCore
import Testing

/// Suggestions one edit away (docs/spelling.md, "Suggestions"): which spellings are tried,
/// in which order, and that each find is a known word one edit from the typo.
@Suite struct NearbyWordsTests {
    /// A dictionary as Hunspell reads one: a lower-case word also capitalised or in capitals,
    /// a name only capitalised.
    struct Dictionary {
        var words: Set<String>
        func knows(_ word: String) -> Bool {
            words.contains(word) || words.contains(word.lowercased())
                && (word == word.lowercased() || word.dropFirst() == word.lowercased().dropFirst() || word == word.uppercased())
        }
        func find(_ word: String, rules: NearbyWords.Rules = NearbyWords.Rules(affixLines: ["TRY abcdefghijklmnopqrstuvwxyz'"])) -> [String] {
            NearbyWords.find(word, rules: rules) { knows(String(cString: $0)) }.words
        }
    }

    static let english = Dictionary(words: [
        "which", "winch", "witch", "wish", "with", "rich", "the", "tech", "eh", "a", "lot", "allot", "alto",
        "received", "relieved", "resolved", "resoled", "don't", "until", "English", "café", "cafe",
    ])

    @Test func oneEditAwayBestFirst() {
        let d = Self.english
        // Swapped, then missing, too many, wrong, then a space missing.
        #expect(d.find("wich") == ["which", "winch", "witch", "rich", "wish", "with"])
        #expect(d.find("resovled") == ["resolved", "resoled"])
        #expect(d.find("teh") == ["the", "tech", "eh"])
        #expect(d.find("alot") == ["alto", "allot", "lot", "a lot"])
        #expect(d.find("untill") == ["until"])
        #expect(d.find("dont") == ["don't"])
        // The case alone.
        #expect(d.find("english") == ["English"])
        #expect(d.find("tHE") == ["the", "The"])
    }

    /// A letter doubled in the wrong place is one slip, found after every one-edit word.
    @Test func aDoubledLetterInTheWrongPlace() {
        let d = Dictionary(words: ["tomorrow", "necessary", "occasion", "tomorrows"])
        #expect(d.find("tommorow") == ["tomorrow"])
        #expect(d.find("neccesary") == ["necessary"])
        #expect(d.find("Tommorow") == ["Tomorrow"])
        #expect(d.find("tommorows") == ["tomorrows"])
        let found = NearbyWords.find("tommorow", rules: NearbyWords.Rules(affixLines: [])) { d.knows(String(cString: $0)) }
        #expect(found.byLetters)
    }

    @Test func aCapitalisedWordKeepsItsCapital() {
        let d = Self.english
        #expect(d.find("Recieved") == ["Received", "Relieved"])
        #expect(d.find("Wich").prefix(2) == ["Which", "Winch"])
        #expect(d.find("Alot").contains("A lot"))
    }

    @Test func lettersBeyondASCII() {
        let d = Self.english
        let accents = NearbyWords.Rules(affixLines: ["TRY eé"])
        #expect(d.find("cafè", rules: accents) == ["cafe", "café"])
        #expect(d.find("caf", rules: accents) == ["cafe", "café"])
        #expect(d.find("") == [])
    }

    @Test func rulesFromAnAffixFile() {
        let rules = NearbyWords.Rules(affixLines: ["TRY esiaénrtolcdugmfphbyvkw-'.zqjxSNRTLÅçè", "REP 3",
                                                   "REP alot a_lot", "REP ^ph f", "REP ey$ y"])
        #expect(rules.alphabet == Array("esiaénrtolcdugmfphbyvkw'zqjxçè".unicodeScalars))
        #expect(rules.replacements.map { String(String.UnicodeScalarView($0.from)) } == ["alot", "ph", "ey"])
        #expect(rules.replacements.map { String(String.UnicodeScalarView($0.to)) } == ["a lot", "f", "y"])
        #expect(rules.replacements.map(\.atStart) == [false, true, false])
        #expect(rules.replacements.map(\.atEnd) == [false, false, true])
        #expect(NearbyWords.Rules(affixLines: []).alphabet.count == 26)
    }

    /// A misspelling the dictionary names comes before every edit, anchored where it says.
    @Test func namedMisspellingsFirst() {
        let d = Dictionary(words: ["a", "lot", "alto", "phone", "fish", "alfa", "way", "ways"])
        let rules = NearbyWords.Rules(affixLines: ["TRY abcdefghijklmnopqrstuvwxyz", "REP alot a_lot", "REP f ph",
                                                   "REP ^ph f", "REP eigh$ ay"])
        #expect(d.find("alot", rules: rules).first == "a lot")
        #expect(d.find("Alot", rules: rules).first == "A lot")
        #expect(d.find("fone", rules: rules) == ["phone"])
        let named = NearbyWords.find("fone", rules: rules) { d.knows(String(cString: $0)) }
        #expect(named.words == ["phone"] && !named.byLetters)
        #expect(NearbyWords.find("alot", rules: rules) { d.knows(String(cString: $0)) }.byLetters)
        // `^ph`: at the start only; `eigh$`: at the end only.
        #expect(d.find("phish", rules: rules) == ["fish"])
        #expect(d.find("alpha", rules: rules) == [])
        #expect(d.find("weigh", rules: rules) == ["way"])
        #expect(d.find("weighs", rules: rules) == [])
    }

    /// Over random typos of random words, every find is a known word exactly one edit away
    /// (or a double moved), and every known word one edit away is found.
    @Test func everyFindIsOneEditAndNoneIsMissed() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcde".unicodeScalars)
        func random(_ length: Int) -> String {
            String(String.UnicodeScalarView((0 ..< length).map { _ in letters.randomElement(using: &generator)! }))
        }
        for _ in 0 ..< 200 {
            let words = Set((0 ..< 40).map { _ in random(Int.random(in: 1 ... 5, using: &generator)) })
            let dictionary = Dictionary(words: words)
            let typo = random(Int.random(in: 1 ... 5, using: &generator))
            guard !dictionary.knows(typo) else { continue }
            let found = dictionary.find(typo, rules: NearbyWords.Rules(affixLines: ["TRY abcde"]))
            #expect(Set(found).count == found.count)
            let expected = Set((Self.oneEdit(typo, letters) + Self.doubleMoved(typo)).filter { $0 != typo && dictionary.knows($0) })
                .union(Self.splits(typo).filter { $0.split(separator: " ").allSatisfy { dictionary.knows(String($0)) } })
            #expect(Set(found) == expected, "\(typo) in \(words.sorted())")
        }
    }

    /// Every spelling one swap, insertion, deletion or change from `word`.
    static func oneEdit(_ word: String, _ letters: [Unicode.Scalar]) -> [String] {
        let w = Array(word.unicodeScalars)
        func text(_ s: [Unicode.Scalar]) -> String { String(String.UnicodeScalarView(s)) }
        var all: [String] = []
        for i in 0 ..< max(w.count - 1, 0) {
            var s = w
            s.swapAt(i, i + 1)
            all.append(text(s))
        }
        for i in 0 ... w.count { for l in letters { var s = w; s.insert(l, at: i); all.append(text(s)) } }
        for i in w.indices { var s = w; s.remove(at: i); if !s.isEmpty { all.append(text(s)) } }
        for i in w.indices { for l in letters { var s = w; s[i] = l; all.append(text(s)) } }
        return all
    }

    /// Every spelling with one doubled letter made single and one single letter doubled.
    static func doubleMoved(_ word: String) -> [String] {
        let w = Array(word.unicodeScalars)
        var all: [String] = []
        for i in 0 ..< max(w.count - 1, 0) where w[i] == w[i + 1] {
            var undone = w
            undone.remove(at: i + 1)
            for j in undone.indices where (j == 0 || undone[j - 1] != undone[j]) && (j == undone.count - 1 || undone[j + 1] != undone[j])
                && j != i {
                var s = undone
                s.insert(s[j], at: j)
                all.append(String(String.UnicodeScalarView(s)))
            }
        }
        return all
    }

    static func splits(_ word: String) -> [String] {
        let w = Array(word.unicodeScalars)
        return (1 ..< max(w.count, 1)).map {
            String(String.UnicodeScalarView(w[..<$0])) + " " + String(String.UnicodeScalarView(w[$0...]))
        }
    }
}
