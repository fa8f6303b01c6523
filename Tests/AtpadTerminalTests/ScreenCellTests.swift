import AtpadCore
import Testing
@testable import AtpadTerminal

/// Screen cells are 8-byte plain values compared as raw memory; clusters too long for a
/// cell are numbered in the table of the screen that holds them, and compared by text
/// between screens.
@Suite struct ScreenCellTests {
    /// Long clusters of several kinds: the 25-byte family, a ZWJ flag, a ZWJ profession
    /// with a skin tone, a keycap-free stack of combining marks.
    static let long = ["👨‍👩‍👧‍👦", "🏳️‍🌈", "👩🏽‍💻", "a\u{300}\u{301}\u{302}\u{303}\u{304}"]

    @Test func aCellIsEightBytesWithoutPadding() {
        #expect(MemoryLayout<ScreenCell>.size == 8)
        #expect(MemoryLayout<ScreenCell>.stride == 8)
    }

    @Test(arguments: ["a", "é", "王", "😀", "👍🏽", "❤️", "🇫🇷", "e\u{301}", "e\u{301}\u{302}", "👨‍👩‍👧‍👦", "🏳️‍🌈", "\u{1F469}\u{200D}\u{1F4BB}"])
    func textRoundTrips(_ text: String) {
        var screen = Screen(width: 2, height: 1)
        let cell = screen.cell(text, .mention)
        screen[0, 0] = cell
        #expect(screen.text(row: 0, column: 0).utf8.elementsEqual(text.utf8))
        #expect(cell.role == .mention)
        #expect(!cell.isContinuation)
        // The same long cluster is numbered once per screen: equal cells are equal as memory too.
        let again = screen.cell(text, .mention)
        #expect(withUnsafeBytes(of: cell) { a in withUnsafeBytes(of: again) { a.elementsEqual($0) } })
    }

    @Test func fastPaths() {
        var clusters = LongClusters()
        #expect(ScreenCell(ascii: 0x41, .text).asciiByte == 0x41)
        #expect(ScreenCell("│", .chooser).singleScalar == 0x2502)
        #expect(ScreenCell("王", .text).singleScalar == 0x738B)
        #expect(ScreenCell("e\u{301}", .text, clusters: &clusters).singleScalar == nil)
        #expect(ScreenCell("", .text, clusters: &clusters).isContinuation)
        #expect(ScreenCell.same(.continuation(.text), in: clusters, ScreenCell("", .text, clusters: &clusters), in: clusters))
        var cell = ScreenCell("x", .text)
        cell.role = .selection
        #expect(cell.role == .selection && clusters.text(of: cell) == "x")
        // Short clusters never touch the table.
        #expect(clusters.count == 0)
    }

    /// A screen keeps its long clusters whole — a document of them lays out, reads back
    /// and goes to the backend (`text(of:)`) byte for byte — and owns them: a copy of the
    /// screen drawn on further does not change the original.
    @Test func longClustersReadBackExactly() throws {
        let line = Self.long.joined(separator: " ")
        let e = try makeEditor(line + "|", width: 30)
        let f = frame(e, width: 30)
        // Continuation cells read as "": the row is the line and its trailing blanks.
        #expect(textLines(f)[0].utf8.elementsEqual((line + String(repeating: " ", count: 20)).utf8))
        var column = 0
        for cluster in Self.long {
            #expect(f.screen.text(row: 1, column: column).utf8.elementsEqual(cluster.utf8), "\(cluster)")
            column += DisplayWidth.of(Character(cluster)) + 1
        }
        #expect(f.screen.clusters.count == Self.long.count)

        var screen = Screen(width: 8, height: 2)
        for (i, cluster) in Self.long.enumerated() { screen[i / 2, (i % 2) * 2] = screen.cell(cluster, .text) }
        var copy = screen
        copy[0, 0] = copy.cell("🧑‍🤝‍🧑", .text)
        #expect(screen.text(row: 0, column: 0) == "👨‍👩‍👧‍👦")
        #expect(copy.text(row: 0, column: 0) == "🧑‍🤝‍🧑")
        #expect(screen.lines[1].utf8.elementsEqual((Self.long[2] + " " + Self.long[3] + "     ").utf8))
    }

    /// Two screens number the same clusters apart (here one saw another cluster first):
    /// no row changed between them, and they are equal with equal hashes.
    @Test func sameLongClustersNumberedApartAreNoDamage() {
        var a = Screen(width: 10, height: 2)
        var b = Screen(width: 10, height: 2)
        _ = b.cell("🧑‍🤝‍🧑", .text)
        for (i, cluster) in Self.long.reversed().enumerated() { b[1, i * 2] = b.cell(cluster, .mention) }
        for (i, cluster) in Self.long.reversed().enumerated() { a[1, i * 2] = a.cell(cluster, .mention) }
        #expect(a.cells.withUnsafeBytes { x in b.cells.withUnsafeBytes { !x.elementsEqual($0) } })
        #expect((0 ..< 2).allSatisfy { b.changedColumns(row: $0, from: a) == nil })
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    /// Different long clusters under the same numbers, or where one screen has a long
    /// cluster and the other not, are changes — also when the two are canonically
    /// equivalent (equal as Strings) but different bytes to draw.
    @Test func differentLongClustersAreDamage() {
        var a = Screen(width: 10, height: 3)
        var b = Screen(width: 10, height: 3)
        a[0, 3] = a.cell("👨‍👩‍👧‍👦", .text)
        b[0, 3] = b.cell("🏳️‍🌈", .text)
        // Composed and decomposed: canonically equivalent, 10 and 11 bytes.
        let composed = "\u{E0}\u{301}\u{302}\u{303}\u{304}"
        let decomposed = "a\u{300}\u{301}\u{302}\u{303}\u{304}"
        #expect(composed == decomposed)
        a[1, 5] = a.cell(composed, .text)
        b[1, 5] = b.cell(decomposed, .text)
        // Both numbered 0, 1 in the same order: the first two rows are equal as memory.
        let twoRows = 2 * 10 * MemoryLayout<ScreenCell>.stride
        #expect(a.cells.withUnsafeBytes { x in b.cells.withUnsafeBytes { x[..<twoRows].elementsEqual($0[..<twoRows]) } })
        a[2, 7] = a.cell("👩🏽‍💻", .text)
        #expect((0 ..< 3).map { b.changedColumns(row: $0, from: a) } == [3 ..< 4, 5 ..< 6, 7 ..< 8])
        #expect(a != b)

        // The same number naming different clusters, the rest of the memory equal.
        var c = Screen(width: 4, height: 1)
        var d = Screen(width: 4, height: 1)
        c[0, 1] = c.cell("👨‍👩‍👧‍👦", .text)
        d[0, 1] = d.cell("🧑‍🤝‍🧑", .text)
        #expect(c.cells.withUnsafeBytes { x in d.cells.withUnsafeBytes { x.elementsEqual($0) } })
        #expect(d.changedColumns(row: 0, from: c) == 1 ..< 2)
        #expect(c != d)
    }
}
