/// The words an implicit search keeps quiet on (SPEC §3): a list of a language's most
/// frequent words, and every beginning of them.
///
/// A word being typed opens nothing while it is one of these words or the start of one
/// (`hel` on the way to `hello`), so ordinary prose never pops a chooser, whatever the
/// directory holds; once the word leaves the list (`johnn`), the search may start.
public struct QuietWords: Sendable, Equatable {
    /// The words and all their beginnings, lower-cased.
    private let prefixes: Set<String>

    /// Quiet on `words` (compared lower-cased) and their beginnings.
    public init<Words: Sequence>(_ words: Words) where Words.Element: StringProtocol {
        var prefixes: Set<String> = []
        for word in words {
            let lower = word.lowercased()
            var prefix = ""
            for c in lower {
                prefix.append(c)
                prefixes.insert(prefix)
            }
        }
        self.prefixes = prefixes
    }

    /// Nothing is quiet.
    public init() {
        prefixes = []
    }

    /// Reads a word list: one word a line; blank lines and lines starting with `#` are
    /// skipped.
    public init(list text: String) {
        self.init(text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// Whether `word` is a listed word or the beginning of one.
    public func silences(_ word: some StringProtocol) -> Bool {
        !prefixes.isEmpty && prefixes.contains(word.lowercased())
    }

    public var isEmpty: Bool { prefixes.isEmpty }
}

private extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
