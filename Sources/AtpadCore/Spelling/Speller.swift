/// What spelling asks of a dictionary (docs/spelling.md): whether a word is spelt right,
/// and what it might have been. The app gives Hunspell's dictionaries; the core's tests
/// give a word list, so the core never opens a file.
public protocol Speller: Sendable {
    /// Whether the dictionaries know `word` as it is written.
    func knows(_ word: String) -> Bool
    /// Words `word` may have been meant as, best first (none when there are none).
    func suggestions(for word: String) -> [String]
}
