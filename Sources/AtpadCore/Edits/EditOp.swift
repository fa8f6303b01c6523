/// One primitive change to a document. A transaction is a list of these, applied in order
/// by the editor's single apply path, which also records their inverse for undo.
public enum EditOp: Hashable, Sendable {
    /// Replace `range` with `text`; `mentions` are ranged relative to the start of `text`.
    case replace(Range<Int>, with: String, mentions: [Mention])
    /// Add a mention over text that already reads its trigger and name.
    case addMention(Mention)
    /// Turn a mention back into plain text (its text stays).
    case removeMention(Mention)
}

/// Where a position lands when an edit happens exactly at it.
public enum Assoc: Sendable {
    /// Stay before text inserted at the position.
    case before
    /// Move after text inserted at the position.
    case after
}

/// Maps positions through one replacement (Helix's `map_pos`).
public enum PositionMap {
    /// `position` after `range` was replaced by `length` scalars. A position inside the
    /// replaced range moves to its start (`.before`) or the end of the new text (`.after`).
    public static func map(_ position: Int, through range: Range<Int>, length: Int, assoc: Assoc) -> Int {
        if position < range.lowerBound { return position }
        if position > range.upperBound { return position + length - range.count }
        if range.isEmpty {
            return assoc == .after ? position + length : position
        }
        if position == range.upperBound && position != range.lowerBound { return position + length - range.count }
        return assoc == .after ? range.lowerBound + length : range.lowerBound
    }
}
