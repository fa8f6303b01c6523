import AtpadCore

/// Soft-wraps just the part of the document a frame needs, with the core's `SoftWrap`
/// (mentions atomic), so the cost of a frame does not grow with the document or with the
/// length of a line.
///
/// Forward, rows are wrapped from a known row start (the viewport's top) in bounded
/// windows of text. A window that does not reach the end of its line ends on a cluster
/// boundary, and its last, unfinished row is dropped and wrapped again from its start
/// with the next window: every row before it is exactly what wrapping the whole line
/// gives, because the wrap decides a row using only the text up to it.
///
/// Backward, a row start is found by wrapping forward from the line's start when that is
/// at most `window` scalars back. Further back (only in lines longer than `window`
/// scalars) the wrap starts at an *anchor*: the first break opportunity after the window's
/// start. Rows from an anchor are an approximation — they may break differently from a
/// wrap of the whole line until the two fall into step, usually within a row — and where
/// such rows meet a row start found going forward, the row ending there may come out
/// short. This is the price of a bounded frame in a line of megabytes.
struct RowWrapper {
    let storage: TextStorage
    let width: Int
    let tabWidth: Int

    /// How many scalars before a position are searched for its line's start.
    static let window = 2048
    /// The most scalars one row may hold before it is cut where the window ends (a row of
    /// thousands of zero-width characters, which no real text has).
    static let maxRowScalars = 1 << 16

    init(storage: TextStorage, width: Int, tabWidth: Int) {
        self.storage = storage
        self.width = max(1, width)
        self.tabWidth = max(1, tabWidth)
    }

    // MARK: - Forward

    /// Up to `limit` rows in document order, starting at the row start `start`.
    func rows(from start: Int, limit: Int) -> [DocumentRow] {
        rows(from: start, limit: limit, beforeLineAt: .max)
    }

    /// Like `rows(from:limit:)`, but stops before a line that starts at or after `stop`
    /// (the layout keeps the rows from there of the last frame).
    func rows(from start: Int, limit: Int, beforeLineAt stop: Int) -> [DocumentRow] {
        var result: [DocumentRow] = []
        result.reserveCapacity(min(limit, 256))
        var s = start
        while result.count < limit && s < stop {
            let remaining = limit - result.count
            // Short lines, which is most of them, are wrapped straight from one slice of
            // the text ahead and one list of its mentions, instead of each line asking the
            // storage for its end, its text, its mentions and its line break.
            guard let next = shortLines(from: s, limit: limit, before: stop, into: &result) else { break }
            if next > s {
                s = next
                continue
            }
            // A long line, or one that runs past the slice.
            let (rows, lineEnd) = lineRows(from: s, maxRows: remaining, hint: remaining * width + width)
            result += rows
            guard let end = lineEnd, end < storage.count else { break }
            s = end + storage.lineBreakLength(at: end)
        }
        return result
    }

    /// Wraps the lines from the row start `start` that end, shorter than `lineRows`'s
    /// first look ahead, within one slice of the text, appending their rows to `result`
    /// (up to `limit` rows in all). Returns where the next line starts (`start` when the
    /// first line is not such a line), or nil when there is nothing after the rows.
    /// The rows are exactly those `lineRows` gives for each line.
    private func shortLines(from start: Int, limit: Int, before stop: Int,
                            into result: inout [DocumentRow]) -> Int? {
        let floor = 2 * width + 64
        let hi = min(storage.count, start + min(max(limit - result.count, 1), 1024) * width + floor)
        var text = storage.slice(start ..< hi)
        let reachesEnd = hi == storage.count
        let mentions = storage.mentions(overlapping: start ..< hi)
        var m = 0
        let shared = text  // plain ASCII rows point into it rather than copy their line
        return text.withUTF8 { bytes -> Int? in
            var s = start  // scalar position of the line's start
            var b = 0      // its byte offset in `bytes`
            while result.count < limit && s < stop {
                // The line's end: a LF (after a CR that belongs to the break), or the text's.
                // Printable ASCII first, a scalar a byte (most lines are all of it); the
                // rest of a line that is not is counted by its scalars' first bytes.
                var e = RowWrapper.printableASCIIPrefix(bytes, from: b)
                var n = e - b
                let printableEnd = e
                while e < bytes.count && bytes[e] != 0x0A {
                    if bytes[e] & 0xC0 != 0x80 { n += 1 }
                    e += 1
                }
                guard n < floor, e < bytes.count || reachesEnd else { return s }
                var textEnd = e
                var length = n
                if e < bytes.count && e > b && bytes[e - 1] == 0x0D {
                    textEnd -= 1
                    length -= 1
                }
                let line = s ..< s + length
                // The mentions `storage.mentions(overlapping: line)` gives (for an empty
                // line, one strictly containing it).
                while m < mentions.count && mentions[m].range.upperBound <= line.lowerBound { m += 1 }
                var atomic: [Range<Int>] = []
                var k = m
                while k < mentions.count && mentions[k].range.lowerBound < line.upperBound {
                    let r = mentions[k].range
                    if line.isEmpty ? (r.lowerBound < s && s < r.upperBound) : r.overlaps(line) {
                        atomic.append(r.lowerBound - s ..< r.upperBound - s)
                    }
                    k += 1
                }
                let lineBytes = UnsafeBufferPointer(rebasing: bytes[b ..< textEnd])
                if printableEnd >= textEnd, lineBytes.count < width {
                    result.append(DocumentRow(plainASCIILine: b ..< textEnd, of: shared, at: s))
                } else {
                    let lineText = String(decoding: lineBytes, as: UTF8.self)
                    wrap(lineText, base: s, atomic: atomic, endsLine: true, limit: limit, into: &result)
                }
                if result.count >= limit { return nil }
                let end = s + length
                guard end < storage.count else { return nil }
                let breakLength = textEnd < e ? 2 : 1
                s = end + breakLength
                b = e + 1
            }
            return s
        }
    }

    /// Where the run of printable ASCII (0x20–0x7E) from `start` in `bytes` ends. Eight
    /// bytes at a time while none of them is below 0x20 or above 0x7E: every visible line
    /// is scanned at every frame.
    static func printableASCIIPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var e = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if let base = bytes.baseAddress {
            while e + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + e).loadUnaligned(as: UInt64.self)
                // A byte below 0x20 borrows into its high bit; one above 0x7E carries into it
                // (or has it set already).
                let below = (word &- ones &* 0x20) & ~word & highs
                let above = ((word &+ ones) | word) & highs
                if below | above != 0 { break }
                e += 8
            }
        }
        while e < bytes.count, bytes[e] >= 0x20, bytes[e] < 0x7F { e += 1 }
        return e
    }

    /// The start of the row that holds `position` (where the cursor there is drawn).
    func rowStart(containing position: Int) -> Int {
        rows(endingWith: position, limit: 1).first?.start ?? 0
    }

    /// Up to `limit` rows in document order, the last of them the row that holds
    /// `position`: one wrap from the line's start (or an anchor) through `position`, and
    /// more from earlier lines only when that gives too few.
    func rows(endingWith position: Int, limit: Int) -> [DocumentRow] {
        let p = min(max(position, 0), storage.count)
        let anchor = lineAnchor(before: p)
        var (rows, _) = lineRows(from: anchor, through: p, hint: p - anchor + 2 * width + 64)
        if let i = rows.lastIndex(where: { $0.holds(p) }) {
            rows.removeSubrange((i + 1)...)
        } else {
            rows.removeAll { $0.start > p }
        }
        if rows.count < limit { rows = self.rows(before: anchor, limit: limit - rows.count) + rows }
        return Array(rows.suffix(limit))
    }

    /// The last `limit` rows that end at or before the row start `start`, in document order.
    func rows(before start: Int, limit: Int) -> [DocumentRow] {
        var pieces: [[DocumentRow]] = []
        var found = 0
        var end = min(start, storage.count)
        while found < limit && end > 0 {
            let breakLength = storage.lineBreakLength(before: end)
            let afterNewline = breakLength > 0
            let segmentEnd = end - breakLength
            let anchor = lineAnchor(before: segmentEnd)
            guard anchor <= segmentEnd, anchor < end else { break }
            let rows = wrap(anchor..<segmentEnd, endsLine: afterNewline)
            pieces.append(rows)
            found += rows.count
            end = anchor
        }
        return Array(pieces.reversed().joined().suffix(limit))
    }

    // MARK: - One line

    /// The rows of one line from the row start `start`: stops after `maxRows` rows, after
    /// the first row that reaches past `through`, or at the line's end (then also returned).
    /// `hint` is how many scalars the caller expects to need.
    private func lineRows(from start: Int, maxRows: Int = .max, through: Int = .max,
                          hint: Int) -> (rows: [DocumentRow], lineEnd: Int?) {
        var result: [DocumentRow] = []
        var s = start
        // Most lines are short: look two rows ahead first, then further as needed.
        let floor = 2 * width + 64
        // A line that ends within that reach is wrapped whole, from exactly its text (a
        // bounded walk over the bytes finds its end; no window is sliced and searched).
        let length = storage.distanceToNewline(from: s, limit: floor)
        if length < floor {
            let end = s + length
            for row in wrap(s..<end, endsLine: true) {
                result.append(row)
                if result.count >= maxRows || row.end > through { return (result, nil) }
            }
            return (result, end)
        }
        var budget = floor
        while true {
            var hi = min(storage.count, s + budget)
            if hi < storage.count && !storage.isBoundary(hi) {
                let before = storage.previousBoundary(before: hi)
                hi = before > s ? before : storage.nextBoundary(after: hi)
            }
            let text = storage.slice(s..<hi)
            let (line, newline) = RowWrapper.firstLine(of: text)
            let lineEnd: Int? = newline != nil ? s + newline! : (hi == storage.count ? hi : nil)
            var rows = wrap(String(line), base: s, atomicRange: s..<(lineEnd ?? hi), endsLine: lineEnd != nil)
            if lineEnd == nil {
                if rows.count > 1 {
                    rows.removeLast()
                } else if budget < RowWrapper.maxRowScalars {
                    budget *= 4
                    continue
                }
            }
            for row in rows {
                result.append(row)
                if result.count >= maxRows || row.end > through { return (result, nil) }
            }
            if let lineEnd { return (result, lineEnd) }
            s = result.last?.end ?? hi
            budget = min(2 * budget, max(hint - (s - start), floor))
        }
    }

    /// Rows of the segment `range`, which starts at a row start and ends at a row start
    /// or, with `endsLine`, at its line's end.
    private func wrap(_ range: Range<Int>, endsLine: Bool) -> [DocumentRow] {
        wrap(storage.slice(range), base: range.lowerBound, atomicRange: range, endsLine: endsLine)
    }

    private func wrap(_ text: String, base: Int, atomicRange: Range<Int>, endsLine: Bool) -> [DocumentRow] {
        let atomic = storage.mentions(overlapping: atomicRange)
            .map { ($0.range.lowerBound - base) ..< ($0.range.upperBound - base) }
        var result: [DocumentRow] = []
        wrap(text, base: base, atomic: atomic, endsLine: endsLine, limit: .max, into: &result)
        return result
    }

    /// Appends the rows of `text`, which starts at `base`, to `result` while it holds fewer
    /// than `limit`; `atomic` are its mentions' ranges relative to `base`.
    private func wrap(_ text: String, base: Int, atomic: [Range<Int>], endsLine: Bool, limit: Int,
                      into result: inout [DocumentRow]) {
        let rows = SoftWrap.rows(text, width: width, tabWidth: tabWidth, atomic: atomic)
        for (i, row) in rows.enumerated() where result.count < limit {
            result.append(DocumentRow(start: base + row.start, end: base + row.end, cells: row.cells, base: base,
                                      endsLine: endsLine && i == rows.count - 1, text: row.line))
        }
    }

    // MARK: - Finding a place to start

    /// Where to start wrapping to find the rows before `position`: its line's start when
    /// that is within `window` scalars, else an anchor (see the type's summary).
    private func lineAnchor(before position: Int) -> Int {
        guard position > 0 else { return 0 }
        // Most lines are short: look a little way back first.
        var lo = max(0, position - (2 * width + 64))
        var text = storage.slice(lo..<position)
        if text.utf8.firstIndex(of: 0x0A) == nil && lo > 0 {
            lo = max(0, position - RowWrapper.window)
            text = storage.slice(lo..<position)
        }
        if let newline = text.utf8.lastIndex(of: 0x0A) {
            return lo + RowWrapper.scalarCount(text.utf8[...newline])
        }
        if lo == 0 { return 0 }
        // The first break opportunity (just after a blank, outside mentions) in the window.
        var offset = lo
        for s in text.unicodeScalars {
            offset += 1
            if CharacterClass.isBlank(s), offset < position, storage.mention(containing: offset) == nil,
               storage.isBoundary(offset) {
                return offset
            }
        }
        var q = storage.isBoundary(lo) ? lo : storage.nextBoundary(after: lo)
        if let m = storage.mention(containing: q) {
            q = m.range.upperBound < position ? m.range.upperBound : m.range.lowerBound
        }
        return q < position ? q : storage.previousBoundary(before: position)
    }

    /// The text up to the first line break (the CR of a CR LF, or a lone LF), and the
    /// break's scalar offset if there is one.
    private static func firstLine(of text: String) -> (Substring, Int?) {
        guard var newline = text.utf8.firstIndex(of: 0x0A) else { return (text[...], nil) }
        if newline > text.utf8.startIndex {
            let before = text.utf8.index(before: newline)
            if text.utf8[before] == 0x0D { newline = before }
        }
        return (text[..<newline], scalarCount(text.utf8[..<newline]))
    }

    private static func scalarCount(_ utf8: Substring.UTF8View) -> Int {
        var n = 0
        for b in utf8 where b & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
