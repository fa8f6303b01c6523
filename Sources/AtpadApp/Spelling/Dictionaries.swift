import AtpadCore
import AtpadSystem

/// The Hunspell dictionaries of the languages spelling checks in, as the core's
/// ``Speller``: a word is right when any of them knows it (docs/spelling.md, "Languages").
/// The suggestions are the known words one edit away (``NearbyWords``), and only when there
/// are none by a letter (only a misspelling the dictionary names, or a split) Hunspell's,
/// each dictionary's in turn, before them and without repeats (docs/spelling.md,
/// "Suggestions").
struct Dictionaries: Speller {
    let all: [HunspellDictionary]
    /// The letters suggestions add and change and the misspellings they know: every
    /// dictionary's, in turn.
    let rules: NearbyWords.Rules

    init(all: [HunspellDictionary]) {
        self.all = all
        self.rules = NearbyWords.Rules(affixLines: all.flatMap(\.suggestionLines))
    }

    func knows(_ word: String) -> Bool {
        all.contains { $0.check(word) }
    }

    func suggestions(for word: String) -> [String] {
        let nearby = NearbyWords.find(word, rules: rules) { candidate in
            all.contains { $0.check(utf8: candidate) }
        }
        if nearby.byLetters { return nearby.words }
        // Only a named misspelling or a split (`misteach`, `mi steak` for `misteak`): the
        // word may have been mistyped twice, which Hunspell's own suggestions catch.
        var seen: Set<String> = []
        return (all.flatMap { $0.suggestions(word) } + nearby.words).filter { seen.insert($0).inserted }
    }
}
