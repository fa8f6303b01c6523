/// Where Markdown text is code: fenced code blocks (```` ``` ```` or `~~~` fences) and
/// inline code spans (a run of backticks closed by a run of the same length). GitHub does
/// not turn `@jdoe` inside code into a mention, so the decoders that read Markdown-based
/// formats skip these regions.
///
/// A simplification of CommonMark that is enough for this purpose: indented code blocks
/// are not recognised, and an unclosed fence runs to the end of the text.
enum MarkdownCode {
    private static let backtick = UInt8(ascii: "`")
    private static let tilde = UInt8(ascii: "~")

    /// The byte ranges of code in `bytes`, sorted and disjoint.
    static func regions(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var regions: [Range<Int>] = []
        // No backtick nor tilde at all is the common case; answer it without a line scan.
        guard bytes.contains(where: { $0 == backtick || $0 == tilde }) else { return regions }
        var proseStart = 0
        var lineStart = 0
        var fence: (character: UInt8, length: Int, start: Int)?
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let next = min(lineEnd + 1, bytes.count)
            if let open = fence {
                if let run = fenceRun(bytes, lineStart ..< lineEnd), run.character == open.character,
                   run.length >= open.length, run.isBare {
                    regions.append(open.start ..< next)
                    fence = nil
                    proseStart = next
                }
            } else if let run = fenceRun(bytes, lineStart ..< lineEnd),
                      run.character == tilde || !run.infoHasBacktick {
                spans(in: bytes, proseStart ..< lineStart, into: &regions)
                fence = (run.character, run.length, lineStart)
            }
            lineStart = next
        }
        if let open = fence {
            regions.append(open.start ..< bytes.count)
        } else {
            spans(in: bytes, proseStart ..< bytes.count, into: &regions)
        }
        return regions
    }

    /// Answers "is this offset in code?" for offsets asked in increasing order, in
    /// constant time per question.
    struct Cursor {
        private let regions: [Range<Int>]
        private var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            regions = MarkdownCode.regions(in: bytes)
        }

        /// Whether byte `offset` is in code; offsets must not decrease between calls.
        mutating func isCode(_ offset: Int) -> Bool {
            while index < regions.count, regions[index].upperBound <= offset { index += 1 }
            return index < regions.count && regions[index].contains(offset)
        }

        /// Where the code region holding `offset` ends (after `isCode(offset)` said yes).
        func end(ofCodeAt offset: Int) -> Int {
            regions[index].upperBound
        }
    }

    /// The fence a line starts with (up to three spaces, then three or more backticks or
    /// tildes), if any.
    private static func fenceRun(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>
    ) -> (character: UInt8, length: Int, isBare: Bool, infoHasBacktick: Bool)? {
        var i = line.lowerBound
        while i < line.upperBound, i - line.lowerBound < 3, bytes[i] == 0x20 { i += 1 }
        guard i < line.upperBound, bytes[i] == backtick || bytes[i] == tilde else { return nil }
        let character = bytes[i]
        let runStart = i
        while i < line.upperBound, bytes[i] == character { i += 1 }
        guard i - runStart >= 3 else { return nil }
        let rest = bytes[i ..< line.upperBound]
        let isBare = rest.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return (character, i - runStart, isBare, rest.contains(backtick))
    }

    /// Appends the inline code spans of the prose `range` to `regions`.
    private static func spans(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into regions: inout [Range<Int>]) {
        // For each run length, a position from which no closing run of that length exists,
        // so that unclosed runs do not make the search quadratic.
        var noCloserAfter: [Int: Int] = [:]
        var i = range.lowerBound
        while i < range.upperBound {
            guard bytes[i] == backtick else {
                // A backslash escapes a backtick outside code.
                i += bytes[i] == UInt8(ascii: "\\") && i + 1 < range.upperBound && bytes[i + 1] == backtick ? 2 : 1
                continue
            }
            let open = i
            while i < range.upperBound, bytes[i] == backtick { i += 1 }
            let length = i - open
            if let known = noCloserAfter[length], known <= i { continue }
            var j = i
            var close: Int?
            while j < range.upperBound {
                guard bytes[j] == backtick else { j += 1; continue }
                let runStart = j
                while j < range.upperBound, bytes[j] == backtick { j += 1 }
                if j - runStart == length { close = j; break }
            }
            if let close {
                regions.append(open ..< close)
                i = close
            } else {
                noCloserAfter[length] = i
            }
        }
    }
}
