/// The words an implicit search keeps quiet on (SPEC §3): a list of a language's most
/// frequent words, and every beginning of them.
///
/// A word being typed opens nothing while it is one of these words or the start of one
/// (`hel` on the way to `hello`), so ordinary prose never pops a chooser, whatever the
/// directory holds; once the word leaves the list (`johnn`), the search may start.
public struct QuietWords: Sendable, Equatable {
    /// The words, lower-cased, in UTF-8 byte order: a word's beginnings are found by a
    /// binary search, so the list costs a sort at start-up, not a set of every prefix.
    private let words: [String]

    /// Quiet on `words` (compared lower-cased) and their beginnings.
    public init<Words: Sequence>(_ words: Words) where Words.Element: StringProtocol {
        self.words = words.map { $0.lowercased() }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Nothing is quiet.
    public init() {
        words = []
    }

    /// Reads a word list: one word a line; blank lines and lines starting with `#` are
    /// skipped.
    public init(list text: String) {
        self.init(text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// Whether `word` is a listed word or the beginning of one: the first listed word not
    /// before it (in byte order) starts with it.
    public func silences(_ word: some StringProtocol) -> Bool {
        guard !words.isEmpty, !word.isEmpty else { return false }
        let lower = word.lowercased()
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid].utf8.lexicographicallyPrecedes(lower.utf8) { low = mid + 1 } else { high = mid }
        }
        return low < words.count && words[low].utf8.starts(with: lower.utf8)
    }

    public var isEmpty: Bool { words.isEmpty }
}

private extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
