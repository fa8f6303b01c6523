/// Selections set by commands rather than by motion keys: a find landing on a match,
/// select all (Alt-A), and ending a search before an app command
/// (docs/behaviour.md, "Help and preview").
extension Editor {
    /// Sets the selection as a motion would: ends any search, unselects a selected
    /// mention, breaks typing coalescing and keeps an empty selection out of mentions.
    /// Both ends are clamped to the text and moved onto grapheme boundaries.
    public mutating func select(_ selection: Selection) -> [Effect] {
        endSearch()
        dismissed = false
        selectedMention = nil
        goalColumn = nil
        breakUndoCoalescing()
        self.selection = Selection(anchor: boundary(atOrAfter: selection.anchor),
                                   head: boundary(atOrAfter: selection.head))
        snapCursor()
        return takeEffects()
    }

    /// Alt-A: selects the whole text (anchor at the start, head at the end).
    public mutating func selectAll() -> [Effect] {
        select(Selection(anchor: 0, head: storage.count))
    }

    /// Ends the search in progress without dismissing it, as any key that is not a
    /// chooser key does before the app runs it (Ctrl-F, Alt-A, F2, Ctrl-S), and returns
    /// the effects that cancel its query.
    public mutating func endSearchForCommand() -> [Effect] {
        endSearch()
        return takeEffects()
    }

    private func boundary(atOrAfter position: Int) -> Int {
        let p = min(max(position, 0), storage.count)
        return storage.isBoundary(p) ? p : storage.nextBoundary(after: p)
    }
}
