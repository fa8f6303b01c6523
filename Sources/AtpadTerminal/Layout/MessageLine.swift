/// The message rows above the bottom row: prompts' answers, errors and notices, in the
/// `status` role. A message wider than the screen is shown whole on up to three rows
/// (docs/keys.md), broken after spaces where it can be; past three rows it is cut with `…`.
enum MessageLine {
    /// The most rows a message takes.
    static let maxRows = 3

    /// The rows `message` takes at `width`, at most `limit` (at least one, blank for ""),
    /// with long clusters numbered in `clusters` (the table of the screen they are for).
    static func rows(_ message: String, width: Int, limit: Int, clusters: inout LongClusters) -> [[ScreenCell]] {
        let limit = max(1, min(limit, maxRows))
        var rest = VisibleText.cells(message, role: .status, clusters: &clusters)
        guard width > 0 else { return [[]] }
        var rows: [[ScreenCell]] = []
        while rest.count > width && rows.count < limit - 1 {
            let cut = breakIndex(rest, width: width)
            rows.append(Array(rest[..<cut]))
            // The spaces at the break are not carried to the next row's start.
            var next = cut
            while next < rest.count && rest[next].asciiByte == 0x20 { next += 1 }
            rest = Array(rest[next...])
        }
        rows.append(VisibleText.fit(rest, width: width))
        return rows
    }

    /// Where the row of `cells` ends: after the last space that leaves the row within
    /// `width`, else at `width` (one column less when that would split a wide character).
    private static func breakIndex(_ cells: [ScreenCell], width: Int) -> Int {
        // A space at index `width` itself ends a full row exactly.
        if let space = cells[1 ... width].lastIndex(where: { $0.asciiByte == 0x20 }) { return space }
        return cells[width].isContinuation && width > 1 ? width - 1 : width
    }

    /// Draws `rows` (from `rows(_:width:limit:)`) from screen row `top` down.
    static func draw(_ rows: [[ScreenCell]], into screen: inout Screen, top: Int) {
        for (i, cells) in rows.enumerated() {
            screen.fill(row: top + i, role: .status)
            screen.put(cells, row: top + i, column: 0)
        }
    }
}
