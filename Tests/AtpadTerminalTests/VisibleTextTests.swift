import AtpadCore
import Testing
@testable import AtpadTerminal

/// `VisibleText.cells` takes a short cut for ASCII and for signs that are a cluster and a
/// column of their own; it must give what the general path (cluster by cluster, widths
/// from Unicode's tables) gives. An emphasis range in the same role forces that path.
@Suite struct VisibleTextTests {
    func cells(_ text: String, general: Bool) -> [String] {
        var clusters = LongClusters()
        let cells = general
            ? VisibleText.cells(text, role: .title, emphasis: [0 ..< 1], emphasisRole: .title, clusters: &clusters)
            : VisibleText.cells(text, role: .title, clusters: &clusters)
        return cells.map { clusters.text(of: $0) + "|\($0.role)" }
    }

    @Test func ownCellSignsDrawAsTheGeneralPathDoes() {
        var checked = 0
        for value in UInt32(0x20) ... 0x2FFF {
            guard let s = Unicode.Scalar(value), VisibleText.isOwnCell(s) else { continue }
            let text = "a" + String(s) + "b " + String(s)
            #expect(cells(text, general: false) == cells(text, general: true), "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(Character(s)) == 1)
            checked += 1
        }
        #expect(checked == 95 + 95 + 24)
    }

    @Test func theTitlesSignsTakeTheShortCutAndOthersDoNot() {
        #expect(" · 2 mentions".unicodeScalars.allSatisfy(VisibleText.isOwnCell))
        #expect("atpad — ".unicodeScalars.allSatisfy(VisibleText.isOwnCell))
        // A combining mark, a soft hyphen, a wide character, a control: the general path.
        for text in ["e\u{301}", "a\u{AD}b", "王", "a\tb", "a\u{1B}b", "👍"] {
            #expect(!text.unicodeScalars.allSatisfy(VisibleText.isOwnCell), "\(text.debugDescription)")
            #expect(cells(text, general: false) == cells(text, general: true))
        }
    }
}
