/// A word of a document that no dictionary knows (docs/spelling.md): where it is, in
/// scalars and as `LINE:COL` (1-based, the column in characters, as the editor counts
/// them), and the word.
public struct Misspelling: Hashable, Sendable {
    public var range: Range<Int>
    public var word: String
    public var line: Int
    public var column: Int

    public init(range: Range<Int>, word: String, line: Int, column: Int) {
        self.range = range
        self.word = word
        self.line = line
        self.column = column
    }

    /// The misspelt words of `doc`: the words ``SpellWords`` gives that are neither in
    /// `known` nor known to `speller`, in document order. Reads nothing but its arguments.
    /// `stop` is asked now and then while the words are looked up: when it says so, the
    /// search ends with what it found so far (the editor drops a check whose text has
    /// changed meanwhile).
    public static func find(in doc: MarkedText, format: DocumentFormat, git: GitFile? = nil,
                            speller: some Speller, known: KnownWords = KnownWords(),
                            stop: () -> Bool = { false }) -> [Misspelling] {
        var looked = 0
        var wrong: [SpellWords.Word] = []
        for word in SpellWords.words(in: doc, format: format, git: git) {
            looked += 1
            if looked % 512 == 0, stop() { break }
            if !known.contains(word.text) && !speller.knows(word.text) { wrong.append(word) }
        }
        guard !wrong.isEmpty else { return [] }
        var found: [Misspelling] = []
        found.reserveCapacity(wrong.count)
        var line = 1, column = 1, scalars = 0, k = 0
        for character in doc.text {
            let count = character.unicodeScalars.count
            while k < wrong.count, wrong[k].range.lowerBound < scalars + count {
                found.append(Misspelling(range: wrong[k].range, word: wrong[k].text, line: line, column: column))
                k += 1
            }
            if k == wrong.count { break }
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            scalars += count
        }
        return found
    }
}
