/// The misspelt words the editor marks (docs/spelling.md, "In the editor"): their ranges in
/// the text as it is now, sorted, and the words ignored in this document.
///
/// The words are found off the loop's thread (the app checks the whole document in the
/// background) for one `version` of the text, and taken only by the text they were found
/// in (``Editor/takeMisspellings(_:version:)``). Between two checks the apply path maps
/// the marks through every change; a mark an edit touches — inside it or at either edge,
/// where typing goes on with the word — is dropped until the next check says again.
public struct SpellMarks: Sendable, Equatable {
    /// One misspelt word: where it is, and the word.
    public struct Mark: Hashable, Sendable {
        public var range: Range<Int>
        public var word: String

        public init(range: Range<Int>, word: String) {
            self.range = range
            self.word = word
        }
    }

    /// The marked words, sorted, not overlapping.
    public private(set) var words: [Mark] = []
    /// Words Ignore took out of this document's marks, lower-cased ("Ignore WORD in this
    /// document"): never marked again while it is open.
    public private(set) var ignored: Set<String> = []
    /// The version of the text the last check that was taken was made for; nil before any.
    public private(set) var checkedVersion: Int?
    /// The text edited since the last check that was taken (one span from the first edit
    /// to the last, in positions of the text as it is now): what a check of part of the
    /// text looks at first, with the rows in view. Nil when nothing was edited since.
    public private(set) var edited: Range<Int>?

    public init() {}

    /// The misspelt words of `region` of `storage` (whole lines, or whole blocks of
    /// Markdown: ``Editor/spellingRegions(visible:)``), so that its words, and what is code
    /// in it, read as in the whole text; in positions of the whole text.
    public static func find(in region: Range<Int>, of storage: TextStorage, format: DocumentFormat,
                            speller: some Speller, known: KnownWords = KnownWords()) -> [Mark] {
        let mentions = storage.mentions(overlapping: region)
            .filter { region.lowerBound <= $0.range.lowerBound && $0.range.upperBound <= region.upperBound }
            .map { $0.shifted(by: -region.lowerBound) }
        let part = MarkedText(text: storage.slice(region), mentions: mentions)
        return Misspelling.find(in: part, format: format, speller: speller, known: known).map {
            Mark(range: $0.range.lowerBound + region.lowerBound ..< $0.range.upperBound + region.lowerBound, word: $0.word)
        }
    }

    /// Takes the words a check of `version` found, less the ignored ones.
    mutating func take(_ found: [Mark], version: Int) {
        words = ignored.isEmpty ? found : found.filter { !ignored.contains($0.word.lowercased()) }
        checkedVersion = version
        edited = nil
    }

    /// Takes the words a check of `regions` (sorted, apart) of the text as it is found:
    /// the marks in them are replaced by these, the others stay. The regions start and end
    /// between words. (The whole text is not checked by it: `checkedVersion` stays.)
    mutating func take(_ found: [Mark], in regions: [Range<Int>]) {
        let kept = ignored.isEmpty ? found : found.filter { !ignored.contains($0.word.lowercased()) }
        func inside(_ mark: Mark) -> Bool { regions.contains { $0.contains(mark.range.lowerBound) } }
        words = (words.filter { !inside($0) } + kept.filter(inside)).sorted { $0.range.lowerBound < $1.range.lowerBound }
        if let edited, regions.contains(where: { $0.lowerBound <= edited.lowerBound && edited.upperBound <= $0.upperBound }) {
            self.edited = nil
        }
    }

    /// Ignores `word` (any case) in this document: its marks go now, and no check brings them back.
    mutating func ignore(_ word: String) {
        ignored.insert(word.lowercased())
        forget(word)
    }

    /// Drops the marks of `word` (any case): it was added to the personal list.
    mutating func forget(_ word: String) {
        let lower = word.lowercased()
        words.removeAll { $0.word.lowercased() == lower }
    }

    /// The marks after `changes`: those before the first edit stay, those an edit touches
    /// (at an edge too) go, the rest move by what the edits before them added or removed.
    /// In place: a keystroke at the start of a long document moves every mark after it,
    /// and copying them (their words) would cost more than moving them.
    mutating func map(through changes: ChangeSet) {
        let edits = changes.edits
        guard let first = edits.first, let last = edits.last else { return }
        let span = first.start ..< last.start + last.length
        edited = edited.map { old in
            let moved = changes.mapPos(old.lowerBound, assoc: .before) ..< changes.mapPos(old.upperBound, assoc: .after)
            return min(moved.lowerBound, span.lowerBound) ..< max(moved.upperBound, span.upperBound)
        } ?? span
        guard !words.isEmpty else { return }
        // Marks wholly before the first edit (not touching it) are where they were.
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid].range.upperBound < first.range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var e = 0
        var shift = 0
        var kept = lo
        for i in lo ..< words.count {
            let r = words[i].range
            // Edits ending before this mark (not touching it) move it.
            while e < edits.count, edits[e].range.upperBound < r.lowerBound {
                shift += edits[e].length - edits[e].range.count
                e += 1
            }
            if e < edits.count, edits[e].range.lowerBound <= r.upperBound { continue }  // touched
            if kept != i { words.swapAt(kept, i) }
            words[kept].range = r.lowerBound + shift ..< r.upperBound + shift
            kept += 1
        }
        if kept < words.count { words.removeSubrange(kept...) }
    }

    /// The marks that overlap `range`, in order.
    public func marks(overlapping range: Range<Int>) -> ArraySlice<Mark> {
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid].range.upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < words.count, words[end].range.lowerBound < range.upperBound { end += 1 }
        return words[lo ..< end]
    }

    /// The first mark starting after `position`, else the first of all (the search wraps);
    /// nil when nothing is marked.
    public func next(after position: Int) -> Mark? {
        words.first { $0.range.lowerBound > position } ?? words.first
    }
}
