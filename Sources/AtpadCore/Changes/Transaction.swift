/// One command's change to the document: the text's `ChangeSet`, the mentions turned into
/// plain text before it, and the mentions added after it. The editor applies one per
/// command through its single apply path, and keeps the inverse of each as an undo step.
///
/// Inserted text is plain: a pasted or picked mention is one of `addedMentions`, over the
/// text the change inserts. Keeping mentions beside the text, with ranges on either side
/// of the change, is what lets transactions compose and invert as simply as change sets.
public struct Transaction: Hashable, Sendable {
    public var changes: ChangeSet
    /// Mentions turned into plain text before the text changes (ranges in the old text).
    public var removedMentions: [Mention]
    /// Mentions added after the text changes (ranges in the new text, sorted).
    public var addedMentions: [Mention]

    public init(changes: ChangeSet, removing removed: [Mention] = [], adding added: [Mention] = []) {
        self.changes = changes
        removedMentions = removed
        addedMentions = added
    }

    /// Replaces `range` of a text `length` scalars long with `text` and the mentions it
    /// carries (ranged from the start of `text`).
    public static func replacing(_ range: Range<Int>, with text: String, mentions: [Mention] = [],
                                 length: Int) -> Transaction {
        var changes = ChangeSet()
        changes.retain(range.lowerBound)
        changes.delete(range.count)
        changes.insert(text)
        changes.retain(length - range.upperBound)
        return Transaction(changes: changes, adding: mentions.map { $0.shifted(by: range.lowerBound) })
    }

    /// Whether applying it would change nothing.
    public var isEmpty: Bool {
        changes.isIdentity && removedMentions.isEmpty && addedMentions.isEmpty
    }

    /// This transaction followed by `next` (which applies to the document this one
    /// makes), as one: applying it gives what applying both does.
    public func compose(_ next: Transaction) -> Transaction {
        var removed = removedMentions
        var added = addedMentions
        if !next.removedMentions.isEmpty {
            // A mention `next` turns plain was either added by this transaction (then it
            // is simply not added) or was there before it, on text this one kept.
            let ours = Set(added)
            var undone = Set<Mention>()
            var earlier: [Mention] = []
            for m in next.removedMentions {
                if ours.contains(m) { undone.insert(m) } else { earlier.append(m) }
            }
            if !undone.isEmpty { added.removeAll { undone.contains($0) } }
            earlier.sort(by: Transaction.inOrder)
            for (m, range) in zip(earlier, changes.keptRanges(earlier.map(\.range), backward: true)) {
                guard let range else { continue }
                var old = m
                old.range = range
                removed.append(old)
            }
            removed.sort(by: Transaction.inOrder)
        }
        // The mentions this transaction added move through `next`; one whose text `next`
        // deletes is gone with it (one it cuts is among `next`'s removed, handled above).
        var moved: [Mention] = []
        moved.reserveCapacity(added.count + next.addedMentions.count)
        for (m, range) in zip(added, next.changes.keptRanges(added.map(\.range))) {
            guard let range else { continue }
            var new = m
            new.range = range
            moved.append(new)
        }
        moved.append(contentsOf: next.addedMentions)
        moved.sort(by: Transaction.inOrder)
        return Transaction(changes: changes.compose(next.changes), removing: removed, adding: moved)
    }

    static func inOrder(_ a: Mention, _ b: Mention) -> Bool {
        a.range.lowerBound < b.range.lowerBound
    }
}
