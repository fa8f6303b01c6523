/// What the edits between two versions of a document left alone: its first `prefix`
/// scalars and its last `suffix` scalars read the same, with the same mentions, before
/// and after. Whatever lies outside the span between them is unchanged, shifted by `delta`
/// when it comes after.
///
/// The terminal's layout asks for it to keep the rows of the last frame that no edit
/// touched, instead of laying the whole text area out again on every keystroke.
public struct DocumentChange: Hashable, Sendable {
    /// Leading scalars that are the same before and after.
    public var prefix: Int
    /// Trailing scalars that are the same before and after.
    public var suffix: Int
    /// The document's length before, in scalars.
    public var oldCount: Int
    /// The document's length after, in scalars.
    public var newCount: Int

    /// How far the unchanged tail moved.
    public var delta: Int { newCount - oldCount }
    /// Whether nothing changed at all.
    public var isEmpty: Bool { prefix + suffix >= oldCount && oldCount == newCount }
    /// Where the changed span starts in the old document: positions before it kept their place.
    public var oldTailStart: Int { oldCount - suffix }
    /// Where the unchanged tail starts in the new document.
    public var newTailStart: Int { newCount - suffix }

    /// No change to a document of `count` scalars.
    public static func none(count: Int) -> DocumentChange {
        DocumentChange(prefix: count, suffix: 0, oldCount: count, newCount: count)
    }

    /// This change followed by `next`: what both left alone.
    func then(_ next: DocumentChange) -> DocumentChange {
        DocumentChange(prefix: min(prefix, next.prefix), suffix: min(suffix, next.suffix),
                       oldCount: oldCount, newCount: next.newCount)
    }
}

/// The changes of the last few versions, so a reader that saw an earlier version (the
/// last frame) can learn what changed since. Older versions are forgotten: the reader then
/// starts over.
struct ChangeJournal: Sendable {
    /// How many versions back a change can be asked for.
    static let depth = 16
    private var entries: [(version: Int, change: DocumentChange)] = []

    /// Records the change that made `version`.
    mutating func record(_ change: DocumentChange, version: Int) {
        if entries.count == ChangeJournal.depth { entries.removeFirst() }
        entries.append((version, change))
    }

    /// The change from `version` to `current`, or nil when that is further back than kept.
    func change(since version: Int, current: Int, count: Int) -> DocumentChange? {
        if version == current { return .none(count: count) }
        guard version < current, let first = entries.firstIndex(where: { $0.version == version + 1 }) else {
            return nil
        }
        var combined = entries[first].change
        for entry in entries[(first + 1)...] { combined = combined.then(entry.change) }
        return combined
    }
}

/// Gathers, inside one apply, the span its storage mutations touched.
struct ChangeTracker {
    private let oldCount: Int
    private var prefix = Int.max
    private var suffix = Int.max

    init(count: Int) {
        oldCount = count
    }

    /// A mutation of `range` in a document of `count` scalars (before the mutation).
    mutating func touch(_ range: Range<Int>, count: Int) {
        prefix = min(prefix, range.lowerBound)
        suffix = min(suffix, count - range.upperBound)
    }

    func change(newCount: Int) -> DocumentChange {
        let shorter = min(oldCount, newCount)
        let p = min(prefix, shorter)
        return DocumentChange(prefix: p, suffix: max(0, min(suffix, shorter - p)), oldCount: oldCount, newCount: newCount)
    }
}
