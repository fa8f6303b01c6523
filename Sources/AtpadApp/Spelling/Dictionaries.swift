import AtpadCore
import AtpadSystem

/// The Hunspell dictionaries of the languages spelling checks in, as the core's
/// ``Speller``: a word is right when any of them knows it, and the suggestions are each
/// one's in turn, without repeats (docs/spelling.md, "Languages").
struct Dictionaries: Speller {
    var all: [HunspellDictionary]

    func knows(_ word: String) -> Bool {
        all.contains { $0.check(word) }
    }

    func suggestions(for word: String) -> [String] {
        var seen: Set<String> = []
        return all.flatMap { $0.suggestions(word) }.filter { seen.insert($0).inserted }
    }
}
