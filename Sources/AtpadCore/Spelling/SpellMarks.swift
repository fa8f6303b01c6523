/// The misspelt words the editor marks (docs/spelling.md, "In the editor"): their ranges in
/// the text as it is now, sorted, and the words ignored in this document.
///
/// The words are found off the loop's thread (the app checks the whole document in the
/// background) for one `version` of the text, and taken only by the text they were found
/// in (``Editor/takeMisspellings(_:version:)``). Between two checks the apply path maps
/// the marks through every change; a mark an edit touches — inside it or at either edge,
/// where typing goes on with the word — is dropped until the next check says again.
public struct SpellMarks: Sendable, Equatable {
    /// The marked words, sorted, not overlapping, each with its text.
    public private(set) var words: [(range: Range<Int>, word: String)] = []
    /// Words Ignore took out of this document's marks, lower-cased ("Ignore WORD in this
    /// document"): never marked again while it is open.
    public private(set) var ignored: Set<String> = []
    /// The version of the text the last check that was taken was made for; nil before any.
    public private(set) var checkedVersion: Int?

    public init() {}

    public static func == (a: SpellMarks, b: SpellMarks) -> Bool {
        a.ignored == b.ignored && a.checkedVersion == b.checkedVersion && a.words.elementsEqual(b.words) {
            $0.range == $1.range && $0.word == $1.word
        }
    }

    /// Takes the words a check of `version` found, less the ignored ones.
    mutating func take(_ found: [(range: Range<Int>, word: String)], version: Int) {
        words = ignored.isEmpty ? found : found.filter { !ignored.contains($0.word.lowercased()) }
        checkedVersion = version
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
    mutating func map(through changes: ChangeSet) {
        guard !words.isEmpty else { return }
        let edits = changes.edits
        guard let first = edits.first else { return }
        // Marks wholly before the first edit (not touching it) are where they were.
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid].range.upperBound < first.range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        guard lo < words.count else { return }
        var kept = Array(words[..<lo])
        kept.reserveCapacity(words.count)
        var e = 0
        var shift = 0
        for mark in words[lo...] {
            let r = mark.range
            // Edits ending before this mark (not touching it) move it.
            while e < edits.count, edits[e].range.upperBound < r.lowerBound {
                shift += edits[e].length - edits[e].range.count
                e += 1
            }
            if e < edits.count, edits[e].range.lowerBound <= r.upperBound { continue }  // touched
            kept.append((r.lowerBound + shift ..< r.upperBound + shift, mark.word))
        }
        words = kept
    }

    /// The marks that overlap `range`, in order.
    public func marks(overlapping range: Range<Int>) -> ArraySlice<(range: Range<Int>, word: String)> {
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
    public func next(after position: Int) -> (range: Range<Int>, word: String)? {
        words.first { $0.range.lowerBound > position } ?? words.first
    }
}
