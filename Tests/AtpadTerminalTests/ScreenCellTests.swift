import Testing
@testable import AtpadTerminal

/// Screen cells are 16-byte plain values compared as raw memory.
@Suite struct ScreenCellTests {
    @Test func aCellIsSixteenBytesWithoutPadding() {
        #expect(MemoryLayout<ScreenCell>.size == 16)
        #expect(MemoryLayout<ScreenCell>.stride == 16)
    }

    @Test(arguments: ["a", "é", "王", "👍🏽", "e\u{301}\u{302}", "👨‍👩‍👧‍👦", "🏳️‍🌈", "\u{1F469}\u{200D}\u{1F4BB}"])
    func textRoundTrips(_ text: String) {
        let cell = ScreenCell(text, .mention)
        #expect(cell.text == text)
        #expect(cell.role == .mention)
        #expect(!cell.isContinuation)
        // The same long cluster is stored once: equal cells are equal as memory too.
        let again = ScreenCell(text, .mention)
        #expect(cell == again)
        #expect([cell].withUnsafeBufferPointer { a in [again].withUnsafeBufferPointer { ScreenCell.same(a, $0) } })
    }

    @Test func fastPaths() {
        #expect(ScreenCell(ascii: 0x41, .text).asciiByte == 0x41)
        #expect(ScreenCell("│", .chooser).singleScalar == 0x2502)
        #expect(ScreenCell("王", .text).singleScalar == 0x738B)
        #expect(ScreenCell("e\u{301}", .text).singleScalar == nil)
        #expect(ScreenCell("", .text).isContinuation)
        var cell = ScreenCell("x", .text)
        cell.role = .selection
        #expect(cell.role == .selection && cell.text == "x")
    }
}
