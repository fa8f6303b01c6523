/// Replace (SPEC §9): replacements as plain text, all those of one prompt one undo step.
extension Editor {
    /// Replaces `range` with `text` as plain text through the apply path (a mention it
    /// covers partly turns plain, one it covers whole goes with its text) and puts the
    /// cursor after the new text. Consecutive calls with the same `group` token make one
    /// undo step, whatever selections the app sets between them.
    public mutating func replace(_ range: Range<Int>, with text: String, group: Int) -> [Effect] {
        endSearch()
        selectedMention = nil
        goalColumn = nil
        let lower = min(max(range.lowerBound, 0), storage.count)
        let clamped = lower ..< min(max(range.upperBound, lower), storage.count)
        apply([.replace(clamped, with: text, mentions: [])],
              selectionAfter: .cursor(lower + text.unicodeScalars.count), undo: .grouped(group))
        return takeEffects()
    }
}
