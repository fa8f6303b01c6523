import AtpadCore

/// How a client counts a line's characters (LSP 3.17, "Position"): UTF-16 code units by
/// default, UTF-8 bytes when it offers `utf-8` in `general.positionEncodings`. Positions
/// are mapped to and from the editor's scalar offsets through its line index, so a 10 MB
/// document costs one line's walk per position.
enum LSPPositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"

    /// The encoding to use for a client that offers `offered` (nil: it says nothing).
    static func chosen(from offered: [String]?) -> LSPPositionEncoding {
        offered?.contains(LSPPositionEncoding.utf8.rawValue) == true ? .utf8 : .utf16
    }

    private func units(_ s: Unicode.Scalar) -> Int {
        switch self {
        case .utf16: s.utf16.count
        case .utf8: s.utf8.count
        }
    }

    /// The scalar offset of (`line`, `character`) in `storage`, or nil when the line is
    /// past the end (a text ending in a line break has an empty last line). A character past the line's end means its end (as the protocol
    /// says); one inside a scalar means that scalar's start.
    func offset(line: Int, character: Int, in storage: TextStorage) -> Int? {
        guard line >= 0, character >= 0, line < storage.lineCount else { return nil }
        let start = storage.start(ofLine: line)
        let end = storage.lineEnd(start)
        var counted = 0
        var p = start
        while p < end, let s = storage.scalar(at: p) {
            let next = counted + units(s)
            if next > character { break }
            counted = next
            p += 1
        }
        return p
    }

    /// The position of scalar offset `offset` in `storage`.
    func position(of offset: Int, in storage: TextStorage) -> (line: Int, character: Int) {
        let p = min(max(offset, 0), storage.count)
        let line = storage.newlines(before: p)
        let start = storage.start(ofLine: line)
        var character = 0
        for s in storage.slice(start..<p).unicodeScalars { character += units(s) }
        return (line, character)
    }

    /// An LSP `Range` of scalar offsets.
    func range(_ r: Range<Int>, in storage: TextStorage) -> JSONValue {
        let a = position(of: r.lowerBound, in: storage), b = position(of: r.upperBound, in: storage)
        return ["start": ["line": .number(a.line), "character": .number(a.character)],
                "end": ["line": .number(b.line), "character": .number(b.character)]]
    }
}
