/// The flat tables one search reads, borrowed for the length of that search: from arrays
/// in memory (a directory just parsed) or straight from a mapped index file (a directory
/// loaded from the cache, ``MappedIndex``).
///
/// The ranking (`bestKeys`, `scanKeys`, `Buffers.classify`) is written against this view
/// only, so a directory ranks with one implementation whichever way it was loaded, and a
/// change to the ranking applies to both.
struct SearchTables {
    /// The number of entries.
    let count: Int
    /// Folded names, name words and folded handles.
    let buffers: Buffers
    /// Each name's length in Characters, the second tie-break.
    let nameLengths: UnsafeBufferPointer<Int32>
    /// Per entry, which letters its name and handle hold (see ``LetterMask``).
    let letterMasks: UnsafeBufferPointer<UInt64>
    /// Name words and handles by their first scalars.
    let wordStartIndex: WordStartIndex.View
    /// The entries that matched the last scanned query, to narrow the next scan from.
    let narrowing: NarrowingCache
}

extension WordStartIndex {
    /// One bucket table, borrowed: entry positions grouped by a hash of a word's first
    /// scalars; bucket `b` is `positions[starts[b] ..< starts[b + 1]]`.
    struct TableView {
        let starts: UnsafeBufferPointer<Int32>
        let positions: UnsafeBufferPointer<Int32>
        let bits: Int

        func bucket(_ hash: UInt32) -> Range<Int> {
            let b = Int(hash >> UInt32(32 - bits))
            return Int(starts[b]) ..< Int(starts[b + 1])
        }
    }

    /// Both bucket tables, borrowed.
    struct View {
        let first: TableView
        let pair: TableView
    }
}
