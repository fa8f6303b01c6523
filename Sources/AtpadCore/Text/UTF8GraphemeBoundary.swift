/// Grapheme-cluster boundaries in UTF-8 text, found from a window of scalars around the
/// position (as `TextStorage` does), so checking a few positions of a large text stays
/// cheap. A cluster longer than the window (which no real text has) could be split.
enum UTF8GraphemeBoundary {
    static let window = 32

    /// Whether byte offset `offset` of `bytes` is a grapheme-cluster boundary.
    static func isBoundary(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        if offset <= 0 || offset >= bytes.count { return true }
        let before = bytes[offset - 1], after = bytes[offset]
        if UTF8Scan.isContinuation(after) { return false }
        // No ASCII scalar extends or prepends a cluster; only CR LF pairs.
        if before < 0x80, after < 0x80 { return !(before == 0x0D && after == 0x0A) }
        var lo = offset
        for _ in 0 ..< window where lo > 0 {
            lo -= 1
            while lo > 0, UTF8Scan.isContinuation(bytes[lo]) { lo -= 1 }
        }
        var hi = offset
        for _ in 0 ..< window where hi < bytes.count {
            hi += 1
            while hi < bytes.count, UTF8Scan.isContinuation(bytes[hi]) { hi += 1 }
        }
        var position = lo
        for character in UTF8Scan.string(bytes, lo ..< hi) {
            position += character.utf8.count
            if position >= offset { return position == offset }
        }
        return false
    }
}
