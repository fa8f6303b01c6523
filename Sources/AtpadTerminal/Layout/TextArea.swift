import AtpadCore

/// The document's part of a frame: which rows are visible (scrolled as little as possible
/// to keep the cursor on screen) and how their cells are drawn.
struct TextArea {
    /// The visible rows, top to bottom (fewer than the area's height at the document's end).
    var rows: [DocumentRow]
    /// The scroll state that shows these rows.
    var viewport: Viewport

    /// Lays out `height` rows of `width` columns for `editor`, starting from `viewport`.
    init(editor: Editor, viewport: Viewport, width: Int, height: Int) {
        let wrapper = RowWrapper(storage: editor.storage, width: width, tabWidth: editor.config.tabWidth)
        var top = min(max(viewport.top, 0), editor.storage.count)
        if !TextArea.isStillRowStart(viewport, editor: editor, wrapper: wrapper) {
            top = wrapper.rowStart(containing: top)
        }
        let n = max(1, height)
        rows = TextArea.scroll(from: top, toShow: editor.cursor, rows: n, wrapper: wrapper)
        var newTop = rows.first?.start ?? top
        var topRowEnd = rows.first?.end ?? newTop
        if let i = TextArea.rowEndingBeforeCursor(editor.cursor, in: rows, width: wrapper.width) {
            // The cursor is past the last column of its line's last row (a line exactly as
            // wide as the row, or blanks hanging past it): the next character typed there
            // wraps to the start of a new row, so the line shows that row, empty, and the
            // cursor on it. It scrolls into view like any other row.
            rows.insert(DocumentRow(start: editor.cursor, end: editor.cursor, cells: [], base: editor.cursor,
                                    endsLine: true), at: i + 1)
            if rows.count > n {
                if i + 1 < n {
                    rows.removeLast()
                } else {
                    rows.removeFirst()
                    // The empty row is no place to start a frame from: with one row only,
                    // the top stays at the start of the row it follows.
                    if n > 1 {
                        newTop = rows[0].start
                        topRowEnd = rows[0].end
                    }
                }
            }
        }
        self.viewport = Viewport(top: newTop, verified: Viewport.Stamp(
            version: editor.version, width: wrapper.width, tabWidth: wrapper.tabWidth, top: newTop,
            topRowEnd: topRowEnd, editFloor: TextArea.editFloor(editor),
            fingerprint: TextArea.fingerprint(editor.storage, top: newTop, topRowEnd: topRowEnd)))
    }

    /// Whether `viewport.top` is known to be a row start still: it was one for this
    /// geometry, the text up to the top row's end reads the same (which also tells another
    /// document apart), and either the document is unchanged or every edit since lay after
    /// the top row (the editor could only edit from after it, before and now).
    private static func isStillRowStart(_ viewport: Viewport, editor: Editor, wrapper: RowWrapper) -> Bool {
        guard let v = viewport.verified, v.width == wrapper.width, v.tabWidth == wrapper.tabWidth,
              v.top == viewport.top, v.topRowEnd <= editor.storage.count,
              fingerprint(editor.storage, top: v.top, topRowEnd: v.topRowEnd) == v.fingerprint else { return false }
        return v.version == editor.version || (v.editFloor >= v.topRowEnd && editFloor(editor) >= v.topRowEnd)
    }

    /// The lowest position the editor's next edit could start from.
    static func editFloor(_ editor: Editor) -> Int {
        min(editor.selection.range.lowerBound, editor.search?.start ?? .max,
            editor.selectedMention?.range.lowerBound ?? .max)
    }

    static func fingerprint(_ storage: TextStorage, top: Int, topRowEnd: Int) -> Int {
        storage.slice(max(0, top - 64) ..< topRowEnd).hashValue
    }

    /// The rows to show: from `top` when the cursor is among them, else from the nearest
    /// row start that brings the cursor's row just into view (at the top when the cursor is
    /// above, at the bottom when it is below).
    private static func scroll(from top: Int, toShow cursor: Int, rows n: Int, wrapper: RowWrapper) -> [DocumentRow] {
        if cursor < top {
            return wrapper.rows(from: wrapper.rowStart(containing: cursor), limit: n)
        }
        if !isFarBelow(cursor, top: top, rows: n, wrapper: wrapper) {
            var rows = wrapper.rows(from: top, limit: n)
            if rows.contains(where: { $0.holds(cursor) }) { return rows }
            // Just below: wrap on a little and drop rows from the top (minimal scrolling).
            let batch = max(1, n / 4)
            while rows.count < 2 * n, let last = rows.last, let next = nextRowStart(after: last, wrapper.storage),
                  cursor - next <= reach(rows: 2 * n - rows.count, wrapper: wrapper) {
                let more = wrapper.rows(from: next, limit: batch)
                if more.isEmpty { break }
                rows += more
                if let i = rows.lastIndex(where: { $0.holds(cursor) }) {
                    return Array(rows[max(0, i - n + 1)...i])
                }
            }
        }
        // Far below: the cursor's row goes at the bottom.
        let rows = wrapper.rows(endingWith: cursor, limit: n)
        if rows.count < n, let first = rows.first { return wrapper.rows(from: first.start, limit: n) }
        return rows
    }

    /// The most scalars `rows` rows plausibly hold: a full row of wide emoji sequences
    /// holds about 4 scalars a column. A cursor further away than this is treated as far
    /// (its row goes to the bottom) rather than found by wrapping everything between.
    private static func reach(rows: Int, wrapper: RowWrapper) -> Int {
        rows * wrapper.width * 8
    }

    /// Whether the cursor is certainly (or, past `reach`, as good as) below the rows from
    /// `top`: at least `rows` line breaks lie between (each line takes a row at least).
    private static func isFarBelow(_ cursor: Int, top: Int, rows: Int, wrapper: RowWrapper) -> Bool {
        if cursor - top > reach(rows: rows, wrapper: wrapper) { return true }
        guard cursor - top >= rows else { return false }
        return wrapper.storage.newlines(before: cursor) - wrapper.storage.newlines(before: top) >= rows
    }

    static func nextRowStart(after row: DocumentRow, _ storage: TextStorage) -> Int? {
        if !row.endsLine { return row.end }
        return row.end < storage.count ? row.end + storage.lineBreakLength(at: row.end) : nil
    }

    /// The text-area row index and column where `position` is drawn, if it is visible.
    func location(of position: Int) -> (row: Int, column: Int)? {
        guard let i = rows.firstIndex(where: { $0.holds(position) }) else { return nil }
        return (i, rows[i].column(of: position))
    }

    // MARK: - Drawing

    /// Draws the rows on screen rows `top...` and returns where the cursor is, if shown;
    /// `matches` are the find prompt's, `currentMatch` an index into them.
    func draw(_ editor: Editor, matches: [Range<Int>] = [], currentMatch: Int? = nil, into screen: inout Screen,
              top: Int) -> (row: Int, column: Int)? {
        guard let first = rows.first, let last = rows.last else { return nil }
        var roles = RoleRanges(editor, visible: first.start..<max(last.end, first.start + 1),
                               matches: matches, currentMatch: currentMatch)
        for (i, row) in rows.enumerated() {
            guard top + i < screen.height else { break }
            TextArea.draw(row, roles: &roles, into: &screen, at: top + i)
        }
        return TextArea.cursor(of: editor, in: rows, top: top, width: screen.width)
    }

    /// Where the cursor is drawn among `rows` shown from screen row `top`, if it is: where
    /// the next character typed goes. Past the last column of its row, that is the start of
    /// the next row (which `init` adds after a line's last row).
    static func cursor(of editor: Editor, in rows: [DocumentRow], top: Int, width: Int) -> (row: Int, column: Int)? {
        guard let i = rows.firstIndex(where: { $0.holds(editor.cursor) }) else { return nil }
        let column = rows[i].column(of: editor.cursor)
        if column >= width && i + 1 < rows.count { return (top + i + 1, 0) }
        return (top + i, min(column, width - 1))
    }

    /// The index of the row that holds `cursor` past its last column when it is the last
    /// row of its line (no row of that line follows for the cursor to go to), else nil.
    private static func rowEndingBeforeCursor(_ cursor: Int, in rows: [DocumentRow], width: Int) -> Int? {
        guard let i = rows.firstIndex(where: { $0.holds(cursor) }), rows[i].endsLine,
              rows[i].column(of: cursor) >= width else { return nil }
        return i
    }

    /// Draws one document row on screen row `r` (over blanks: cells past its end stay).
    /// Every row but a line of printable ASCII goes through the one loop below, whatever
    /// its roles and clusters.
    static func draw(_ row: DocumentRow, roles: inout RoleRanges, into screen: inout Screen, at r: Int) {
        let width = screen.width
        // The role is worked out once per run of positions that no role range starts or
        // ends inside, not once per cell: a row has a few runs and up to `width` cells.
        if row.isPlainASCII {
            // A whole line of printable ASCII (most lines, and every line a typed key
            // redraws) is drawn from its bytes, a cell a byte, without building its cells:
            // drawing it through the loop below made echo on a 1 MB comment slower by about
            // a tenth (BENCHMARKS.md, "Fast paths kept and removed").
            row.withPlainASCIIBytes { bytes in
                screen.cells.withUnsafeMutableBufferPointer { screenCells in
                    let count = min(bytes.count, width)
                    let cells = screenCells.baseAddress! + r * width
                    var column = 0
                    // A run of positions in one role at a time, its cells in a tight loop.
                    while column < count {
                        let (role, runEnd) = roles.run(at: row.start + column)
                        let stop = max(column + 1, min(runEnd - row.start, count))
                        while column < stop {
                            cells[column] = ScreenCell(ascii: bytes[column], role)
                            column += 1
                        }
                    }
                }
            }
            return
        }
        var role = Role.text
        var runEnd = Int.min
        for cell in row.cells where cell.column < width {
            let column = cell.column
            let position = row.base + cell.offset
            if position >= runEnd {  // cells run in increasing positions
                (role, runEnd) = roles.run(at: position)
            }
            let ascii = cell.ascii
            if cell.width == 1, ascii >= 0x20, ascii != 0x7F {
                // Printable ASCII is its own glyph: no cluster to read back from the line.
                screen[r, column] = ScreenCell(ascii: ascii, role)
                continue
            }
            let glyphs = VisibleText.glyphs(of: row.character(of: cell), width: cell.width)
            let isWide = glyphs.count == 2 && glyphs[1].isEmpty
            for (g, glyph) in glyphs.enumerated() where column + g < width {
                // A wide character cut by the right edge (an over-full row) shows as a blank.
                let cut = isWide && column + 1 >= width
                screen[r, column + g] = cut ? ScreenCell(ascii: 0x20, role) : screen.cell(glyph, role)
            }
        }
    }
}

/// Which role each visible document position is drawn in: the current find match over
/// the selection over a selected mention (or kept construct) over the other matches over
/// a mention over a kept construct (`verbatim`) over an explicit search's trigger and
/// query over Markdown's roles (`markup.*`, in Markdown formats), else text.
///
/// The current match goes over the selection because it is where the find prompt is (a
/// match inside a mention selects the whole mention, and the match must still show
/// within it); the other matches go under the selection and the selected mention, which
/// are what the next key acts on, but over mentions, so that a match in a name shows.
struct RoleRanges {
    let selection: Range<Int>?
    let selectedMention: Range<Int>?
    let search: Range<Int>?
    let currentMatch: Range<Int>?
    private var mentions: SortedRanges
    private var kept: SortedRanges
    private var matches: SortedRanges
    private var markup: MarkupRuns

    init(_ editor: Editor, visible: Range<Int>, matches: [Range<Int>] = [], currentMatch: Int? = nil) {
        selection = editor.selection.isEmpty ? nil : editor.selection.range
        selectedMention = editor.selectedMention?.range
        if let c = editor.search?.correction {
            // The misspelt word a correction's pick will replace.
            search = c.range
        } else if let s = editor.search, let m = s.retarget {
            // The mention being re-targeted is what a pick will replace.
            search = m.range
        } else if let s = editor.search, s.kind == .explicit, !s.quiet || s.isOpen {
            // A quiet search (`:`) is marked only once its chooser shows.
            search = s.start ..< s.start + 1 + s.query.unicodeScalars.count
        } else {
            search = nil
        }
        let tokens = editor.storage.mentions(overlapping: visible)
        mentions = SortedRanges(tokens.filter { !$0.isKept }.map(\.range))
        kept = SortedRanges(tokens.filter(\.isKept).map(\.range))
        self.matches = SortedRanges(matches.filter { $0.overlaps(visible) }.sorted { $0.lowerBound < $1.lowerBound })
        self.currentMatch = currentMatch.flatMap { matches.indices.contains($0) ? matches[$0] : nil }
        markup = MarkupRuns(editor, visible: visible)
    }

    /// The role at `position` and the first position after it where the role may change
    /// (where one of the role ranges starts or ends), so that the positions up to there are
    /// drawn without asking again.
    mutating func run(at position: Int) -> (role: Role, end: Int) {
        func edge(_ r: Range<Int>?) -> Int {
            guard let r else { return .max }
            return r.lowerBound > position ? r.lowerBound : (r.upperBound > position ? r.upperBound : .max)
        }
        let end = min(edge(currentMatch), edge(selection), edge(selectedMention), edge(search),
                      matches.edge(after: position), mentions.edge(after: position), kept.edge(after: position),
                      markup.edge(after: position))
        return (role(at: position), end)
    }

    mutating func role(at position: Int) -> Role {
        if let currentMatch, currentMatch.contains(position) { return .matchCurrent }
        if let selection, selection.contains(position) { return .selection }
        if let selectedMention, selectedMention.contains(position) { return .mentionSelected }
        if matches.contains(position) { return .match }
        if mentions.contains(position) { return .mention }
        if kept.contains(position) { return .verbatim }
        if let search, search.contains(position) { return .search }
        return markup.role(at: position) ?? .text
    }
}

/// The roles of what the text is, over the visible text: Markdown's (`markup.*`, in
/// Markdown formats) and, in git's files, git's (``GitSyntax``), which win where both
/// speak — git's lines are never Markdown — and over both the misspelt words
/// (`misspelled`, docs/spelling.md). Sorted, disjoint runs, each of one role.
struct MarkupRuns {
    private var ranges: SortedRanges
    private let runs: [(range: Range<Int>, role: Role)]

    init(_ editor: Editor, visible: Range<Int>) {
        let markdown = editor.config.markdown ? editor.markdownRuns(in: visible) : []
        let git = editor.config.git != nil ? editor.gitRuns(in: visible) : []
        self.init(markdown: markdown, git: git, misspelled: editor.misspellings(in: visible))
    }

    init(markdown: [(range: Range<Int>, kind: MarkdownSyntax.Kind)] = [],
         git: [(range: Range<Int>, kind: GitSyntax.Kind)] = [], misspelled: [Range<Int>] = []) {
        let below = markdown.compactMap { run in MarkupRuns.role(of: run.kind).map { (range: run.range, role: $0) } }
        let above = git.map { (range: $0.range, role: MarkupRuns.role(of: $0.kind)) }
        runs = MarkupRuns.overlay(misspelled.map { (range: $0, role: Role.misspelled) },
                                  on: MarkupRuns.overlay(above, on: below))
        ranges = SortedRanges(runs.map(\.range))
    }

    /// `top`'s runs with what is left of `bottom`'s around them (both sorted, disjoint).
    static func overlay(_ top: [(range: Range<Int>, role: Role)],
                        on bottom: [(range: Range<Int>, role: Role)]) -> [(range: Range<Int>, role: Role)] {
        guard !top.isEmpty else { return bottom }
        guard !bottom.isEmpty else { return top }
        var out: [(range: Range<Int>, role: Role)] = []
        var t = 0
        for run in bottom {
            var rest = run.range
            while !rest.isEmpty {
                while t < top.count, top[t].range.upperBound <= rest.lowerBound {
                    out.append(top[t])
                    t += 1
                }
                guard t < top.count, top[t].range.lowerBound < rest.upperBound else {
                    out.append((rest, run.role))
                    break
                }
                if top[t].range.lowerBound > rest.lowerBound { out.append((rest.lowerBound ..< top[t].range.lowerBound, run.role)) }
                rest = min(top[t].range.upperBound, rest.upperBound) ..< rest.upperBound
            }
        }
        out += top[t...]
        return out
    }

    static func role(of kind: GitSyntax.Kind) -> Role {
        switch kind {
        case .comment: .comment
        case .diffAdded: .diffAdded
        case .diffRemoved: .diffRemoved
        case .diffHeader: .diffHeader
        case .overflow: .commitOverflow
        case .overflowStrong: .commitOverflowStrong
        case .warning: .commitWarning
        case .rebaseCommand: .rebaseCommand
        case .rebaseHash: .rebaseHash
        case .rebaseSubject: .rebaseSubject
        }
    }

    static func role(of kind: MarkdownSyntax.Kind) -> Role? {
        switch kind {
        case .code: .markupCode
        case .link: .markupLink
        case .heading: .markupHeading
        case .emphasis: .markupEmphasis
        case .strong: .markupStrong
        case .quote: .markupQuote
        case .html, .strikethrough: nil
        }
    }

    mutating func role(at position: Int) -> Role? {
        guard !runs.isEmpty, ranges.contains(position) else { return nil }
        // `contains` found the run: the first that ends after `position`.
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].range.upperBound <= position { lo = mid + 1 } else { hi = mid }
        }
        return runs[lo].role
    }

    mutating func edge(after position: Int) -> Int { ranges.edge(after: position) }
}

/// Ranges that do not overlap, sorted, asked whether they hold positions mostly in
/// increasing order (as the layout asks, cell by cell): a cursor moves forward instead of
/// searching for every cell.
struct SortedRanges {
    private let ranges: [Range<Int>]
    /// The first range that may still hold a position asked about.
    private var next = 0

    init(_ ranges: [Range<Int>]) {
        self.ranges = ranges
    }

    mutating func contains(_ position: Int) -> Bool {
        guard !ranges.isEmpty else { return false }
        if next > 0 && ranges[next - 1].upperBound > position {
            // Asked out of order: start over with a binary search.
            next = index(atOrAfter: position)
        }
        while next < ranges.count && ranges[next].upperBound <= position { next += 1 }
        return next < ranges.count && ranges[next].lowerBound <= position
    }

    /// The first range start or end after `position`, or `Int.max` when none follows.
    mutating func edge(after position: Int) -> Int {
        guard !ranges.isEmpty else { return .max }
        _ = contains(position)  // moves `next` to the first range ending after `position`
        guard next < ranges.count else { return .max }
        return ranges[next].lowerBound > position ? ranges[next].lowerBound : ranges[next].upperBound
    }

    /// The first range ending after `position` (binary search in the sorted ranges).
    private func index(atOrAfter position: Int) -> Int {
        var lo = 0
        var hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound <= position { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
