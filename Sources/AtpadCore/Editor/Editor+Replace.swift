/// Replace (docs/editor.md, "Find and replace"): replacements as plain text, all those of
/// one prompt one undo step, never inside a mention or a kept construct, nor in git's diff
/// under a commit message's scissors line.
extension Editor {
    /// `ranges` (sorted, disjoint: matches) split into those that touch no token and the
    /// number that overlap a mention or a kept construct, which replace never edits. One
    /// walk over the matches and the tokens together.
    /// Matches from a commit message's scissors line on are git's diff, which replace
    /// leaves alone too: `inDiff` counts them.
    public func outsideTokens(_ ranges: [Range<Int>]) -> (free: [Range<Int>], skipped: Int, inDiff: Int) {
        var ranges = ranges
        var inDiff = 0
        if let s = gitScissors {
            let above = ranges.filter { $0.upperBound <= s }
            inDiff = ranges.count - above.count
            ranges = above
        }
        let tokens = storage.allMentions
        guard !tokens.isEmpty else { return (ranges, 0, inDiff) }
        var free: [Range<Int>] = []
        free.reserveCapacity(ranges.count)
        var t = 0
        for range in ranges {
            while t < tokens.count, tokens[t].range.upperBound <= range.lowerBound { t += 1 }
            // The first token ending after the match's start overlaps it when it starts
            // before the match ends (an empty match inside a token counts too).
            if t < tokens.count, tokens[t].range.lowerBound < max(range.upperBound, range.lowerBound + 1) {
                continue
            }
            free.append(range)
        }
        return (free, ranges.count - free.count, inDiff)
    }

    /// Replaces each of `ranges` (matches, in the order the prompt walked them) that
    /// touches no mention or kept construct with `text` as plain text, as one change
    /// through the apply path, and puts the cursor after the last of them. Calls with the same `group` token make one undo step, whatever
    /// selections the app sets between them. Returns the change, so the app can map the
    /// positions it holds through it.
    public mutating func replace(_ ranges: [Range<Int>], with text: String,
                                 group: Int) -> (changes: ChangeSet, effects: [Effect]) {
        endSearch()
        selectedMention = nil
        goalColumn = nil
        let count = storage.count
        let clamped = ranges.map { range in
            let lower = min(max(range.lowerBound, 0), count)
            return lower ..< min(max(range.upperBound, lower), count)
        }
        var sorted: [Range<Int>] = []
        sorted.reserveCapacity(clamped.count)
        for range in clamped.sorted(by: { $0.lowerBound < $1.lowerBound })
        where range.lowerBound >= (sorted.last?.upperBound ?? 0) {
            sorted.append(range)
        }
        let replacements = outsideTokens(sorted).free.map { (range: $0, text: text) }
        let changes = ChangeSet(length: count, replacing: replacements)
        let cursor = clamped.last.map { changes.mapPos($0.upperBound, assoc: .after) } ?? selection.head
        apply(Transaction(changes: changes), selectionAfter: .cursor(cursor), undo: .grouped(group))
        return (changes, takeEffects())
    }
}
