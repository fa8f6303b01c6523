import Foundation

/// The cells of a frame that differ from the frame drawn before it: the only ones the
/// backend hands to the terminal. A keystroke usually changes a few cells of one row.
public struct ScreenDamage: Hashable, Sendable {
    /// A run of changed columns on one row.
    public struct Span: Hashable, Sendable {
        public var row: Int
        public var columns: Range<Int>
    }

    /// The changed runs, in row order, at most one per row.
    public var spans: [Span]
    /// Nothing is known about what is on the terminal (no earlier frame of this size):
    /// the whole screen is to be drawn.
    public var isFull: Bool

    /// The whole screen.
    public static let full = ScreenDamage(spans: [], isFull: true)
    /// Nothing.
    public static let none = ScreenDamage(spans: [], isFull: false)

    /// The cells of `screen` that differ from `previous` (full when there is no previous
    /// screen of the same size). Rows compare as raw memory first: most are unchanged.
    /// The two screens number their long clusters each in its own table; where the tables
    /// disagree, long cells compare by text.
    public static func between(_ previous: Screen?, _ screen: Screen) -> ScreenDamage {
        guard let previous, previous.width == screen.width, previous.height == screen.height else { return .full }
        var damage = ScreenDamage.none
        let width = screen.width
        let agree = previous.clusters.agrees(with: screen.clusters)
        screen.cells.withUnsafeBufferPointer { new in
            previous.cells.withUnsafeBufferPointer { old in
                for row in 0 ..< screen.height {
                    let base = row * width
                    let o = UnsafeBufferPointer(rebasing: old[base ..< base + width])
                    let n = UnsafeBufferPointer(rebasing: new[base ..< base + width])
                    let columns = agree ? changedColumns(o, n)
                        : changedColumns(o, in: previous.clusters, n, in: screen.clusters)
                    if let columns { damage.spans.append(Span(row: row, columns: columns)) }
                }
            }
        }
        return damage
    }

    /// The columns from the first to the last cell that differ, or nil when none does, for
    /// two runs whose long clusters are numbered alike (one screen's table, or two that agree).
    static func changedColumns(_ old: UnsafeBufferPointer<ScreenCell>, _ new: UnsafeBufferPointer<ScreenCell>) -> Range<Int>? {
        if ScreenCell.same(old, new) { return nil }
        var first = 0
        while first < new.count && old[first].isIdentical(to: new[first]) { first += 1 }
        var last = new.count - 1
        while last > first && old[last].isIdentical(to: new[last]) { last -= 1 }
        return first ..< last + 1
    }

    /// The same for runs numbered in tables that disagree: the same number may name
    /// different clusters and the same cluster have different numbers, so equal memory
    /// proves nothing for a long cell and unequal memory nothing for two long cells.
    static func changedColumns(_ old: UnsafeBufferPointer<ScreenCell>, in oldClusters: LongClusters,
                               _ new: UnsafeBufferPointer<ScreenCell>, in newClusters: LongClusters) -> Range<Int>? {
        // Most rows hold no long cluster: raw memory still decides those.
        if ScreenCell.same(old, new) && !new.contains(where: \.isLong) { return nil }
        func same(_ i: Int) -> Bool { ScreenCell.same(old[i], in: oldClusters, new[i], in: newClusters) }
        var first = 0
        while first < new.count && same(first) { first += 1 }
        guard first < new.count else { return nil }
        var last = new.count - 1
        while last > first && same(last) { last -= 1 }
        return first ..< last + 1
    }

    /// Adds a changed run of `row` (rows are added in order; a second run of the same row
    /// widens the first).
    mutating func add(row: Int, columns: Range<Int>) {
        if let i = spans.firstIndex(where: { $0.row == row }) {
            let c = spans[i].columns
            spans[i].columns = min(c.lowerBound, columns.lowerBound) ..< max(c.upperBound, columns.upperBound)
        } else {
            spans.append(Span(row: row, columns: columns))
            if spans.count > 1 && spans[spans.count - 2].row > row { spans.sort { $0.row < $1.row } }
        }
    }
}

extension Screen {
    /// Redraws `row` with `draw` (which starts from a blank row in `role`) and returns the
    /// columns that came out different from before, if any.
    mutating func redraw(row: Int, blank role: Role, _ draw: (inout Screen) -> Void) -> Range<Int>? {
        guard row >= 0, row < height else { return nil }
        let base = row * width
        let before = Array(cells[base ..< base + width])
        let blank = ScreenCell(ascii: 0x20, role)
        cells.withUnsafeMutableBufferPointer { cells in
            for c in base ..< base + width { cells[c] = blank }
        }
        draw(&self)
        return before.withUnsafeBufferPointer { old in
            cells.withUnsafeBufferPointer { new in
                ScreenDamage.changedColumns(old, UnsafeBufferPointer(rebasing: new[base ..< base + width]))
            }
        }
    }
}
