/// Where things are on a frame, for the mouse: which document position a cell shows and
/// which chooser result a cell belongs to.
public struct LayoutMap: Sendable {
    /// The screen row of the first text row.
    let textTop: Int
    /// How many screen rows the text area has.
    let textHeight: Int
    /// The visible document rows, top to bottom.
    let rows: [DocumentRow]
    /// The document's length (clicks below its last row land there).
    let documentEnd: Int
    /// The chooser on screen, if any.
    let chooser: ChooserArea?

    static let empty = LayoutMap(textTop: 0, textHeight: 0, rows: [], documentEnd: 0, chooser: nil)

    /// The document positions the text area shows, nil when it shows none (an overlay).
    public var visibleText: Range<Int>? {
        guard let first = rows.first, let last = rows.last else { return nil }
        return first.start ..< max(last.end, first.start)
    }

    /// The document position shown at a screen cell: the cluster under it, the row's end
    /// past the row's last cluster (on a wrapped row, its last cluster: the end itself is
    /// drawn on the next row), the document's end below its last row; nil outside the
    /// text area or under the chooser.
    public func position(atRow row: Int, column: Int) -> Int? {
        guard row >= textTop, row < textTop + textHeight else { return nil }
        if chooser?.contains(row: row, column: column) == true { return nil }
        let i = row - textTop
        guard i < rows.count else { return documentEnd }
        return rows[i].position(atColumn: max(0, column))
    }

    /// The index (into the search's results) of the chooser row at a screen cell, or nil.
    public func chooserItem(atRow row: Int, column: Int) -> Int? {
        chooser?.items.first { $0.row == row && $0.columns.contains(column) }?.index
    }

    /// Whether a screen cell is part of the chooser (its box, border or status row), so a
    /// click or wheel there belongs to it rather than to the text.
    public func isInChooser(row: Int, column: Int) -> Bool {
        chooser?.contains(row: row, column: column) ?? false
    }
}

/// The cells the chooser covers and where each result's row is.
struct ChooserArea: Hashable, Sendable {
    struct Item: Hashable, Sendable {
        var row: Int
        var columns: Range<Int>
        var index: Int
    }

    var rows: Range<Int>
    var columns: Range<Int>
    var items: [Item]

    func contains(row: Int, column: Int) -> Bool {
        rows.contains(row) && columns.contains(column)
    }
}
