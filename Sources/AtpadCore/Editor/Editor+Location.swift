/// Lines and columns as people count them (docs/keys.md): the title's `Ln N, Col C` and the
/// `Go to line:` prompt.
///
/// Lines come from the storage's newline counts (O(log n)); columns are counted within
/// the line only, since the title asks on every keystroke. A byte that is not UTF-8 is
/// one character, though it is shown as its escape (`\xE9`, docs/editor.md).
extension Editor {
    /// The 1-based line of `position` and its 1-based column in grapheme clusters.
    public func lineAndColumn(of position: Int) -> (line: Int, column: Int) {
        let p = min(max(position, 0), storage.count)
        let line = storage.newlines(before: p)
        let start = storage.start(ofLine: line)
        var column = storage.slice(start..<p).count + 1
        if start < p {
            for m in storage.mentions(overlapping: start..<p) where m.kind == .bytes && m.range.upperBound <= p {
                column -= m.text.count - 1
            }
        }
        return (line + 1, column)
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
            // A byte's escape (`\xE9`) is one column.
            let bytes = storage.mentions(overlapping: start..<end).filter { $0.kind == .bytes }
            var next = 0
            var line = storage.slice(start..<end)[...]
            while remaining > 0, let character = line.first {
                if next < bytes.count, bytes[next].range.lowerBound == p {
                    p = bytes[next].range.upperBound
                    line = line.dropFirst(bytes[next].text.count)
                    next += 1
                } else {
                    p += character.unicodeScalars.count
                    line = line.dropFirst()
                }
                remaining -= 1
            }
        }
        if let m = storage.mention(containing: p) {
            p = (p - m.range.lowerBound) <= (m.range.upperBound - p) ? m.range.lowerBound : m.range.upperBound
        }
        return p
    }
}
