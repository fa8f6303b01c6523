/// Draws a `PromptLine` on the bottom row in place of the help bar: the label in the
/// `prompt` role, a space, the typed text in `text` (control characters as visible
/// escapes), and the prompt's keys at the right end when there is room. Text too long for
/// the row scrolls so that the cursor stays on screen, with `…` where it is cut.
enum PromptRow {
    /// The fewest columns the typed text keeps before the label or the keys give way.
    static let minimumText = 16

    /// Draws `prompt` on `row` and returns where the terminal's cursor goes.
    static func draw(_ prompt: PromptLine, into screen: inout Screen, row: Int) -> (row: Int, column: Int) {
        let width = screen.width
        screen.fill(row: row, role: .text)
        guard width > 0 else { return (row, 0) }
        let cursor = min(max(prompt.cursor, 0), prompt.text.count)
        let split = prompt.text.index(prompt.text.startIndex, offsetBy: cursor)
        let before = VisibleText.cells(String(prompt.text[..<split]), role: .text, clusters: &screen.clusters)
        let after = VisibleText.cells(String(prompt.text[split...]), role: .text, clusters: &screen.clusters)

        // A question whose end names its answers keeps its end when cut; the typed text
        // keeps room for a few characters.
        let labelRoom = prompt.text.isEmpty ? width - 1 : max(1, width - 1 - minimumText)
        var label = VisibleText.cells(prompt.label, role: .prompt, clusters: &screen.clusters)
        if label.count > labelRoom { label = VisibleText.fitLeading(label, width: max(1, labelRoom - 1)) }
        label += VisibleText.cells(" ", role: .prompt, clusters: &screen.clusters)

        // The keys go at the right end only while the text still fits beside them.
        var hint: [ScreenCell] = []
        if let kind = prompt.hint {
            let room = width - label.count - max(before.count + after.count + 1, minimumText) - 2
            if room > 0 { hint = HelpBar.cells(KeyHelp.entries(for: kind), width: room, clusters: &screen.clusters) }
        }
        let textRoom = max(1, width - label.count - (hint.isEmpty ? 0 : hint.count + 2))
        let atCursor = cursor < prompt.text.count
            ? VisibleText.cells(String(prompt.text[split]), role: .text, clusters: &screen.clusters).count : 0
        let (text, column) = window(before, after, atCursor: atCursor, width: textRoom)

        screen.put(label, row: row, column: 0)
        screen.put(text, row: row, column: label.count)
        if !hint.isEmpty { screen.put(hint, row: row, column: width - hint.count) }
        return (row, min(width - 1, label.count + column))
    }

    /// The part of the text shown in `width` columns and the cursor's column in it: `before`
    /// and `after` the cursor, `atCursor` the cells of the character at the cursor (0 at
    /// the end). Scrolled only as far as needed to show that character and one column
    /// after it, which holds the next character or the `…` that says more follows.
    static func window(_ before: [ScreenCell], _ after: [ScreenCell], atCursor: Int,
                       width: Int) -> ([ScreenCell], Int) {
        let all = before + after
        let c = before.count
        guard all.count + 1 > width else { return (all, c) }
        let offset = after.isEmpty ? max(0, c + 1 - width) : max(0, c + atCursor + 1 - width)
        var shown = Array(all[min(offset, all.count) ..< min(all.count, offset + width)])
        guard !shown.isEmpty else { return (shown, c - offset) }
        if offset > 0 {
            shown[0] = ScreenCell("…", .text)
            if shown.count > 1 && shown[1].isContinuation { shown[1] = ScreenCell(ascii: 0x20, .text) }
        }
        // The cursor's character ends before the last column, so the mark never covers it.
        if offset + width < all.count {
            let last = shown.count - 1
            if shown[last].isContinuation && last > 0 { shown[last - 1] = ScreenCell(ascii: 0x20, .text) }
            shown[last] = ScreenCell("…", .text)
        }
        return (shown, c - offset)
    }
}
