import Foundation
import Testing
@testable import AtpadCore

/// The `adf` document of atpad markup `source` as written (read as `jira`, not Markdown:
/// the Markdown path is ComposerFormatsTests'), parsed back as JSON.
private func adf(_ source: String) throws -> [String: Any] {
    let bytes = DocumentFormat.adf.encodeUTF8(markup(source), from: .jira)
    return try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}

/// The paragraphs of an `adf` document as compact strings: text as it is, a mention as
/// `<id|text>`, a hard break as `⏎`.
private func paragraphs(_ source: String) throws -> [String] {
    let doc = try adf(source)
    #expect(doc["type"] as? String == "doc")
    #expect(doc["version"] as? Int == 1)
    let content = try #require(doc["content"] as? [[String: Any]])
    return try content.map { paragraph in
        #expect(paragraph["type"] as? String == "paragraph")
        let nodes = try #require(paragraph["content"] as? [[String: Any]])
        return try nodes.map { node -> String in
            switch node["type"] as? String {
            case "text":
                let text = try #require(node["text"] as? String)
                #expect(!text.isEmpty, "ADF refuses empty text nodes")
                return text
            case "mention":
                let attrs = try #require(node["attrs"] as? [String: String])
                #expect(attrs.count == 2)
                return "<\(attrs["id"] ?? "?")|\(attrs["text"] ?? "?")>"
            case "hardBreak":
                return "⏎"
            default:
                Issue.record("unexpected node \(node)")
                return "?"
            }
        }.joined()
    }
}

@Suite("adf format")
struct ADFFormatTests {
    @Test func mentionsAreMentionNodesWithTheAccountIDAndTheShownText() throws {
        #expect(try paragraphs("hi @[John Doe](5b10a2844c20165700ede21g), see @[Ann](557058:f581-31cb)!")
            == ["hi <5b10a2844c20165700ede21g|@John Doe>, see <557058:f581-31cb|@Ann>!"])
        // The exact bytes, keys in the order Jira's own examples give them.
        #expect(DocumentFormat.adf.encode(markup("hi @[John Doe](u1)")) == #"""
            {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": "hi "}, {"type": "mention", "attrs": {"id": "u1", "text": "@John Doe"}}]}]}
            """#)
    }

    @Test func blankLinesSeparateParagraphsAndSingleNewlinesAreHardBreaks() throws {
        #expect(try paragraphs("one\ntwo\n\nthree") == ["one⏎two", "three"])
        // Several blank lines, lines of spaces, and blank lines at the ends make no empty paragraph.
        #expect(try paragraphs("\n\none\n \t\n\n\ntwo\n\n") == ["one", "two"])
        // CRLF is one break.
        #expect(try paragraphs("a\r\nb\r\n\r\nc") == ["a⏎b", "c"])
        // A line that is only a mention is not blank.
        #expect(try paragraphs("a\n\n@[Bo](u9)\nb") == ["a", "<u9|@Bo>⏎b"])
        #expect(try paragraphs("@[Bo](u9)\n@[Al](u8)") == ["<u9|@Bo>⏎<u8|@Al>"])
    }

    @Test func anEmptyDocumentHasNoContent() throws {
        #expect(DocumentFormat.adf.encode(MarkedText()) == #"{"type": "doc", "version": 1, "content": []}"#)
        #expect(try paragraphs("\n\n  \n") == [])
    }

    @Test func textIsEscapedForJSONAndNotReadAsMarkup() throws {
        let source = "quote \" back \\ tab\tbell \u{7} <b>&amp; *bold* [~accountid:x] {code}"
        #expect(try paragraphs(source) == [source])
        let text = DocumentFormat.adf.encode(markup(source))
        // Control characters never reach the JSON raw.
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
        // A name with quotes and backslashes stays one string.
        #expect(try paragraphs(#"@[A "B" \\ C](u1)"#) == [#"<u1|@A "B" \ C>"#])
    }

    @Test func emojiAndOtherScriptsAreKeptWhole() throws {
        #expect(try paragraphs("ship it 🚀👩‍👩‍👧 @[王伟](u3) 🇫🇷") == ["ship it 🚀👩‍👩‍👧 <u3|@王伟> 🇫🇷"])
    }

    @Test func mentionsJiraCannotTakeAreText() throws {
        // As the jira format: an id Jira could not read is not a mention.
        #expect(try paragraphs("@[A](a]b) and @[B](ok)") == ["@A and <ok|@B>"])
    }

    @Test func onlyPeopleAreMentionNodes() throws {
        // A channel is not a user: Jira would show an unknown user.
        #expect(try paragraphs("#[general](C1) and @[Bo](u9)") == ["#general and <u9|@Bo>"])
    }

    @Test func isOutputOnlyAndRefusesBytesThatAreNotUTF8() throws {
        #expect(DocumentFormat.adf.isOutputOnly)
        #expect(throws: FormatError.self) { try DocumentFormat.adf.decode("x") }
        let withBytes = try DocumentFormat.github.decode(bytes: [0x61, 0xE9]).document
        #expect(throws: FormatError.self) { try DocumentFormat.adf.encodeBytes(withBytes) }
    }
}
