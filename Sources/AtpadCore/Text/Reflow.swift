/// Reflowing prose to a width (Alt-Q, docs/git.md, "Reflow"), as vim's `gq` does: the
/// words of each paragraph, filled greedily into lines of at most `width` columns.
///
/// Only the blanks between words change: a mention, an inline code span or anything else
/// `protected` is one word however many spaces it holds, and a word wider than the width
/// (a URL) has a line to itself. A paragraph is a run of lines between blank lines (and
/// lines starting with `#` or `comment`, git's comments and Markdown's headings); one that holds a
/// list item, a quote, a table row, a fence, an indented code line or a trailer
/// (`Signed-off-by: …`) is not prose and is left as it is, and so is everything from
/// `stop` (git's scissors line) on.
public enum Reflow {
    /// What reflowing asks to change: `range` of the text becomes `text`, and each
    /// protected range in it is at its new place in `text` (`moved[i]` for
    /// `protected[i]`, nil when it lies outside `range`).
    public struct Plan: Equatable, Sendable {
        public var range: Range<Int>
        public var text: String
        public var moved: [Range<Int>?]
    }

    /// Why nothing was reflowed.
    public enum Refusal: Error, Equatable, Sendable {
        /// The paragraphs there are lists, quotes, tables, code, trailers or git's diff.
        case notProse
        /// There is no paragraph there (a blank or comment line).
        case nothing
    }

    /// The plan that reflows the paragraphs touching `from ..< to` (a cursor when empty)
    /// of `scalars` to `width` columns; lines ending in `\r\n` keep it.
    public static func plan(_ scalars: [Unicode.Scalar], protected: [Range<Int>], from: Int, to: Int, width: Int,
                            comment: String? = nil, stop: Int? = nil) -> Result<Plan, Refusal> {
        let lines = Self.lines(scalars)
        guard let firstLine = lines.lastIndex(where: { $0.lowerBound <= from }),
              let lastLine = lines.lastIndex(where: { $0.lowerBound <= max(from, to) }) else { return .failure(.nothing) }
        let commentScalars = Array((comment ?? "").unicodeScalars)
        func isBoundary(_ i: Int) -> Bool {
            let line = lines[i]
            if let stop, line.lowerBound >= stop { return true }
            if !commentScalars.isEmpty, scalars[line].starts(with: commentScalars) { return true }
            let first = line.first { !isBlank(scalars[$0]) }
            return first == nil || scalars[first!] == "#"
        }
        // The paragraphs: from the first line's paragraph start to the last line's end.
        var start = firstLine, end = lastLine
        if isBoundary(start), start == end { return .failure(.nothing) }
        while start > 0, !isBoundary(start - 1), !isBoundary(start) { start -= 1 }
        while end + 1 < lines.count, !isBoundary(end + 1), !isBoundary(end) { end += 1 }
        var paragraphs: [ClosedRange<Int>] = []
        var i = start
        while i <= end {
            guard !isBoundary(i) else { i += 1; continue }
            var j = i
            while j + 1 <= end, !isBoundary(j + 1) { j += 1 }
            paragraphs.append(i ... j)
            i = j + 1
        }
        let prose = paragraphs.filter { p in p.allSatisfy { isProse(scalars, lines[$0]) } }
        guard let firstProse = prose.first, let lastProse = prose.last else {
            return .failure(paragraphs.isEmpty ? .nothing : .notProse)
        }
        let range = lines[firstProse.lowerBound].lowerBound ..< lines[lastProse.upperBound].upperBound
        let firstEnd = lines[firstProse.lowerBound].upperBound
        let lineEnd = firstEnd < scalars.count && scalars[firstEnd] == "\r" ? "\r\n" : "\n"
        var out = String.UnicodeScalarView()
        var outCount = 0
        var moved = [Range<Int>?](repeating: nil, count: protected.count)
        var cursor = range.lowerBound
        for p in paragraphs where p.lowerBound >= firstProse.lowerBound && p.upperBound <= lastProse.upperBound {
            let pRange = lines[p.lowerBound].lowerBound ..< lines[p.upperBound].upperBound
            // What lies between paragraphs (blank or comment lines) is kept as it is.
            for k in cursor ..< pRange.lowerBound { out.append(scalars[k]); outCount += 1 }
            cursor = pRange.upperBound
            guard prose.contains(p) else {
                for k in pRange { out.append(scalars[k]); outCount += 1 }
                continue
            }
            fill(scalars, pRange, protected: protected, width: width, lineEnd: lineEnd, into: &out, count: &outCount,
                 moved: &moved)
        }
        return .success(Plan(range: range, text: String(out), moved: moved))
    }

    /// Appends the paragraph `range` of `scalars`, its words filled into lines.
    private static func fill(_ scalars: [Unicode.Scalar], _ range: Range<Int>, protected: [Range<Int>], width: Int,
                             lineEnd: String, into out: inout String.UnicodeScalarView, count: inout Int,
                             moved: inout [Range<Int>?]) {
        // The first line's indent starts every line.
        var indentEnd = range.lowerBound
        while indentEnd < range.upperBound, isBlank(scalars[indentEnd]) { indentEnd += 1 }
        let indent = Array(scalars[range.lowerBound ..< indentEnd])
        let indentWidth = indent.reduce(0) { $0 + ($1 == "\t" ? 8 : DisplayWidth.of($1)) }
        // Words: runs of scalars that are not a blank or line break outside a protected range.
        let inside = protected.filter { $0.overlaps(range) }
        var words: [Range<Int>] = []
        var k = indentEnd
        while k < range.upperBound {
            if isSpace(scalars[k]), !inside.contains(where: { $0.contains(k) }) { k += 1; continue }
            var e = k
            while e < range.upperBound, !isSpace(scalars[e]) || inside.contains(where: { $0.contains(e) }) { e += 1 }
            words.append(k ..< e)
            k = e
        }
        var column = 0
        var newStart: [Int: Int] = [:]
        for (n, word) in words.enumerated() {
            let w = scalars[word].reduce(0) { $0 + DisplayWidth.of($1) }
            if n == 0 || column + 1 + w > width {
                if n > 0 { for s in lineEnd.unicodeScalars { out.append(s); count += 1 } }
                out.append(contentsOf: indent)
                count += indent.count
                column = indentWidth
            } else {
                out.append(" ")
                count += 1
                column += 1
            }
            newStart[word.lowerBound] = count
            out.append(contentsOf: scalars[word])
            count += word.count
            column += w
        }
        for (i, p) in protected.enumerated() where range.contains(p.lowerBound) {
            guard let word = words.first(where: { $0.contains(p.lowerBound) }), let at = newStart[word.lowerBound] else { continue }
            let offset = at + (p.lowerBound - word.lowerBound)
            moved[i] = offset ..< offset + p.count
        }
    }

    /// The lines of `scalars`, each without its line break.
    static func lines(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for (i, s) in scalars.enumerated() where s == "\n" {
            lines.append(start ..< (i > start && scalars[i - 1] == "\r" ? i - 1 : i))
            start = i + 1
        }
        lines.append(start ..< scalars.count)
        return lines
    }

    /// Whether `line` can be refilled: not a list item, quote, table row, fence, indented
    /// code or trailer.
    static func isProse(_ scalars: [Unicode.Scalar], _ line: Range<Int>) -> Bool {
        var i = line.lowerBound
        var indent = 0
        while i < line.upperBound, isBlank(scalars[i]) { indent += scalars[i] == "\t" ? 4 : 1; i += 1 }
        guard indent < 4, i < line.upperBound else { return indent < 4 }
        let rest = String(String.UnicodeScalarView(scalars[i ..< line.upperBound]))
        if rest.hasPrefix(">") || rest.hasPrefix("|") || rest.hasPrefix("```") || rest.hasPrefix("~~~") { return false }
        if ["-", "*", "+"].contains(where: { rest == $0 || rest.hasPrefix($0 + " ") }) { return false }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let after = rest.dropFirst(digits.count)
            if after.hasPrefix(". ") || after.hasPrefix(") ") || after == "." || after == ")" { return false }
        }
        // A trailer: `Key: value`, the key letters, digits and `-` — with a `-` in it, or
        // one of the one-word keys git projects use (`Note: …` is prose).
        if let colon = rest.firstIndex(of: ":"), case let key = String(rest[..<colon]), PersonTrailers.isValidKey(key),
           key.contains("-") || Self.oneWordTrailers.contains(key.lowercased()) {
            let after = rest[rest.index(after: colon)...]
            if after.isEmpty || after.first == " " || after.first == "\t" { return false }
        }
        return true
    }

    /// Trailer keys of one word (most have a `-`).
    static let oneWordTrailers: Set<String> = ["cc", "fixes", "closes", "link", "bug", "refs", "change-id"]

    /// The inline code spans of `scalars`: a run of backticks to the next run of as many.
    public static func codeSpans(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "`" else { i += 1; continue }
            var n = i
            while n < scalars.count, scalars[n] == "`" { n += 1 }
            let length = n - i
            var j = n
            var close: Int?
            while j < scalars.count {
                guard scalars[j] == "`" else { j += 1; continue }
                var m = j
                while m < scalars.count, scalars[m] == "`" { m += 1 }
                if m - j == length { close = m; break }
                j = m
            }
            if let close { spans.append(i ..< close); i = close } else { i = n }
        }
        return spans
    }

    private static func isBlank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }
    private static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\n" || s == "\r" }
}
