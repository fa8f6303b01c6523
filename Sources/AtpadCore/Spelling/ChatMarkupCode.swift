/// Where a Slack or Jira comment holds code in its own markup, which spelling never checks
/// (docs/spelling.md, "What is checked"): these formats are not Markdown, so cmark-gfm
/// cannot say. Slack's mrkdwn: a block between two ```` ``` ```` (on one line or many)
/// and `` `code` `` within a line; Jira's wiki markup: `{code}` or `{code:lang}` to the
/// next `{code}`, `{noformat}` to the next `{noformat}`, and `{{monospace}}` within a line.
/// An opener without its closer is text, as those services show it.
enum ChatMarkupCode {
    /// The byte ranges of code in UTF-8 `bytes` of a comment in `format`, sorted and
    /// disjoint; none for a format other than Slack's and Jira's.
    static func ranges(_ bytes: [UInt8], format: DocumentFormat) -> [Range<Int>] {
        switch format {
        case .slack: slack(bytes)
        case .jira: jira(bytes)
        default: []
        }
    }

    private static let backtick = UInt8(ascii: "`"), newline = UInt8(ascii: "\n")

    static func slack(_ bytes: [UInt8]) -> [Range<Int>] {
        let fence = Array("```".utf8)
        var out: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == backtick else {
                i += 1
                continue
            }
            if starts(bytes, with: fence, at: i), let close = find(fence, in: bytes, from: i + 3) {
                out.append(i ..< close + 3)
                i = close + 3
            } else if let close = find([backtick], in: bytes, from: i + 1, withinLine: true), close > i + 1 {
                out.append(i ..< close + 1)
                i = close + 1
            } else {
                // A run of backticks without a closer: text.
                while i < bytes.count, bytes[i] == backtick { i += 1 }
            }
        }
        return out
    }

    static func jira(_ bytes: [UInt8]) -> [Range<Int>] {
        let blocks = ["code", "noformat"].map { (open: Array("{\($0)".utf8), close: Array("{\($0)}".utf8)) }
        let monoOpen = Array("{{".utf8), monoClose = Array("}}".utf8)
        var out: [Range<Int>] = []
        // A block's closer not found after one opener is not after any later one either:
        // not looked for again (a text of many unclosed openers is read once).
        var closerMissing = blocks.map { _ in false }
        var i = 0
        scan: while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "{") else {
                i += 1
                continue
            }
            for (k, block) in blocks.enumerated() where !closerMissing[k] && starts(bytes, with: block.open, at: i) {
                // `{code}` or `{code:java|title=x}`: the opener ends at its `}` on the line.
                let after = i + block.open.count
                guard after < bytes.count, bytes[after] == UInt8(ascii: "}") || bytes[after] == UInt8(ascii: ":"),
                      let openerEnd = find([UInt8(ascii: "}")], in: bytes, from: after, withinLine: true) else { continue }
                guard let close = find(block.close, in: bytes, from: openerEnd + 1) else {
                    closerMissing[k] = true
                    continue
                }
                out.append(i ..< close + block.close.count)
                i = close + block.close.count
                continue scan
            }
            if starts(bytes, with: monoOpen, at: i), let close = find(monoClose, in: bytes, from: i + 2, withinLine: true),
               close > i + 2 {
                out.append(i ..< close + 2)
                i = close + 2
                continue
            }
            i += 1
        }
        return out
    }

    private static func starts(_ bytes: [UInt8], with prefix: [UInt8], at i: Int) -> Bool {
        i + prefix.count <= bytes.count && bytes[i ..< i + prefix.count].elementsEqual(prefix)
    }

    /// Where `needle` next starts at or after `from`; with `withinLine`, only before the
    /// line's end.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int, withinLine: Bool = false) -> Int? {
        var i = from
        while i + needle.count <= bytes.count {
            if withinLine, bytes[i] == newline { return nil }
            if bytes[i] == needle[0], starts(bytes, with: needle, at: i) { return i }
            i += 1
        }
        return nil
    }
}
