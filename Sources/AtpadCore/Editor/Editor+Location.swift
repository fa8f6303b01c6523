/// Lines and columns as people count them (SPEC §9): the title's `Ln N, Col C` and the
/// `Go to line:` prompt.
///
/// Lines come from the storage's newline counts (O(log n)); columns are counted within
/// the line only, since the title asks on every keystroke.
extension Editor {
    /// The 1-based line of `position` and its 1-based column in grapheme clusters.
    public func lineAndColumn(of position: Int) -> (line: Int, column: Int) {
        let p = min(max(position, 0), storage.count)
        let line = storage.newlines(before: p)
        let start = storage.start(ofLine: line)
        return (line + 1, storage.slice(start..<p).count + 1)
    }

    /// The position of 1-based `line` and `column` (grapheme clusters; nil is the line's
    /// start). Numbers out of range go to the nearest line or column; a position inside a
    /// mention goes to its nearer edge.
    public func position(line: Int, column: Int?) -> Int {
        // Any Int is a line: Int.min and Int.max (a number typed with many digits) too.
        let start = storage.start(ofLine: max(line, 1) - 1)
        let end = storage.lineEnd(start)
        var p = start
        var remaining = max(column ?? 1, 1) - 1
        if remaining > 0 {
            for character in storage.slice(start..<end) {
                if remaining == 0 { break }
                p += character.unicodeScalars.count
                remaining -= 1
            }
        }
        if let m = storage.mention(containing: p) {
            p = (p - m.range.lowerBound) <= (m.range.upperBound - p) ? m.range.lowerBound : m.range.upperBound
        }
        return p
    }
}
