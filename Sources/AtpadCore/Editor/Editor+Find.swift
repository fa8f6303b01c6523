/// Find (docs/editor.md, "Find and replace"): the matches of a query in the document and
/// where a find lands.
extension Editor {
    /// Every non-overlapping occurrence of `query`, in order, as scalar ranges of the text
    /// that start and end on grapheme boundaries.
    ///
    /// Matching folds case and accents as directory search does
    /// (docs/directories.md, "Ranking and frecency": `é`→`e`, `ß`→`ss`), so an accent
    /// written as a combining mark is part of the match; a query with an upper-case letter
    /// folds nothing (smart case: scalars compare exactly). An empty query, or one that
    /// folds to nothing, has no matches. One pass over the text's bytes (`MatchScanner`).
    public func matches(of query: String) -> [Range<Int>] {
        guard var scanner = MatchScanner(query: query) else { return [] }
        for run in storage.byteRuns { scanner.scan(run) }
        var results: [Range<Int>] = []
        for candidate in scanner.finish() {
            let range = candidate.range
            guard range.lowerBound >= (results.last?.upperBound ?? 0),
                  candidate.startIsBoundary || storage.isBoundary(range.lowerBound),
                  candidate.endIsBoundary || storage.isBoundary(range.upperBound) else { continue }
            results.append(range)
        }
        return results
    }

    /// Where a find lands on the match `range`: a match that lies even partly inside a
    /// mention selects the whole mention (anchor at its end, head at its start);
    /// otherwise the cursor goes to the match's start.
    public func matchSelection(_ range: Range<Int>) -> Selection {
        let overlapping = range.isEmpty ? [storage.mention(containing: range.lowerBound)].compactMap { $0 }
            : storage.mentions(overlapping: range)
        if let m = overlapping.first {
            return Selection(anchor: m.range.upperBound, head: m.range.lowerBound)
        }
        return .cursor(range.lowerBound)
    }
}
