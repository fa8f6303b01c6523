// TEMPORARY: stand-ins for the core API being built on branch wt-core; deleted at merge.
import AtpadCore

extension Editor {
    func matches(of query: String) -> [Range<Int>] {
        guard !query.isEmpty else { return [] }
        let text = Array(self.text.unicodeScalars)
        let q = Array(query.unicodeScalars)
        var out: [Range<Int>] = []
        var i = 0
        while i + q.count <= text.count {
            if Array(text[i..<i + q.count]) == q { out.append(i..<i + q.count); i += q.count } else { i += 1 }
        }
        return out
    }
    func matchSelection(_ range: Range<Int>) -> Selection { .cursor(range.lowerBound) }
    mutating func select(_ selection: Selection) -> [Effect] {
        var e = click(at: selection.anchor)
        if !selection.isEmpty { e += click(at: selection.head, extend: true) }
        return e
    }
    mutating func replace(_ range: Range<Int>, with text: String, group: Int) -> [Effect] {
        var e = select(Selection(anchor: range.lowerBound, head: range.upperBound))
        e += handle(.paste(text))
        return e
    }
    func position(line: Int, column: Int?) -> Int { 0 }
    mutating func selectAll() -> [Effect] { select(Selection(anchor: 0, head: storage.count)) }
    mutating func endSearchForCommand() -> [Effect] { [] }
}
