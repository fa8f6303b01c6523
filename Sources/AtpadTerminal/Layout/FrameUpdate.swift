import AtpadCore

/// Turns the last frame into the next one when only part of it can have changed: the
/// rows of the text area an edit did not reach are kept (shifted in the document when they
/// come after it), only the lines it touched are wrapped and drawn again, and of the other
/// rows only those whose inputs changed (title, message, help bar, selection) are redrawn.
///
/// A keystroke then touches a row or two of the screen instead of laying out, filling and
/// comparing all of it: that memory traffic, not the arithmetic, is what the echo of a key
/// costs. The result is the frame `FrameLayout.frame(for:view:width:height:)` would lay out
/// (a property test compares the two after every key of random scripts); where that cannot
/// be known cheaply — a chooser, an overlay, a prompt, find matches, a message on more than
/// one row, an edit above the first row, a cursor that left the rows, a new size —
/// `update` declines and the frame is laid out whole.
enum FrameUpdate {
    /// Updates `frame` in place for `editor` and `view`; false (with `frame` untouched)
    /// when it must be laid out whole.
    static func update(_ frame: inout Frame, editor: Editor, view: EditorView, width: Int, height: Int) -> Bool {
        guard let basis = frame.basis, basis.width == width, basis.height == height,
              basis.tabWidth == editor.config.tabWidth, view.overlay == nil, view.prompt == nil, view.matches.isEmpty, editor.search?.isOpen != true,
              frame.screen.width == width, frame.screen.height == height,
              // The rows kept are read through the screen's own long-cluster table, which
              // grows as rows are redrawn in place: once it holds more clusters than the
              // screen has cells, a whole layout starts a fresh one.
              frame.screen.clusters.count <= frame.screen.cells.count,
              let change = editor.change(since: basis.version),
              let rows = textRows(after: frame.map.rows, change: change, editor: editor, width: width,
                                  limit: FrameLayout.textArea(width: width, height: height).rows),
              let cursor = TextArea.cursor(of: editor, in: rows.rows, top: 1, width: width)
        else { return false }

        // A message on more rows than one would move the text area's bottom. (An unchanged
        // message still fits its one row; a new one is measured against a scratch table,
        // so `frame` stays untouched when this declines.)
        if basis.message != view.message {
            var scratch = LongClusters()
            guard MessageLine.rows(view.message, width: width, limit: height - 3, clusters: &scratch).count == 1
            else { return false }
        }

        var damage = ScreenDamage.none
        let next = FrameLayout.basis(editor, view, position: editor.lineAndColumn(of: editor.cursor), width: width,
                                     height: height)
        let titleChanged = basis.fileName != next.fileName || basis.isModified != next.isModified
            || basis.isReadOnly != next.isReadOnly || basis.mentionCount != next.mentionCount
        let moved = basis.line != next.line || basis.column != next.column
        if !titleChanged && moved,
           let columns = TitleBar.movePosition(from: (basis.line, basis.column), to: (next.line, next.column),
                                               in: &frame.screen, row: 0) {
            // Most keys only move the cursor's `Ln, Col`: its cells alone are rewritten.
            damage.add(row: 0, columns: columns)
        } else if titleChanged || moved {
            if let columns = frame.screen.redraw(row: 0, blank: .title, {
                TitleBar.draw(view, mentionCount: next.mentionCount, position: (next.line, next.column), into: &$0, row: 0)
            }) { damage.add(row: 0, columns: columns) }
        }
        redrawText(rows, below: frame.map.rows.count, change: change, old: basis.roles, editor: editor,
                   screen: &frame.screen, damage: &damage)
        if basis.message != next.message {
            let rows = MessageLine.rows(view.message, width: width, limit: 1, clusters: &frame.screen.clusters)
            if let columns = frame.screen.redraw(row: height - 2, blank: .status, {
                MessageLine.draw(rows, into: &$0, top: height - 2)
            }) { damage.add(row: height - 2, columns: columns) }
        }
        if basis.help != next.help {
            if let columns = frame.screen.redraw(row: height - 1, blank: .help, {
                HelpBar.draw(next.help, into: &$0, row: height - 1)
            }) { damage.add(row: height - 1, columns: columns) }
        }

        frame.screen.cursor = cursor
        frame.viewport = viewport(rows.rows, previous: frame.viewport, change: change, editor: editor, width: width)
        frame.map = LayoutMap(textTop: 1, textHeight: frame.map.textHeight, rows: rows.rows,
                              documentEnd: editor.storage.count, chooser: nil)
        frame.damage = damage
        frame.basis = next
        frame.isUpdate = true
        return true
    }

    /// The text area's rows after `change`, each with the index of the old row it is (nil
    /// for a row wrapped anew); nil when the first row may have moved or the cursor is not
    /// among them.
    private static func textRows(after old: [DocumentRow], change: DocumentChange, editor: Editor, width: Int,
                                 limit n: Int) -> (rows: [DocumentRow], from: [Int?])? {
        guard let first = old.first else { return nil }
        let storage = editor.storage
        if change.isEmpty { return shows(editor.cursor, old, rows: n, width: width) ? (old, (0 ..< old.count).map { $0 }) : nil }
        // The change starts at or after the first row, and that row starts a line or lies
        // on a line that ends before the change: the first row stays where it is.
        guard change.prefix >= first.start else { return nil }
        // Rows of lines whose line break (both scalars of a CR LF) ends before the change
        // are kept as they are: a change to the LF alone (an undo) turns the CR into text.
        // Rows end in order, so the scan stops at the change, and the storage (a tree: a
        // few cache misses a lookup in a long document) is asked only about a break that
        // ends right before it.
        var k = 0
        for (i, row) in old.enumerated() {
            guard row.end < change.prefix else { break }
            guard row.endsLine else { continue }
            if row.end + 1 < change.prefix || storage.scalar(at: row.end) != "\r" { k = i + 1 }
        }
        if k == 0 && first.start > 0 && storage.scalar(at: first.start - 1) != "\n" { return nil }
        var rows = Array(old[..<k])
        var from: [Int?] = []
        from.reserveCapacity(n)
        for i in 0 ..< k { from.append(i) }
        // The first old row that starts a line lying wholly after the change: from there
        // the old rows come back shifted.
        var reuse: Int?
        for j in max(k, 1) ..< old.count where old[j - 1].endsLine && old[j - 1].end >= change.oldTailStart {
            reuse = j
            break
        }
        let wrapper = RowWrapper(storage: storage, width: width, tabWidth: editor.config.tabWidth)
        let lineStart = k > 0 ? old[k - 1].end + storage.lineBreakLength(at: old[k - 1].end) : first.start
        if rows.count < n && lineStart <= storage.count {
            let stop = reuse.map { old[$0].start + change.delta } ?? .max
            let wrapped = wrapper.rows(from: lineStart, limit: n - rows.count, beforeLineAt: stop)
            rows += wrapped
            from += Array(repeating: nil, count: wrapped.count)
        }
        if let reuse, rows.count < n, let last = rows.last, last.endsLine,
           last.end + storage.lineBreakLength(at: last.end) == old[reuse].start + change.delta {
            for j in reuse ..< old.count {
                guard rows.count < n else { break }
                var row = old[j]
                row.start += change.delta
                row.end += change.delta
                row.base += change.delta
                rows.append(row)
                from.append(j)
            }
        }
        // Fewer rows than fit, and more text below: wrap on from the last row.
        if rows.count < n, let last = rows.last, let next = TextArea.nextRowStart(after: last, storage) {
            let more = wrapper.rows(from: next, limit: n - rows.count)
            rows += more
            from += Array(repeating: nil, count: more.count)
        }
        return shows(editor.cursor, rows, rows: n, width: width) ? (rows, from) : nil
    }

    /// Whether a whole layout would show these rows for `cursor`: it is on one of them, and
    /// not so far below the top that the layout would put it at the bottom without wrapping
    /// what lies between (`TextArea`'s reach: a row holds at most 8 scalars a column).
    private static func shows(_ cursor: Int, _ rows: [DocumentRow], rows n: Int, width: Int) -> Bool {
        guard let top = rows.first else { return false }
        return cursor - top.start <= n * width * 8 && rows.contains { $0.holds(cursor) }
    }

    /// Draws again the text rows that changed: those wrapped anew, those that moved to
    /// another screen row, those a role range (selection, selected mention, search) entered
    /// or left, and the rows emptied at the bottom (the last frame had `oldCount` rows).
    private static func redrawText(_ rows: (rows: [DocumentRow], from: [Int?]), below oldCount: Int,
                                   change: DocumentChange, old: RoleSpans, editor: Editor,
                                   screen: inout Screen, damage: inout ScreenDamage) {
        let new = RoleSpans(editor)
        var moved: [Range<Int>] = []
        func compare(_ a: Range<Int>?, _ b: Range<Int>?) {
            let mapped = a.map { map($0.lowerBound, change) ..< max(map($0.lowerBound, change), map($0.upperBound, change)) }
            guard mapped != b else { return }
            if let mapped { moved.append(mapped) }
            if let b { moved.append(b) }
        }
        compare(old.selection, new.selection)
        compare(old.selectedMention, new.selectedMention)
        compare(old.search, new.search)

        let textHeight = screen.height - 3
        var roles: RoleRanges?
        // Rows below both the last frame's rows and these were blank and stay blank.
        for i in 0 ..< min(textHeight, max(rows.rows.count, oldCount)) {
            let r = 1 + i
            guard i < rows.rows.count else {
                // Below the last row now: blank, as a whole layout leaves it.
                if let columns = screen.redraw(row: r, blank: .text, { _ in }) { damage.add(row: r, columns: columns) }
                continue
            }
            let row = rows.rows[i]
            let span = row.start ..< max(row.end, row.start + 1)
            if rows.from[i] == i && !moved.contains(where: { $0.overlaps(span) }) { continue }
            if roles == nil {
                let visible = rows.rows[i].start ..< max(rows.rows.last!.end, rows.rows[i].start + 1)
                roles = RoleRanges(editor, visible: visible)
            }
            if let columns = screen.redraw(row: r, blank: .text, { TextArea.draw(row, roles: &roles!, into: &$0, at: r) }) {
                damage.add(row: r, columns: columns)
            }
        }
    }

    /// A position of the document before `change` in the document after it; positions
    /// inside the changed span go to its end.
    private static func map(_ position: Int, _ change: DocumentChange) -> Int {
        if position <= change.prefix { return position }
        if position >= change.oldTailStart { return position + change.delta }
        return change.newTailStart
    }

    /// The viewport a whole layout would hand back for these rows.
    private static func viewport(_ rows: [DocumentRow], previous: Viewport, change: DocumentChange, editor: Editor,
                                 width: Int) -> Viewport {
        let top = rows.first?.start ?? previous.top
        let topRowEnd = rows.first?.end ?? top
        // The text the fingerprint reads is unchanged when the change lies past it.
        let fingerprint: Int
        if let old = previous.verified, old.top == top, old.topRowEnd == topRowEnd, change.prefix >= topRowEnd {
            fingerprint = old.fingerprint
        } else {
            fingerprint = TextArea.fingerprint(editor.storage, top: top, topRowEnd: topRowEnd)
        }
        return Viewport(top: top, verified: Viewport.Stamp(
            version: editor.version, width: width, tabWidth: editor.config.tabWidth, top: top,
            topRowEnd: topRowEnd, editFloor: TextArea.editFloor(editor), fingerprint: fingerprint))
    }
}
