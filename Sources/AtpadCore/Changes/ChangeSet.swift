/// Where a position lands when text is inserted exactly at it.
public enum Assoc: Sendable {
    /// Stay before text inserted at the position.
    case before
    /// Move after text inserted at the position.
    case after
}

/// A change to a document's text as one value, shaped like Helix's and CodeMirror's
/// `ChangeSet`: operations that walk the old text from start to end, keeping (`retain`),
/// deleting or inserting, so one keystroke and a replacement at every match of a long
/// document are the same kind of value, applied once and undone once.
///
/// Lengths and positions count Unicode scalars. Everything that holds a position in the
/// document — the selection, a search's anchor, find matches, the replace walk — follows
/// a change through `mapPos(_:assoc:)`, never through arithmetic of its own.
///
/// The operations are kept in one normal form, so equal changes compare equal: none is
/// empty, no two neighbours are of one kind, and where text is deleted and inserted at one
/// place the deletion comes first.
public struct ChangeSet: Hashable, Sendable {
    /// One step of the walk over the old text.
    public enum Operation: Hashable, Sendable {
        /// Keep this many scalars.
        case retain(Int)
        /// Delete this many scalars.
        case delete(Int)
        /// Insert a text of `length` scalars.
        case insert(String, length: Int)
    }

    /// One place a change touches: the old text's `range` gives way to `text` (`length`
    /// scalars), which starts at `start` in the new text.
    public struct Edit: Hashable, Sendable {
        public var range: Range<Int>
        public var start: Int
        public var text: String
        public var length: Int
    }

    public private(set) var operations: [Operation] = []
    /// The length of the text the change applies to.
    public private(set) var lengthBefore = 0
    /// The length of the text it makes.
    public private(set) var lengthAfter = 0

    /// An empty change of an empty text; grow it with `retain`, `delete` and `insert`.
    public init() {}

    /// The change that keeps all of a text `length` scalars long.
    public init(length: Int) {
        retain(length)
    }

    /// The change of a text `length` scalars long that replaces each of `replacements`
    /// (sorted, not overlapping) with its text.
    public init(length: Int, replacing replacements: some Sequence<(range: Range<Int>, text: String)>) {
        var position = 0
        for (range, text) in replacements {
            precondition(range.lowerBound >= position && range.upperBound <= length, "replacements out of order")
            retain(range.lowerBound - position)
            delete(range.count)
            insert(text)
            position = range.upperBound
        }
        retain(length - position)
    }

    /// Whether the change leaves the text as it is.
    public var isIdentity: Bool {
        !operations.contains { if case .retain = $0 { false } else { true } }
    }

    // MARK: - Building

    public mutating func retain(_ count: Int) {
        guard count > 0 else { return }
        lengthBefore += count
        lengthAfter += count
        if case let .retain(n)? = operations.last {
            operations[operations.count - 1] = .retain(n + count)
        } else {
            operations.append(.retain(count))
        }
    }

    public mutating func delete(_ count: Int) {
        guard count > 0 else { return }
        lengthBefore += count
        let last = operations.count - 1
        switch operations.last {
        case let .delete(n)?:
            operations[last] = .delete(n + count)
        case .insert?:
            // The deletion goes before the insertion it meets (the normal form).
            if last > 0, case let .delete(n) = operations[last - 1] {
                operations[last - 1] = .delete(n + count)
            } else {
                operations.insert(.delete(count), at: last)
            }
        default:
            operations.append(.delete(count))
        }
    }

    /// Inserts `text`, whose length in scalars the caller knows.
    public mutating func insert(_ text: String, length: Int) {
        guard length > 0 else { return }
        lengthAfter += length
        if case let .insert(previous, n)? = operations.last {
            operations[operations.count - 1] = .insert(previous + text, length: n + length)
        } else {
            operations.append(.insert(text, length: length))
        }
    }

    public mutating func insert(_ text: String) {
        insert(text, length: ChangeSet.length(of: text))
    }

    /// The length of `text` in scalars, counted over its UTF-8 bytes (a pasted text may be
    /// megabytes long; decoding every scalar to count them takes several times as long).
    static func length(of text: String) -> Int {
        var text = text
        return text.withUTF8 { UTF8Scan.scalarCount($0) }
    }

    // MARK: - Reading

    /// The places the change touches, in order.
    public var edits: [Edit] {
        var result: [Edit] = []
        var old = 0
        var new = 0
        var i = 0
        while i < operations.count {
            if case let .retain(n) = operations[i] {
                old += n
                new += n
                i += 1
                continue
            }
            let (deleted, text, length, next) = edit(at: i)
            result.append(Edit(range: old ..< old + deleted, start: new, text: text, length: length))
            old += deleted
            new += length
            i = next
        }
        return result
    }

    /// The edit starting at operation `i` (a deletion, an insertion, or both): what it
    /// deletes, what it inserts, and the index of the operation after it.
    private func edit(at i: Int) -> (deleted: Int, text: String, length: Int, next: Int) {
        var j = i
        var deleted = 0
        if case let .delete(n) = operations[j] {
            deleted = n
            j += 1
        }
        if j < operations.count, case let .insert(text, length) = operations[j] {
            return (deleted, text, length, j + 1)
        }
        return (deleted, "", 0, j)
    }

    // MARK: - Mapping positions

    /// Where `position` of the old text is in the new one. Text inserted exactly at it
    /// goes after it (`.before`) or before it (`.after`). A position inside a replaced
    /// span, or at its start, goes to the start of the new text (`.before`) or its end
    /// (`.after`); the end of a replaced span goes to the end of the new text.
    public func mapPos(_ position: Int, assoc: Assoc) -> Int {
        var old = 0
        var new = 0
        var i = 0
        while i < operations.count {
            if case let .retain(n) = operations[i] {
                if position < old + n { return new + position - old }
                old += n
                new += n
                i += 1
                continue
            }
            let (deleted, _, length, next) = edit(at: i)
            if deleted == 0 {
                if position == old { return assoc == .after ? new + length : new }
            } else if position <= old + deleted {
                return position < old + deleted && assoc == .before ? new : new + length
            }
            old += deleted
            new += length
            i = next
        }
        return new + position - old
    }

    /// Where a span of old text the change leaves whole (a mention, a match) is in the new
    /// text: text inserted at its start or end stays outside it.
    public func mapRange(_ range: Range<Int>) -> Range<Int> {
        let lower = mapPos(range.lowerBound, assoc: .after)
        return lower ..< max(lower, mapPos(range.upperBound, assoc: .before))
    }

    /// Whether the scalar at `position` of the old text is deleted (or replaced).
    public func deletes(scalarAt position: Int) -> Bool {
        var old = 0
        for operation in operations {
            switch operation {
            case let .retain(n):
                if position < old + n { return false }
                old += n
            case let .delete(n):
                if position < old + n { return true }
                old += n
            case .insert:
                break
            }
        }
        return false
    }

    /// Where each of `ranges` (sorted, not overlapping) is on the other side of the
    /// change — in the new text, or with `backward` in the old text for ranges of the new
    /// one — or nil for a range the change does not keep whole (it deletes or inserts
    /// inside it, or, backward, it was inserted). Text inserted at a range's edges stays
    /// outside it. One pass over the ranges and the operations.
    func keptRanges(_ ranges: [Range<Int>], backward: Bool = false) -> [Range<Int>?] {
        if ranges.isEmpty { return [] }
        var result: [Range<Int>?] = []
        result.reserveCapacity(ranges.count)
        // `here` counts the side the ranges are on, `there` the other.
        var here = 0
        var there = 0
        var i = 0
        for range in ranges {
            walk: while i < operations.count {
                if case let .retain(n) = operations[i] {
                    if range.lowerBound < here + n { break walk }
                    here += n
                    there += n
                    i += 1
                    continue
                }
                let (deleted, _, length, next) = edit(at: i)
                let (gone, made) = backward ? (length, deleted) : (deleted, length)
                // An edit that ends where the range starts (or before) goes before it.
                guard here + gone <= range.lowerBound else { break walk }
                here += gone
                there += made
                i = next
            }
            if i < operations.count, case let .retain(n) = operations[i], range.upperBound <= here + n {
                result.append(there + range.lowerBound - here ..< there + range.upperBound - here)
            } else {
                result.append(nil)
            }
        }
        return result
    }

    // MARK: - Compose and invert

    /// This change followed by `next` (which applies to the text this one makes), as one.
    public func compose(_ next: ChangeSet) -> ChangeSet {
        precondition(lengthAfter == next.lengthBefore, "changes that do not follow each other")
        var result = ChangeSet()
        var first = operations[...]
        var second = next.operations[...]
        var a = first.popFirst()
        var b = second.popFirst()
        while a != nil || b != nil {
            switch (a, b) {
            case let (.delete(n)?, _):
                // Deleted by the first: the second never saw it.
                result.delete(n)
                a = first.popFirst()
            case let (_, .insert(text, length)?):
                // Inserted by the second: the first never saw it.
                result.insert(text, length: length)
                b = second.popFirst()
            case let (.retain(n)?, .retain(m)?):
                let k = min(n, m)
                result.retain(k)
                a = n > k ? .retain(n - k) : first.popFirst()
                b = m > k ? .retain(m - k) : second.popFirst()
            case let (.retain(n)?, .delete(m)?):
                let k = min(n, m)
                result.delete(k)
                a = n > k ? .retain(n - k) : first.popFirst()
                b = m > k ? .delete(m - k) : second.popFirst()
            case let (.insert(text, length)?, .retain(m)?):
                if length <= m {
                    result.insert(text, length: length)
                    a = first.popFirst()
                    b = m > length ? .retain(m - length) : second.popFirst()
                } else {
                    let scalars = text.unicodeScalars
                    let cut = scalars.index(scalars.startIndex, offsetBy: m)
                    result.insert(String(scalars[..<cut]), length: m)
                    a = .insert(String(scalars[cut...]), length: length - m)
                    b = second.popFirst()
                }
            case let (.insert(text, length)?, .delete(m)?):
                // Inserted by the first and deleted by the second: nothing remains.
                if length <= m {
                    a = first.popFirst()
                    b = m > length ? .delete(m - length) : second.popFirst()
                } else {
                    let scalars = text.unicodeScalars
                    a = .insert(String(scalars[scalars.index(scalars.startIndex, offsetBy: m)...]), length: length - m)
                    b = second.popFirst()
                }
            default:
                preconditionFailure("changes that do not follow each other")
            }
        }
        return result
    }

    /// The change that takes the new text back to the old one, given the text each edit
    /// removed (in order, "" where an edit only inserts).
    public func inverted(removed: [String]) -> ChangeSet {
        var result = ChangeSet()
        var k = 0
        var i = 0
        while i < operations.count {
            if case let .retain(n) = operations[i] {
                result.retain(n)
                i += 1
                continue
            }
            let (deleted, _, length, next) = edit(at: i)
            result.delete(length)
            result.insert(removed[k], length: deleted)
            k += 1
            i = next
        }
        precondition(k == removed.count, "one removed text for each edit")
        return result
    }
}
