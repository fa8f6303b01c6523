/// Cursor motion: by grapheme, word, line, screen row and page, with mentions as atomic
/// units (motion steps over them; vertical motion snaps to their nearer edge).
extension Editor {
    /// One step left: over a whole mention when one ends here, else one grapheme.
    func stepLeft(from p: Int) -> Int {
        if let m = storage.mention(endingAt: p) { return m.range.lowerBound }
        return storage.previousBoundary(before: p)
    }

    /// One step right: over a whole mention when one starts here, else one grapheme.
    func stepRight(from p: Int) -> Int {
        if let m = storage.mention(startingAt: p) { return m.range.upperBound }
        return storage.nextBoundary(after: p)
    }

    private func isWordCharacter(before p: Int) -> Bool {
        guard let s = storage.character(before: p)?.unicodeScalars.first else { return false }
        return CharacterClass.isWord(s)
    }

    private func isWordCharacter(at p: Int) -> Bool {
        guard let s = storage.scalar(at: p) else { return false }
        return CharacterClass.isWord(s)
    }

    /// The start of the word before `p` (a mention counts as one word).
    func wordLeft(from p: Int) -> Int {
        var q = p
        while q > 0 {
            if let m = storage.mention(endingAt: q) { return m.range.lowerBound }
            if isWordCharacter(before: q) { break }
            q = storage.previousBoundary(before: q)
        }
        while q > 0, storage.mention(endingAt: q) == nil, isWordCharacter(before: q) {
            q = storage.previousBoundary(before: q)
        }
        return q
    }

    /// The end of the word after `p` (a mention counts as one word).
    func wordRight(from p: Int) -> Int {
        var q = p
        while q < storage.count {
            if let m = storage.mention(startingAt: q) { return m.range.upperBound }
            if isWordCharacter(at: q) { break }
            q = storage.nextBoundary(after: q)
        }
        while q < storage.count, storage.mention(startingAt: q) == nil, isWordCharacter(at: q) {
            q = storage.nextBoundary(after: q)
        }
        return q
    }

    /// The screen rows of the logical line `start..<end`, wrapped to the configured width.
    func rows(ofLine start: Int, _ end: Int) -> [SoftWrap.Row] {
        let atomic = storage.mentions(overlapping: start..<max(start, end))
            .map { ($0.range.lowerBound - start) ..< ($0.range.upperBound - start) }
        return SoftWrap.rows(storage.slice(start..<end), width: config.width, tabWidth: config.tabWidth, atomic: atomic)
    }

    /// The position `delta` screen rows above (negative) or below `p`, aiming for
    /// `goal` columns; the top row goes to the start of the text, the bottom to its end.
    func verticalTarget(from p: Int, rows delta: Int, goal: inout Int?) -> Int {
        var lineStart = storage.lineStart(p)
        var lineEnd = storage.lineEnd(p)
        var rows = rows(ofLine: lineStart, lineEnd)
        var (r, column) = SoftWrap.locate(p - lineStart, in: rows)
        let target = goal ?? column
        goal = target
        var remaining = delta
        while remaining < 0 {
            if r > 0 {
                r -= 1
            } else if lineStart > 0 {
                lineEnd = lineStart - storage.lineBreakLength(before: lineStart)
                lineStart = storage.lineStart(lineEnd)
                rows = self.rows(ofLine: lineStart, lineEnd)
                r = rows.count - 1
            } else {
                return 0
            }
            remaining += 1
        }
        while remaining > 0 {
            if r < rows.count - 1 {
                r += 1
            } else if lineEnd < storage.count {
                lineStart = lineEnd + storage.lineBreakLength(at: lineEnd)
                lineEnd = storage.lineEnd(lineStart)
                rows = self.rows(ofLine: lineStart, lineEnd)
                r = 0
            } else {
                return storage.count
            }
            remaining -= 1
        }
        return lineStart + SoftWrap.offset(atColumn: target, in: rows[r], isLastRow: r == rows.count - 1)
    }

    /// Moves the cursor (or, with `extend`, the selection's head) to `position`, never
    /// leaving it strictly inside a mention: it snaps to the nearer edge.
    public mutating func moveCursor(to position: Int, extend: Bool = false) {
        var p = min(max(position, 0), storage.count)
        if let m = storage.mention(containing: p) {
            p = (p - m.range.lowerBound) <= (m.range.upperBound - p) ? m.range.lowerBound : m.range.upperBound
        }
        if !storage.isBoundary(p) { p = storage.nextBoundary(after: p) }
        selection = extend ? Selection(anchor: selection.anchor, head: p) : .cursor(p)
    }

    /// A motion key: ends any search, clears dismissal and breaks undo coalescing.
    mutating func motion(to position: Int, extend: Bool) {
        endSearch()
        dismissed = false
        breakUndoCoalescing()
        moveCursor(to: position, extend: extend)
    }
}
