import AtpadCore
/// The chooser as a box of Unicode box-drawing characters
/// (docs/behaviour.md, "Chooser look"): anchored at the trigger's column, below the
/// cursor's row when it fits there, else above, else on the roomier side shrunk to fit;
/// never over the cursor's row; clamped to the right edge.
///
/// ```
/// ┌──────────────────────┐
/// │ John Doe  @jdoe      │   the selected row in chooser.selected
/// │ Johanna Lee          │   matched characters in chooser.match
/// └─────────────── 2/9 ↓┘   position and more-below sign when it scrolls
/// ```
enum ChooserPopup {
    /// The widest the box gets.
    static let maxWidth = 60

    /// Draws the box on the rows of `region` other than `cursorRow`, and returns where it
    /// is, or nil (drawing nothing) when no side has room for one row inside a border.
    static func draw(_ content: ChooserContent, maxRows: Int, anchorColumn: Int, cursorRow: Int,
                     region: Range<Int>, into screen: inout Screen) -> ChooserArea? {
        let status = content.status
        // Re-targeting a mention: its query is edited in a first row of its own
        // (docs/keys.md, "Prompts and the chooser").
        let query = content.search.editedQuery.map { " " + String(Character(content.search.trigger)) + $0 }
        let queryRows = query == nil ? 0 : 1
        let wantItems = min(content.count, max(1, maxRows))
        let wantHeight = wantItems + (status == nil ? 0 : 1) + queryRows + 2
        let below = region.upperBound - (cursorRow + 1)
        let above = cursorRow - region.lowerBound
        let isBelow = below >= wantHeight || (above < wantHeight && below >= above)
        let height = min(wantHeight, isBelow ? below : above)
        guard height >= 3 + queryRows else { return nil }

        // A status row (an error beside results) keeps its place; results get the rest.
        let itemRows = max(0, min(wantItems, height - 2 - queryRows - (status == nil ? 0 : 1)))
        let window = content.window(rows: itemRows)
        let label = scrollLabel(content, window: window) + (window.upperBound < content.count ? "↓" : "")
        let loadingMark = content.isLoadingMore ? "…" : ""

        var inner = 0
        for i in window {
            let detail = content.detail(i, clusters: &screen.clusters).count
            inner = max(inner, 1 + content.name(i, clusters: &screen.clusters).count + (detail > 0 ? 2 + detail : 0) + 1)
        }
        if let status {
            inner = max(inner, 1 + VisibleText.cells(status, role: .chooserStatus, clusters: &screen.clusters).count + 1)
        }
        inner = max(inner, 1 + loadingMark.count + label.count + 2)
        if let query {
            inner = max(inner, VisibleText.cells(query, role: .search, clusters: &screen.clusters).count + 2)
        }
        let boxWidth = min(min(maxWidth, screen.width), inner + 2)
        inner = boxWidth - 2
        guard inner >= 1 else { return nil }
        let left = max(0, min(anchorColumn, screen.width - boxWidth))
        let top = isBelow ? cursorRow + 1 : cursorRow - height

        var items: [ChooserArea.Item] = []
        let topBorder = border("┌", "┐", inner: inner, right: window.lowerBound > 0 ? "↑" : "",
                               clusters: &screen.clusters)
        screen.put(topBorder, row: top, column: left)
        var row = top + 1
        if let query {
            var cells = VisibleText.cells(query, role: .search, clusters: &screen.clusters)
            if content.search.queryIsSelected {
                // The pre-filled name is selected: the first key typed replaces it.
                let name = content.search.query
                cells = VisibleText.cells(String(query.dropLast(name.count)), role: .search, clusters: &screen.clusters)
                    + VisibleText.cells(name, role: .selection, clusters: &screen.clusters)
            }
            let text = VisibleText.fit(cells, width: inner)
            screen.put(framed(text, inner: inner, fill: .chooser), row: row, column: left)
            row += 1
        }
        for i in window {
            let cells = itemRow(content, i, inner: inner, clusters: &screen.clusters)
            screen.put(cells, row: row, column: left)
            items.append(.init(row: row, columns: left + 1 ..< left + 1 + inner, index: i))
            row += 1
        }
        if let status, row < top + height - 1 {
            let text = VisibleText.fit(VisibleText.cells(" " + status, role: .chooserStatus, clusters: &screen.clusters),
                                       width: inner)
            screen.put(framed(text, inner: inner, fill: .chooserStatus), row: row, column: left)
            row += 1
        }
        let bottomBorder = border("└", "┘", inner: inner, left: loadingMark, right: label,
                                  clusters: &screen.clusters)
        screen.put(bottomBorder, row: row, column: left)
        return ChooserArea(rows: top ..< top + height, columns: left ..< left + boxWidth, items: items)
    }

    /// " 3/20 " when not every result is in view (the selected one's place and the count).
    private static func scrollLabel(_ content: ChooserContent, window: Range<Int>) -> String {
        guard window.count < content.count else { return "" }
        return " \(content.selected + 1)/\(content.count) "
    }

    /// One result: the name, then the detail; the detail gives way first when it is narrow.
    private static func itemRow(_ content: ChooserContent, _ i: Int, inner: Int,
                                clusters: inout LongClusters) -> [ScreenCell] {
        let role: Role = i == content.selected ? .chooserSelected : .chooser
        let room = inner - 2
        var name = content.name(i, clusters: &clusters)
        var detail = content.detail(i, clusters: &clusters)
        if name.count + (detail.isEmpty ? 0 : 2 + detail.count) > room {
            if room - name.count - 2 >= 3 {
                detail = VisibleText.fit(detail, width: room - name.count - 2)
            } else {
                detail = []
                name = VisibleText.fit(name, width: room)
            }
        }
        let gap = detail.isEmpty ? [] : VisibleText.cells("  ", role: role, clusters: &clusters)
        return framed([ScreenCell(" ", role)] + name + gap + detail, inner: inner, fill: role)
    }

    /// `cells` padded to `inner` columns in `fill`, between two vertical border lines.
    private static func framed(_ cells: [ScreenCell], inner: Int, fill: Role) -> [ScreenCell] {
        let pad = Array(repeating: ScreenCell(" ", fill), count: max(0, inner - cells.count))
        return [ScreenCell("│", .chooser)] + cells + pad + [ScreenCell("│", .chooser)]
    }

    /// A horizontal border with optional labels at its left and right ends.
    private static func border(_ start: Unicode.Scalar, _ end: Unicode.Scalar, inner: Int, left: String = "",
                               right: String = "", clusters: inout LongClusters) -> [ScreenCell] {
        var line = Array(repeating: ScreenCell("─", .chooser), count: inner)
        let leftCells = VisibleText.cells(left, role: .chooserStatus, clusters: &clusters)
        let rightCells = VisibleText.cells(right, role: .chooserStatus, clusters: &clusters)
        for (k, cell) in leftCells.enumerated() where 1 + k < inner { line[1 + k] = cell }
        for (k, cell) in rightCells.reversed().enumerated() where inner - 1 - k >= 0 { line[inner - 1 - k] = cell }
        return [ScreenCell(start, .chooser)] + line + [ScreenCell(end, .chooser)]
    }
}
