/// Words that are right although a dictionary may not know them (docs/spelling.md, "Known
/// words"): every word of the names and every handle of the directories in use — a
/// person's surname is not a typo — and the personal word list. Matched without regard to
/// case, so `Nguyen` at a sentence's start and `nguyen` in a handle are both known.
public struct KnownWords: Sendable, Equatable {
    private var words: Set<String> = []

    public init() {}

    /// The name words and handles of `entities`, and the lines of `list` (the personal
    /// word list: one word a line; blank lines and surrounding blanks are ignored).
    public init(entities: some Sequence<Entity>, list: String = "") {
        for entity in entities {
            add(wordsOf: entity.name)
            if let handle = entity.handle { add(wordsOf: handle) }
        }
        for line in list.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let word = line.trimmingBlanks
            if !word.isEmpty { words.insert(word.lowercased()) }
        }
    }

    /// Adds `word` ("Add WORD to my words" in the editor, docs/spelling.md).
    public mutating func add(_ word: String) {
        words.insert(word.lowercased())
    }

    /// Adds every word of `other` (the names of a directory that finished loading).
    public mutating func formUnion(_ other: KnownWords) {
        words.formUnion(other.words)
    }

    /// Whether `word` is one of these words.
    public func contains(_ word: String) -> Bool {
        !words.isEmpty && words.contains(word.lowercased())
    }

    /// Adds every word of `text`, split where spelling splits words (``SpellWords``): a
    /// name's parts (`Mary-Jane O'Neil` gives `Mary`, `Jane`, `O'Neil`), and a handle whole
    /// as well as by its parts (`j.doe` gives `j.doe`, `j`, `doe`).
    private mutating func add(wordsOf text: String) {
        let whole = text.trimmingBlanks
        if !whole.isEmpty { words.insert(whole.lowercased()) }
        var word = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if CharacterClass.isWord(s) || SpellWords.isApostrophe(s) {
                word.append(s)
            } else if !word.isEmpty {
                words.insert(String(word).lowercased())
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.insert(String(word).lowercased()) }
    }
}

private extension Substring {
    /// Without the spaces and tabs at either end.
    var trimmingBlanks: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !CharacterClass.isBlank($0) }),
              let last = scalars.lastIndex(where: { !CharacterClass.isBlank($0) }) else { return "" }
        return String(scalars[first ... last])
    }
}

private extension String {
    var trimmingBlanks: String { self[...].trimmingBlanks }
}
