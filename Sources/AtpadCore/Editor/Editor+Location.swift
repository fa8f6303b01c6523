/// Lines and columns as people count them (SPEC §9): the title's `Ln N, Col C` and the
/// `Go to line:` prompt.
extension Editor {
    /// The 1-based line of `position` and its 1-based column in grapheme clusters.
    public func lineAndColumn(of position: Int) -> (line: Int, column: Int) {
        let p = min(max(position, 0), storage.count)
        let start = storage.lineStart(p)
        var line = 1
        var q = start
        while q > 0 {
            q = storage.lineStart(q - 1)
            line += 1
        }
        var column = 1
        var c = start
        while c < p {
            c = storage.nextBoundary(after: c)
            column += 1
        }
        return (line, column)
    }
}
