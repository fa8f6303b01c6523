import Testing
@testable import AtpadCore

/// Line ends (docs/editor.md): every format passes CR LF, LF and lone CR through unchanged, so a
/// file read and written again has the bytes it had.
@Suite struct LineEndingFormatTests {
    static let mixed = "hi @[John Doe](u1)\r\nplain line\nlone\rcr\r\n\r\nlast @[Jane Roe](u2)\r"

    @Test func atpadReadAndWrittenGivesTheSameBytes() throws {
        for text in ["one\r\ntwo\r\n", "a\r\n", "\r\n\r\n", Self.mixed] {
            let bytes = Array(text.utf8)
            let doc = try DocumentFormat.atpad.decode(utf8: bytes).document
            #expect(DocumentFormat.atpad.encodeUTF8(doc) == bytes, "\(String(reflecting: text))")
        }
    }

    @Test func mentionsAfterCRLFKeepTheirPlaces() throws {
        let doc = try DocumentFormat.atpad.decode(Self.mixed).document
        #expect(doc.text == "hi @John Doe\r\nplain line\nlone\rcr\r\n\r\nlast @Jane Roe\r")
        #expect(doc.mentions.map(\.range) == [3 ..< 12, 41 ..< 50])
    }

    @Test func theOtherFormatsWriteTheLineEndsAsTheyAre() throws {
        let doc = markup(Self.mixed)
        let lookup = lookup(formatPeople)
        for format in [DocumentFormat.github, .slack, .discord, .markdown, .plain] {
            let written = format.encode(doc, lookup: lookup)
            for piece in ["\r\nplain line\nlone\rcr\r\n\r\nlast "] {
                #expect(written.contains(piece), "\(format): \(String(reflecting: written))")
            }
            // Shown as names (github shows handles), it is the same text.
            let read = lookup.showing(try format.decode(written, lookup: lookup).document, in: .atpad)
            #expect(read.text == doc.text, "\(format) reads back the same text")
        }
    }

    @Test func jsonKeepsCRLFInItsText() throws {
        let doc = markup(Self.mixed)
        let written = DocumentFormat.json.encode(doc)
        #expect(written.contains(#"\r\nplain line\nlone\rcr\r\n\r\nlast"#))
        #expect(try DocumentFormat.json.decode(written).document == doc)
    }
}
