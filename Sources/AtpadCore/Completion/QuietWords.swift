/// The words an implicit search keeps quiet on
/// (docs/keys.md, "Implicit search: when it speaks up"): a list of a language's most
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
        // String order (byte order for the ASCII of a word list): `silences` searches the same.
        self.words = words.map { $0.lowercased() }.sorted()
    }

    /// Nothing is quiet.
    public init() {
        words = []
    }

    /// Reads a word list: one word a line; blank lines and lines starting with `#` are
    /// skipped. (Read on the UTF-8 bytes: the editor reads the list before its first frame.)
    public init(list text: String) {
        var words: [String] = []
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for end in 0 ... bytes.count where end == bytes.count || bytes[end] == 0x0A || bytes[end] == 0x0D {
                var lo = start, hi = end
                while lo < hi, Self.isBlank(bytes[lo]) { lo += 1 }
                while hi > lo, Self.isBlank(bytes[hi - 1]) { hi -= 1 }
                if lo < hi, bytes[lo] != UInt8(ascii: "#") {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[lo ..< hi]), as: UTF8.self))
                }
                start = end + 1
            }
        }
        self.init(words)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Whether `word` is a listed word or the beginning of one: the first listed word not
    /// before it starts with it.
    public func silences(_ word: some StringProtocol) -> Bool {
        guard !words.isEmpty, !word.isEmpty else { return false }
        let lower = word.lowercased()
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid] < lower { low = mid + 1 } else { high = mid }
        }
        return low < words.count && words[low].hasPrefix(lower)
    }

    public var isEmpty: Bool { words.isEmpty }
}
