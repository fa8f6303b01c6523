/// Replace (SPEC §9): replacements as plain text, all those of one prompt one undo step.
extension Editor {
    /// Replaces each of `ranges` (matches, in the order the prompt walked them) with `text`
    /// as plain text, as one change through the apply path (a mention a range covers partly
    /// turns plain, one it covers whole goes with its text), and puts the cursor after the
    /// last of them. Calls with the same `group` token make one undo step, whatever
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
        var replacements: [(range: Range<Int>, text: String)] = []
        replacements.reserveCapacity(clamped.count)
        for range in clamped.sorted(by: { $0.lowerBound < $1.lowerBound })
        where range.lowerBound >= (replacements.last?.range.upperBound ?? 0) {
            replacements.append((range, text))
        }
        let changes = ChangeSet(length: count, replacing: replacements)
        let cursor = clamped.last.map { changes.mapPos($0.upperBound, assoc: .after) } ?? selection.head
        apply(Transaction(changes: changes), selectionAfter: .cursor(cursor), undo: .grouped(group))
        return (changes, takeEffects())
    }
}
