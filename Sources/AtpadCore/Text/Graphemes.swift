/// Grapheme-cluster boundaries in the text storage, found through a small window of text
/// around a position, so that motion never walks the whole document.
///
/// A cluster longer than `window` scalars (which no real text has) may be split; that is
/// the price of constant-time motion and is documented in ARCHITECTURE.md.
extension TextStorage {
    static let window = 32

    /// Boundaries (absolute scalar offsets) of the clusters in a window around `position`.
    private func boundaries(around position: Int) -> [Int] {
        let lo = max(0, position - TextStorage.window)
        let hi = min(count, position + TextStorage.window)
        let text = slice(lo..<hi)
        var result = [lo]
        var offset = lo
        for ch in text {
            offset += ch.unicodeScalars.count
            result.append(offset)
        }
        return result
    }

    /// Whether there is certainly a cluster boundary between the scalars at `p - 1` and
    /// `p`: both ASCII and not CR LF. (No ASCII scalar extends or prepends a cluster.)
    /// This answers most text without building a window.
    private func isASCIIBoundary(_ p: Int) -> Bool {
        isASCIIPair(at: p)
    }

    /// Whether `position` is a grapheme-cluster boundary.
    public func isBoundary(_ position: Int) -> Bool {
        if position <= 0 || position >= count { return true }
        if isASCIIBoundary(position) { return true }
        if let a = scalar(at: position - 1), let b = scalar(at: position),
           TextStorage.isCertainBoundary(between: a.value, and: b.value) { return true }
        return boundaries(around: position).contains(position)
    }

    /// Whether there is certainly a cluster boundary between scalars `a` and `b`, known
    /// from the two alone: `b` below U+0300 and `a` below U+0600, not CR LF. No scalar
    /// below U+0300 extends, joins or is a spacing mark, and none below U+0600 prepends,
    /// so no rule but CR LF keeps such a pair together (Latin text with accents, `ß.`).
    static func isCertainBoundary(between a: UInt32, and b: UInt32) -> Bool {
        b < 0x300 && a < 0x600 && !(a == 0x0D && b == 0x0A)
    }

    /// The nearest boundary after `position` (the end of the text at most).
    public func nextBoundary(after position: Int) -> Int {
        if position >= count { return count }
        if position + 1 == count || isASCIIBoundary(position + 1) {
            if position == 0 || isASCIIBoundary(position) || isBoundary(position) { return position + 1 }
        }
        return boundaries(around: position).first { $0 > position } ?? min(count, position + 1)
    }

    /// The nearest boundary before `position` (0 at least).
    public func previousBoundary(before position: Int) -> Int {
        if position <= 0 { return 0 }
        if position == 1 || isASCIIBoundary(position - 1) {
            if position == count || isASCIIBoundary(position) || isBoundary(position) { return position - 1 }
        }
        return boundaries(around: position).last { $0 < position } ?? max(0, position - 1)
    }

    /// The grapheme cluster that starts at `position`, if any.
    public func character(at position: Int) -> Character? {
        guard position < count else { return nil }
        let end = nextBoundary(after: position)
        if end == position + 1, let s = scalar(at: position) { return Character(s) }
        return slice(position..<end).first
    }

    /// The grapheme cluster that ends at `position`, if any.
    public func character(before position: Int) -> Character? {
        guard position > 0 else { return nil }
        let start = previousBoundary(before: position)
        if start == position - 1, let s = scalar(at: start) { return Character(s) }
        return slice(start..<position).first
    }
}
