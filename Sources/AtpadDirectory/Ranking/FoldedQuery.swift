import AtpadCore

/// A query folded like the names, split the ways each class needs it.
struct FoldedQuery {
    /// The folded query, spaces trimmed and collapsed.
    let scalars: [UInt32]
    /// Query words, split at spaces and hyphens like name words, as ranges of `scalars`.
    let words: [Range<Int>]
    /// The query without spaces, for the fuzzy class.
    let compact: [UInt32]
    /// The query without spaces or hyphens: every class needs these in order in the name
    /// or handle, so it is a quick reject for most entries.
    let letters: [UInt32]
    let hasSpace: Bool

    init(_ query: String) {
        var scalars: [UInt32] = []
        var ignored: [Int32] = []
        Folding.append(query, to: &scalars, origins: &ignored)
        self.scalars = scalars
        var words: [Range<Int>] = []
        var start: Int? = nil
        for (offset, value) in scalars.enumerated() {
            if Folding.isWordSeparator(value) {
                if let open = start { words.append(open ..< offset) }
                start = nil
            } else if start == nil {
                start = offset
            }
        }
        if let open = start { words.append(open ..< scalars.count) }
        self.words = words
        compact = scalars.filter { $0 != Folding.space }
        letters = scalars.filter { !Folding.isWordSeparator($0) }
        hasSpace = scalars.contains(Folding.space)
    }

    var isEmpty: Bool { scalars.isEmpty }
}
