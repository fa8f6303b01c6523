import AtpadCore
/// The chooser on a terminal too short for a box (docs/editor.md): one line on the bottom row,
/// `@jo: John Doe │ Johanna Lee │ …`, the selected name highlighted and kept in view.
enum ChooserPicker {
    static func draw(_ content: ChooserContent, into screen: inout Screen, row: Int) -> ChooserArea {
        let width = screen.width
        screen.fill(row: row, role: .chooser)
        let search = content.search
        // A correction's picker is headed by the misspelt word (docs/spelling.md).
        var line = VisibleText.cells(search.correction?.word ?? String(Character(search.trigger)) + search.query,
                                     role: .chooser, clusters: &screen.clusters)
        line = VisibleText.fit(line, width: max(1, width / 3))
            + VisibleText.cells(": ", role: .chooser, clusters: &screen.clusters)
        var items: [ChooserArea.Item] = []
        let separator = VisibleText.cells(" │ ", role: .chooser, clusters: &screen.clusters)
        let ellipsis = VisibleText.cells("…", role: .chooser, clusters: &screen.clusters)

        if content.count > 0 {
            let first = firstShown(content, from: line.count, separator: separator.count, width: width,
                                   clusters: &screen.clusters)
            if first > 0 { line += ellipsis + separator }
            for i in first..<content.count {
                let name = content.name(i, clusters: &screen.clusters)
                let lastOne = i == content.count - 1
                // Keep room for " │ …" unless this is the last result.
                let need = (i > first ? separator.count : 0) + name.count + (lastOne ? 0 : separator.count + 1)
                if line.count + need > width && i > first {
                    line += separator + ellipsis
                    break
                }
                if i > first { line += separator }
                let start = line.count
                line += VisibleText.fit(name, width: max(1, width - line.count))
                items.append(.init(row: row, columns: start ..< min(line.count, width), index: i))
                if line.count >= width { break }
            }
        }
        if let status = content.status {
            if content.count > 0 { line += separator }
            line += VisibleText.cells(status, role: .chooserStatus, clusters: &screen.clusters)
        } else if content.isLoadingMore {
            line += VisibleText.cells(" …", role: .chooserStatus, clusters: &screen.clusters)
        }
        line = VisibleText.fit(line, width: width)
        screen.put(line, row: row, column: 0)
        return ChooserArea(rows: row ..< row + 1, columns: 0 ..< width, items: items)
    }

    /// The first result shown: the core's scroll position, moved on until the selected
    /// one fits with everything the line adds around it (the leading `… │`, separators,
    /// and the trailing ` │ …` kept free when more results follow), so the selected entry
    /// is always drawn.
    private static func firstShown(_ content: ChooserContent, from start: Int, separator: Int, width: Int,
                                   clusters: inout LongClusters) -> Int {
        let selected = content.selected
        var first = min(max(0, content.search.scrollTop), selected)
        while first < selected {
            var column = start + (first > 0 ? 1 + separator : 0)
            for i in first...selected {
                column += (i > first ? separator : 0) + content.name(i, clusters: &clusters).count
            }
            if selected < content.count - 1 { column += separator + 1 }
            if column <= width { return first }
            first += 1
        }
        return selected
    }
}
