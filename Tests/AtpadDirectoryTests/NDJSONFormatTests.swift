import AtpadCore
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

private func parse(_ text: String) throws -> [Entity] {
    try DirectoryFile.entities(fromNDJSON: Array(text.utf8), path: "people.ndjson")
}

/// The one-line description of the error parsing `bytes` throws, or nil when it parses.
private func failure(_ bytes: [UInt8]) -> String? {
    thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromNDJSON: bytes, path: "people.ndjson") }?.description
}

private func failure(_ text: String) -> String? {
    failure(Array(text.utf8))
}

@Suite struct NDJSONFormatTests {
    @Test func readsOneEntityPerLine() throws {
        let entities = try parse("""
        {"id": "u1", "name": "John Doe", "handle": "jdoe", "detail": "iOS", "url": "https://e.com/j"}
        {"id": 2, "name": "Jane Roe", "handle": null, "extra": {"nested": [1, 2]}}
        """)
        #expect(entities == [
            Entity(id: "u1", name: "John Doe", handle: "jdoe", detail: "iOS", url: "https://e.com/j"),
            Entity(id: "2", name: "Jane Roe"),
        ])
    }

    @Test func blankLinesAndCRLFAreFine() throws {
        let text = "\r\n{\"id\": \"a\", \"name\": \"A\"}\r\n   \n\t\r\n{\"id\": \"b\", \"name\": \"B\"}\r\n\r\n"
        #expect(try parse(text).map(\.id) == ["a", "b"])
    }

    @Test func lastLineNeedsNoNewline() throws {
        #expect(try parse("{\"id\": \"a\", \"name\": \"A\"}").map(\.id) == ["a"])
    }

    @Test func emptyFileIsAnEmptyDirectory() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse("\n\n  \n").isEmpty)
        #expect(try DirectoryFile.entities(fromNDJSON: [0xEF, 0xBB, 0xBF], path: "p").isEmpty)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"id\": \"u1\", \"name\": \"Zoë\"}\n".utf8)
        #expect(try DirectoryFile.entities(fromNDJSON: bytes, path: "p") == [Entity(id: "u1", name: "Zoë")])
    }

    @Test func errorsNameTheLine() {
        let text = """
        {"id": "u1", "name": "A"}

        {"id": "u3", "handle": "c"}
        """
        #expect(failure(text) == #"people.ndjson:3: the entity has no "name""#)
    }

    @Test(arguments: [
        (#"{"name": "A"}"#, #"people.ndjson:1: the entity has no "id""#),
        (#"{"id": "", "name": "A"}"#, #"people.ndjson:1: the entity has an empty "id""#),
        (#"{"id": "a", "name": " "}"#, #"people.ndjson:1: the entity has an empty "name""#),
        (#"{"id": "a", "name": 5}"#, #"people.ndjson:1: "name" must be a string, not the number 5"#),
        (#"{"id": true, "name": "A"}"#, #"people.ndjson:1: "id" must be a string or an integer, not true"#),
        (#"{"id": "a", "name": "A", "url": []}"#, #"people.ndjson:1: "url" must be a string or null, not an array"#),
        (#"{"id": "a", "name": "A", "id": "b"}"#, #"people.ndjson:1: the entity has "id" twice"#),
    ])
    func wrongFields(line: String, expected: String) {
        #expect(failure(line) == expected)
    }

    @Test func aLineThatIsNotAnObject() {
        #expect(failure("{\"id\": \"a\", \"name\": \"A\"}\n\"u2\"\n")
            == "people.ndjson:2: expected one entity object per line, found a string")
        #expect(failure("[\n{\"id\": \"a\", \"name\": \"A\"}\n]")?
            .hasPrefix("people.ndjson:1: expected one entity object per line, found an array (is this a JSON array file?") == true)
    }

    @Test func syntaxErrors() {
        #expect(failure("{\"id\": \"a\", \"name\": \"A\"} {\"id\": \"b\", \"name\": \"B\"}")
            == "people.ndjson:1: not valid JSON: unexpected '{\"id\": \"b\"' after the object (one object per line)")
        // An object spread over lines is not NDJSON; the message says the line ended.
        #expect(failure("{\"id\": \"a\",\n\"name\": \"A\"}")
            == "people.ndjson:1: not valid JSON: expected a quoted key, found end of line")
        #expect(failure("{\"id\": \"a\", \"name\": \"A}\n") == "people.ndjson:1: not valid JSON: unterminated string")
        #expect(failure("\n\n{\"id\": \"a\", \"name\": \"A\",}")
            == "people.ndjson:3: not valid JSON: trailing comma before '}'")
    }

    @Test func invalidUTF8NamesItsLine() {
        let bytes = Array("{\"id\": \"a\", \"name\": \"A\"}\n{\"id\": \"b\", \"name\": \"".utf8) + [0xFF] + Array("\"}\n".utf8)
        #expect(failure(bytes) == "people.ndjson:2: not valid UTF-8 (byte 0xFF at offset 46)")
    }

    @Test func aLoneCarriageReturnDoesNotEndALine() throws {
        // NDJSON lines end at line feeds; a carriage return between tokens is whitespace.
        #expect(try parse("{\"id\": \"a\",\r\"name\": \"A\"}\n").map(\.id) == ["a"])
        #expect(failure("{\"id\": \"a\", \"name\": \"A\"}\r{\"x\": 1}\n\n{}")
            == "people.ndjson:1: not valid JSON: unexpected '{\"x\": 1}' after the object (one object per line)")
    }
}
