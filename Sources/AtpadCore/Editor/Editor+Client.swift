/// The editor as another editor's language server uses it (docs/editors.md): the text
/// changed from outside, and where the editor would have a search open.
extension Editor {
    /// Replaces `range` (scalars, clamped to the text) with `text` as plain text through
    /// the apply path, without an undo step: the client keeps the history.
    public mutating func edit(replacing range: Range<Int>, with text: String) {
        let lower = min(max(range.lowerBound, 0), storage.count)
        let upper = min(max(range.upperBound, lower), storage.count)
        endSearch()
        apply(replacing(lower..<upper, with: text), undo: nil)
        _ = takeEffects()
    }

    /// The explicit search the editor would have open with the cursor at `position`, had
    /// the trigger before it been typed: the nearest trigger in the word before `position`
    /// (no blank between them, at most 64 scalars back) where ``canStartExplicit(at:)``
    /// lets it start — so never in code, URLs or git's comment lines. Its `query` is the
    /// text between the trigger and `position`; `personTrailer` as the editor sets it.
    public func explicitSearch(before position: Int) -> Search? {
        let position = min(max(position, 0), storage.count)
        var p = position
        while p > 0, position - p < 64, let s = storage.scalar(at: p - 1), !CharacterClass.isWhitespace(s) {
            p -= 1
            guard let t = trigger(for: s), canStartExplicit(at: p) else { continue }
            var search = Search(kind: .explicit, trigger: t, start: p, query: storage.slice((p + 1)..<position),
                                queryID: 0, sent: false)
            search.quiet = config.quietTriggers.contains(t)
            if let trailers = config.personTrailers, t == "@" {
                search.personTrailer = trailers.isTrailerKey(Substring(storage.slice(storage.lineStart(p)..<p)))
            }
            return search
        }
        return nil
    }

    /// Whether a mention may start at `position` by the editor's rules (``mayMention(at:probe:)``):
    /// prose, not code, not git's own lines.
    public func allowsMention(at position: Int) -> Bool {
        canStartExplicit(at: min(max(position, 0), storage.count))
    }
}
