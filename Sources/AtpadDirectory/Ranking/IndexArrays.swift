import AtpadCore

/// The search tables of a directory held in Swift arrays, built from its entities: what a
/// directory parsed from its file is searched with, and what an index file is written
/// from (``IndexFileWriter``).
struct IndexArrays: Sendable {
    /// The entries in directory order.
    let entities: [Entity]
    /// Folded names, all entries back to back in bytes (see ``FoldedUnits``); entry `i` is
    /// `names[nameStarts[i] ..< nameStarts[i + 1]]`, the top two bits (its width) aside.
    /// (Where each folded scalar came from in the original name is worked out again for
    /// the few results shown, rather than kept for every entry, where it would be a
    /// quarter of the index's memory.)
    let names: [UInt8]
    let nameStarts: [UInt32]
    /// Name words as (start, end) pairs of offsets into the entry's folded name; entry `i`
    /// owns pairs `wordStarts[i] ..< wordStarts[i + 1]`.
    let words: [Int32]
    let wordStarts: [Int32]
    /// Folded handles (without a leading `@`), back to back like the names.
    let handles: [UInt8]
    let handleStarts: [UInt32]
    /// Each name's length in Characters, the second tie-break.
    let nameLengths: [Int32]
    /// Per entry, which letters its name and handle hold (see ``LetterMask``).
    let letterMasks: [UInt64]
    /// Name words and handles by their first scalars, for the prefix and initials classes.
    let wordStartIndex: WordStartIndex

    /// Folds `entities` and builds their tables, in the given (directory) order.
    init(_ entities: [Entity]) {
        var builder = DirectoryIndex.Builder()
        // Sizes first, so the flat arrays are allocated once.
        var nameBytes = 0
        var handleBytes = 0
        for position in entities.indices {
            nameBytes += entities[position].name.utf8.count
            handleBytes += entities[position].handle?.utf8.count ?? 0
        }
        builder.reserve(entries: entities.count, nameBytes: nameBytes, handleBytes: handleBytes)
        for position in entities.indices {
            builder.add(name: entities[position].name, handle: entities[position].handle)
        }
        self.init(entities, builtBy: builder)
    }

    /// The tables of `entities`, whose names and handles `builder` has folded, in order.
    init(_ entities: [Entity], builtBy builder: consuming DirectoryIndex.Builder) {
        precondition(builder.count == entities.count, "the index was built for other entities")
        self.entities = entities
        let names = builder.names, nameStarts = builder.nameStarts, words = builder.words
        let wordStarts = builder.wordStarts, handles = builder.handles, handleStarts = builder.handleStarts
        let nameLengths = builder.nameLengths
        (self.names, self.nameStarts, self.words, self.wordStarts) = (names, nameStarts, words, wordStarts)
        (self.handles, self.handleStarts, self.nameLengths) = (handles, handleStarts, nameLengths)
        // The ranking order is only needed to build the buckets; it is not kept.
        (_, letterMasks, wordStartIndex) = Self.withBuffers(
            names: names, nameStarts: nameStarts, words: words,
            wordStarts: wordStarts, handles: handles, handleStarts: handleStarts
        ) { buffers in
            DirectoryIndex.buildSearchTables(count: entities.count, buffers: buffers, nameLengths: nameLengths)
        }
    }

    /// Lends the folded text of these arrays to `body`.
    private static func withBuffers<Result>(
        names: [UInt8], nameStarts: [UInt32], words: [Int32], wordStarts: [Int32],
        handles: [UInt8], handleStarts: [UInt32], _ body: (Buffers) -> Result
    ) -> Result {
        names.withUnsafeBufferPointer { names in
        words.withUnsafeBufferPointer { words in
        handles.withUnsafeBufferPointer { handles in
        nameStarts.withUnsafeBufferPointer { nameStarts in
        wordStarts.withUnsafeBufferPointer { wordStarts in
        handleStarts.withUnsafeBufferPointer { handleStarts in
            body(Buffers(names: names, nameStarts: nameStarts, words: words, wordStarts: wordStarts,
                         handles: handles, handleStarts: handleStarts))
        }}}}}}
    }

    /// Lends the arrays to `body` as one ``SearchTables`` view.
    func withTables<Result>(narrowing: NarrowingCache, _ body: (SearchTables) -> Result) -> Result {
        Self.withBuffers(names: names, nameStarts: nameStarts, words: words, wordStarts: wordStarts,
                         handles: handles, handleStarts: handleStarts) { buffers in
        nameLengths.withUnsafeBufferPointer { nameLengths in
        letterMasks.withUnsafeBufferPointer { letterMasks in
        wordStartIndex.first.starts.withUnsafeBufferPointer { firstStarts in
        wordStartIndex.first.positions.withUnsafeBufferPointer { firstPositions in
        wordStartIndex.pair.starts.withUnsafeBufferPointer { pairStarts in
        wordStartIndex.pair.positions.withUnsafeBufferPointer { pairPositions in
            body(SearchTables(
                count: entities.count,
                buffers: buffers,
                nameLengths: nameLengths,
                letterMasks: letterMasks,
                wordStartIndex: WordStartIndex.View(
                    first: .init(starts: firstStarts, positions: firstPositions, bits: wordStartIndex.first.bits),
                    pair: .init(starts: pairStarts, positions: pairPositions, bits: wordStartIndex.pair.bits)),
                narrowing: narrowing))
        }}}}}}}
    }
}
