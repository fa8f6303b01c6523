import AtpadCore

/// Turns text into screen cells that are safe to send to a terminal: control characters
/// become their visible escape (one printable character per cell), wide characters take a
/// leading cell plus a continuation cell, and combining marks stay in their base's cell.
///
/// Everything drawn — the document, names and details from a directory, the file name,
/// messages — goes through here, so nothing raw ever reaches the terminal.
enum VisibleText {
    /// The texts of the `width` cells that `ch` occupies in the document (`width` as the
    /// soft wrap measured it: tabs expand to spaces, a control character to its escape).
    /// A zero-width cluster (a lone format character) takes no cell and is not drawn.
    static func glyphs(of ch: Character, width: Int) -> [String] {
        guard width > 0 else { return [] }
        if ch == "\t" { return Array(repeating: " ", count: width) }
        if let first = ch.unicodeScalars.first, let escape = DisplayWidth.escape(for: first) {
            return padded(escape.map(String.init), to: width)
        }
        if width == 1 { return [printable(ch)] }
        return padded([printable(ch)], to: width, with: "")
    }

    /// Cells for a one-line string from outside the document (a name, a detail, a file
    /// name, a message), all in `role`; clusters overlapping `emphasis` (Unicode-scalar
    /// offsets into `text`) get `emphasisRole` instead. Long clusters are numbered in
    /// `clusters`, the table of the screen the cells are for.
    static func cells(_ text: String, role: Role, emphasis: [Range<Int>] = [],
                      emphasisRole: Role? = nil, clusters: inout LongClusters) -> [ScreenCell] {
        var out: [ScreenCell] = []
        out.reserveCapacity(text.utf8.count)
        // Printable ASCII is one cell per byte: no grapheme breaking, no glyph splitting.
        if emphasis.isEmpty, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            for b in text.utf8 { out.append(ScreenCell(ascii: b, role)) }
            return out
        }
        var offset = 0
        for ch in text {
            let n = ch.unicodeScalars.count
            let range = offset ..< offset + n
            offset += n
            let r = emphasisRole.flatMap { er in emphasis.contains { $0.overlaps(range) } ? er : nil } ?? role
            if let a = ch.asciiValue, a >= 0x20, a < 0x7F {
                out.append(ScreenCell(ascii: a, r))
                continue
            }
            if ch.unicodeScalars.contains(where: { DisplayWidth.escape(for: $0) != nil }) {
                // Only lone controls and CR LF hold control scalars: show each one.
                for s in ch.unicodeScalars {
                    for e in DisplayWidth.escape(for: s) ?? String(s) {
                        out.append(ScreenCell(String(e), r, clusters: &clusters))
                    }
                }
                continue
            }
            for glyph in glyphs(of: ch, width: DisplayWidth.of(ch)) {
                out.append(ScreenCell(glyph, r, clusters: &clusters))
            }
        }
        return out
    }

    /// `cells` cut to at most `width` columns, ending in `…` when something was cut. A wide
    /// character is never split: its leading cell goes with its continuation.
    static func fit(_ cells: [ScreenCell], width: Int, ellipsisRole: Role? = nil) -> [ScreenCell] {
        guard cells.count > width else { return cells }
        guard width > 0 else { return [] }
        var kept = Array(cells.prefix(width - 1))
        if kept.count < cells.count, cells[kept.count].isContinuation, !kept.isEmpty { kept.removeLast() }
        let role = ellipsisRole ?? kept.last?.role ?? cells[0].role
        kept.append(ScreenCell("…", role))
        return kept
    }

    /// `cells` cut from the front to at most `width` columns, starting with `…` when
    /// something was cut (for a file name, whose end matters most).
    static func fitLeading(_ cells: [ScreenCell], width: Int) -> [ScreenCell] {
        guard cells.count > width else { return cells }
        guard width > 0 else { return [] }
        var kept = Array(cells.suffix(width - 1))
        while let first = kept.first, first.isContinuation { kept.removeFirst() }
        return [ScreenCell("…", cells[0].role)] + kept
    }

    /// The line and paragraph separators are printable to Unicode but move the cursor on
    /// some terminals: draw a symbol in their one column instead.
    private static func printable(_ ch: Character) -> String {
        switch ch {
        case "\u{2028}": return "↵"
        case "\u{2029}": return "¶"
        default: return String(ch)
        }
    }

    private static func padded(_ cells: [String], to width: Int, with filler: String = " ") -> [String] {
        if cells.count >= width { return Array(cells.prefix(width)) }
        return cells + Array(repeating: filler, count: width - cells.count)
    }
}
