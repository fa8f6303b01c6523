import AtpadCore

/// Borrowed views of the index's flat arrays for one search; the matchers below work on
/// these without allocating.
struct Buffers {
    /// Folded names and handles in bytes (see ``FoldedUnits``).
    let names: UnsafeBufferPointer<UInt8>
    let nameStarts: UnsafeBufferPointer<UInt32>
    let words: UnsafeBufferPointer<Int32>
    let wordStarts: UnsafeBufferPointer<Int32>
    let handles: UnsafeBufferPointer<UInt8>
    let handleStarts: UnsafeBufferPointer<UInt32>

    func name(_ position: Int) -> TextRef {
        FoldedUnits.text(names, nameStarts, position)
    }

    func handle(_ position: Int) -> TextRef {
        FoldedUnits.text(handles, handleStarts, position)
    }

    /// The entry's name words as (start, end) pairs, flattened.
    func nameWords(_ position: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(rebasing: words[Int(wordStarts[position]) * 2 ..< Int(wordStarts[position + 1]) * 2])
    }

    /// Whether the name or the handle holds `letters` in order: what a scan asks of every
    /// entry its letter mask lets through.
    func holds(_ letters: [UInt32], _ position: Int) -> Bool {
        func check(_ text: TextRef) -> Bool {
            switch text.width {
            case 1: Matching.isSubsequence(letters, of: text.text1)
            case 2: Matching.isSubsequence(letters, of: text.text2)
            default: Matching.isSubsequence(letters, of: text.text3)
            }
        }
        if check(name(position)) { return true }
        let handle = handle(position)
        return !handle.isEmpty && check(handle)
    }

    /// The best class entry `position` matches `query` in
    /// (docs/directories.md, "Ranking and frecency"), or nil.
    func classify(_ position: Int, _ query: FoldedQuery) -> MatchClass? {
        let name = name(position)
        let handle = handle(position)
        let words = nameWords(position)
        switch name.width {
        case 1: return Self.classify(name.text1, handleOf: handle, words, query)
        case 2: return Self.classify(name.text2, handleOf: handle, words, query)
        default: return Self.classify(name.text3, handleOf: handle, words, query)
        }
    }

    private static func classify<Name: FoldedText>(
        _ name: Name, handleOf handle: TextRef, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> MatchClass? {
        switch handle.width {
        case 1: classify(name, handle.text1, words, query)
        case 2: classify(name, handle.text2, words, query)
        default: classify(name, handle.text3, words, query)
        }
    }

    private static func classify<Name: FoldedText, Handle: FoldedText>(
        _ name: Name, _ handle: Handle, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> MatchClass? {
        // Every class needs the query's letters in order in the name or the handle.
        let nameMaybe = Matching.isSubsequence(query.letters, of: name)
        let handleMaybe = !handle.isEmpty && Matching.isSubsequence(query.letters, of: handle)
        if !nameMaybe && !handleMaybe { return nil }

        if handleMaybe && Matching.starts(handle, 0, handle.count, with: query.scalars[...]) { return .prefix }
        if nameMaybe && Matching.wordPrefixes(query, name: name, words: words, emit: { _, _ in }) {
            return .prefix
        }
        if nameMaybe && Matching.initials(query, name: name, words: words, emit: { _, _ in }) {
            return .initials
        }
        if nameMaybe && Matching.substring(query.scalars, of: name, emit: { _, _ in }) { return .substring }
        if handleMaybe && Matching.substring(query.scalars, of: handle, emit: { _, _ in }) { return .substring }
        if nameMaybe && Matching.subsequence(query.compact, of: name, emit: { _, _ in }) { return .fuzzy }
        if handleMaybe && Matching.subsequence(query.compact, of: handle, emit: { _, _ in }) { return .fuzzy }
        return nil
    }

    /// Whether a query word equals a whole name word, or the query equals the handle
    /// (folded): within class 1 such an entry ranks first (`jose` → José before Joseph).
    func isExact(_ position: Int, _ query: FoldedQuery) -> Bool {
        let name = name(position)
        let handle = handle(position)
        let words = nameWords(position)
        switch name.width {
        case 1: return Self.isExact(name.text1, handleOf: handle, words, query)
        case 2: return Self.isExact(name.text2, handleOf: handle, words, query)
        default: return Self.isExact(name.text3, handleOf: handle, words, query)
        }
    }

    private static func isExact<Name: FoldedText>(
        _ name: Name, handleOf handle: TextRef, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> Bool {
        switch handle.width {
        case 1: isExact(name, handle.text1, words, query)
        case 2: isExact(name, handle.text2, words, query)
        default: isExact(name, handle.text3, words, query)
        }
    }

    private static func isExact<Name: FoldedText, Handle: FoldedText>(
        _ name: Name, _ handle: Handle, _ words: UnsafeBufferPointer<Int32>, _ query: FoldedQuery
    ) -> Bool {
        if handle.count == query.scalars.count, Matching.starts(handle, 0, handle.count, with: query.scalars[...]) {
            return true
        }
        for w in 0 ..< words.count / 2 {
            let start = Int(words[w * 2])
            let end = Int(words[w * 2 + 1])
            for queryWord in query.words where queryWord.count == end - start {
                if Matching.starts(name, start, end, with: query.scalars[queryWord]) {
                    return true
                }
            }
        }
        return false
    }

    /// Reports the folded spans of the name that match in `matchClass`; nothing when only
    /// the handle matched in that class.
    func recordName(
        _ position: Int,
        _ query: FoldedQuery,
        _ matchClass: MatchClass,
        _ emit: (Int, Int) -> Void
    ) {
        // For the few results shown: the text is read through ``TextRef`` as it is.
        let name = name(position)
        let words = nameWords(position)
        // Check first, then record: a matcher that fails part way would have reported spans.
        let noEmit: (Int, Int) -> Void = { _, _ in }
        switch matchClass {
        case .prefix:
            if Matching.wordPrefixes(query, name: name, words: words, emit: noEmit) {
                _ = Matching.wordPrefixes(query, name: name, words: words, emit: emit)
            }
        case .initials:
            _ = Matching.initials(query, name: name, words: words, emit: emit)
        case .substring:
            _ = Matching.substring(query.scalars, of: name, emit: emit)
        case .fuzzy:
            if Matching.isSubsequence(query.compact, of: name) {
                _ = Matching.subsequence(query.compact, of: name, emit: emit)
            }
        }
    }
}
