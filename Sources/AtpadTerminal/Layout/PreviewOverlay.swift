import AtpadCore

/// F2: the comment as its format will write it, covering the text area — a heading row
/// ("Preview (slack) — read-only · any key returns") in the `prompt` role, then the text
/// soft-wrapped in `text` (tabs as spaces, control characters as visible escapes), cut with
/// `…` when it is longer than the rows. It does not scroll: it is a look, not a view.
enum PreviewOverlay {
    static func draw(format: String, text: String, into screen: inout Screen, rows: Range<Int>) {
        for r in rows { screen.fill(row: r, role: .text) }
        guard !rows.isEmpty, screen.width > 0 else { return }
        // The longest heading that fits: what it is, that it is read-only, how to leave it.
        let headings = ["Preview (\(format)) — read-only · any key returns", "Preview (\(format)) — read-only",
                        "Preview (\(format))"].map { VisibleText.cells($0, role: .prompt, clusters: &screen.clusters) }
        let heading = headings.first { $0.count <= screen.width } ?? VisibleText.fit(headings[2], width: screen.width)
        screen.fill(row: rows.lowerBound, role: .prompt)
        screen.put(heading, row: rows.lowerBound, column: 0)

        let body = rows.lowerBound + 1 ..< rows.upperBound
        guard !body.isEmpty else { return }
        var wrapped: [SoftWrap.Row] = []
        // Split at LF scalars; as in the text area, the CR of a CR LF belongs to the break
        // and is not drawn, while a lone CR stays and shows as `^M`.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)[...]
        // Wrap only as many lines as the rows show, and one row more to know it is cut.
        while wrapped.count <= body.count, var line = lines.popFirst() {
            if !lines.isEmpty, line.last == "\r" { line = line.dropLast() }
            wrapped += SoftWrap.rows(String(String.UnicodeScalarView(line)), width: screen.width)
        }
        let isCut = wrapped.count > body.count
        for (i, row) in wrapped.prefix(body.count).enumerated() {
            let r = body.lowerBound + i
            if isCut && i == body.count - 1 {
                screen.put([ScreenCell("…", .text)], row: r, column: 0)
                break
            }
            for cell in row.cells where cell.column < screen.width {
                let glyphs = VisibleText.glyphs(of: row.character(of: cell), width: cell.width)
                // A wide character cut by the right edge shows as a blank, as in the text area.
                if glyphs.count == 2 && glyphs[1].isEmpty && cell.column + 1 >= screen.width {
                    screen[r, cell.column] = ScreenCell(ascii: 0x20, .text)
                    continue
                }
                for (g, glyph) in glyphs.enumerated() where cell.column + g < screen.width {
                    screen[r, cell.column + g] = screen.cell(glyph, .text)
                }
            }
        }
    }
}
