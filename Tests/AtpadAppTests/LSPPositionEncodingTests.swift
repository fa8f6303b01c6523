@testable import AtpadApp
import AtpadCore
import Testing

/// LSP positions against the editor's scalar offsets (docs/editors.md): UTF-16 units by
/// default, UTF-8 bytes when offered, clamped to the line's end as the protocol says.
@Suite struct LSPPositionEncodingTests {
    private let storage = TextStorage(MarkedText(text: "a👋é\r\nsecond\nthird"))

    private func at(_ encoding: LSPPositionEncoding, _ offset: Int) -> [Int] {
        let p = encoding.position(of: offset, in: storage)
        return [p.line, p.character]
    }

    @Test func utf16CountsSurrogatePairsAsTwo() {
        #expect(LSPPositionEncoding.utf16.offset(line: 0, character: 3, in: storage) == 2)
        #expect(at(.utf16, 2) == [0, 3])
        #expect(at(.utf16, 3) == [0, 4])
    }

    @Test func utf8CountsBytes() {
        #expect(LSPPositionEncoding.utf8.offset(line: 0, character: 5, in: storage) == 2)
        #expect(LSPPositionEncoding.utf8.offset(line: 0, character: 7, in: storage) == 3)
        #expect(at(.utf8, 3) == [0, 7])
    }

    @Test func aCharacterPastTheEndIsTheLineEndBeforeCRLF() {
        #expect(LSPPositionEncoding.utf16.offset(line: 0, character: 99, in: storage) == 3)
        #expect(LSPPositionEncoding.utf16.offset(line: 1, character: 0, in: storage) == 5)
        #expect(at(.utf16, 11) == [1, 6])
    }

    @Test func aLinePastTheEndIsNil() {
        #expect(LSPPositionEncoding.utf16.offset(line: 3, character: 0, in: storage) == nil)
        #expect(LSPPositionEncoding.utf16.offset(line: 2, character: 5, in: storage) == storage.count)
    }

    @Test func theClientsOfferDecides() {
        #expect(LSPPositionEncoding.chosen(from: nil) == .utf16)
        #expect(LSPPositionEncoding.chosen(from: ["utf-16"]) == .utf16)
        #expect(LSPPositionEncoding.chosen(from: ["utf-32", "utf-8"]) == .utf8)
    }
}
