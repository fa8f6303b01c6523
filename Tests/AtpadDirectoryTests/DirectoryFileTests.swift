import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory

private func parse(_ text: String, path: String = "people.json") throws -> [Entity] {
    try DirectoryFile.entities(fromJSON: Array(text.utf8), path: path)
}

/// The error parsing `text` throws, or nil when it parses.
private func error(_ text: String) -> DirectoryError? {
    error(Array(text.utf8))
}

private func error(_ bytes: [UInt8]) -> DirectoryError? {
    do {
        _ = try DirectoryFile.entities(fromJSON: bytes, path: "people.json")
        return nil
    } catch let error as DirectoryError {
        return error
    } catch {
        Issue.record("unexpected error type \(error)")
        return nil
    }
}

@Suite struct DirectoryFileTests {
    @Test func readsEntities() throws {
        let entities = try parse("""
        [
          {"id": "u42", "name": "John Doe", "handle": "jdoe", "detail": "iOS engineer", "url": "https://example.com/jdoe"},
          {"id": "u43", "name": "Jane Doe"}
        ]
        """)
        #expect(entities == [
            Entity(id: "u42", name: "John Doe", handle: "jdoe", detail: "iOS engineer", url: "https://example.com/jdoe"),
            Entity(id: "u43", name: "Jane Doe"),
        ])
    }

    @Test func optionalFieldsMayBeNullOrEmptyAndUnknownKeysAreIgnored() throws {
        let entities = try parse("""
        [{"id": "a", "name": "A", "handle": null, "detail": "", "url": null, "avatar": {"size": [1, 2.5e3]}, "admin": true}]
        """)
        #expect(entities == [Entity(id: "a", name: "A")])
    }

    @Test func integerIdsBecomeTheirDecimalString() throws {
        let entities = try parse(#"[{"id": 42, "name": "A"}, {"id": -7, "name": "B"}]"#)
        #expect(entities.map(\.id) == ["42", "-7"])
    }

    @Test func escapesAndControlCharactersAreKeptAsData() throws {
        let entities = try parse(#"[{"id": "x\"y", "name": "Evil\u001b[31m\tName \ud83d\ude00 \u00e9\/"}]"#)
        #expect(entities.first?.id == "x\"y")
        #expect(entities.first?.name == "Evil\u{1B}[31m\tName 😀 é/")
        // A raw tab inside a string is accepted too.
        #expect(try parse("[{\"id\": \"t\", \"name\": \"a\tb\"}]").first?.name == "a\tb")
    }

    @Test func emptyFileAndEmptyArrayAreEmptyDirectories() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse(" \n\t\r\n").isEmpty)
        #expect(try parse("[]").isEmpty)
        #expect(try parse("[ \n ]\n").isEmpty)
        #expect(try DirectoryFile.entities(fromJSON: [0xEF, 0xBB, 0xBF], path: "p").isEmpty)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"[{"id": "u1", "name": "Zoë"}]"#.utf8)
        #expect(try DirectoryFile.entities(fromJSON: bytes, path: "p") == [Entity(id: "u1", name: "Zoë")])
    }

    @Test func syntaxErrorNamesTheLine() throws {
        let failure = try #require(error("""
        [
          {"id": "u1", "name": "A"},
          {"id": "u2" "name": "B"}
        ]
        """))
        #expect(failure.line == 3)
        #expect(failure.description.hasPrefix("people.json:3: not valid JSON: "))
        #expect(failure.description.contains("expected ',' or '}'"))
    }

    @Test(arguments: [
        ("[\n{\"id\": \"u1\", \"name\": \"A\"},\n]", 3, "trailing comma"),
        ("[\n{\"id\": \"u1\", \"name\": \"A\"}\n", 3, "not closed"),
        ("[\n{\"id\": \"u1\", \"name\": \"A}\n]", 2, "line break inside a string"),
        ("[\n{\"id\": \"u1\", \"name\": \"A\\q\"}]", 2, "invalid escape"),
        ("[\n\n{\"id\": 01, \"name\": \"A\"}]", 3, "invalid number"),
        ("[{\"id\": \"u1\", \"name\": \"A\"}]\n[]", 2, "after the array"),
        ("[\n{\"id\": \"u1\", \"name\": nul}]", 2, "expected a value"),
        ("[\n{\"id\": \"\\ud800\", \"name\": \"A\"}]", 2, "surrogate"),
        ("{\"id\": \"u1\", \"name\": \"A\"}", 1, "expected a JSON array"),
        ("\n\n  \"people\"", 3, "expected a JSON array"),
    ])
    func syntaxErrors(text: String, line: Int, fragment: String) throws {
        let failure = try #require(error(text))
        #expect(failure.line == line, "\(failure)")
        #expect(failure.description.contains(fragment), "\(failure)")
        #expect(!failure.description.contains("\n"))
    }

    @Test func missingIdNamesTheEntryAndItsLine() throws {
        let failure = try #require(error("""
        [
          {"name": "A"}
        ]
        """))
        #expect(failure.description == #"people.json:2: entry 1 has no "id""#)
    }

    @Test func missingNameNamesTheEntryAndItsLine() throws {
        let failure = try #require(error("""
        [
          {"id": "u1", "name": "A"},
          {"id": "u2", "name": "B"},
          {"id": "u3", "name": "C"},
          {"id": "u4", "handle": "d"}
        ]
        """))
        #expect(failure.description == #"people.json:5: entry 4 has no "name""#)
    }

    @Test func wrongTypesNameTheField() throws {
        #expect(error("[\n{\"id\": \"u1\", \"name\": \"A\", \"handle\": 5}]")?.description
            == #"people.json:2: entry 1: "handle" must be a string or null, not the number 5"#)
        #expect(error("[{\"id\": \"u1\",\n \"name\": [\"A\"]}]")?.description
            == #"people.json:2: entry 1: "name" must be a string, not an array"#)
        #expect(error("[{\"id\": 4.5, \"name\": \"A\"}]")?.description
            == #"people.json:1: entry 1: "id" must be a string or an integer, not the number 4.5"#)
        #expect(error("[{\"id\": null, \"name\": \"A\"}]")?.description
            == #"people.json:1: entry 1: "id" must be a string or an integer, not null"#)
        #expect(error("[{\"id\": \"u1\", \"name\": \"A\", \"url\": false}]")?.description
            == #"people.json:1: entry 1: "url" must be a string or null, not false"#)
    }

    @Test func emptyRequiredFieldsAreErrors() throws {
        #expect(error(#"[{"id": "", "name": "A"}]"#)?.description == #"people.json:1: entry 1 has an empty "id""#)
        #expect(error(#"[{"id": "u1", "name": "  "}]"#)?.description == #"people.json:1: entry 1 has an empty "name""#)
    }

    @Test func entryThatIsNotAnObject() throws {
        #expect(error("[\n{\"id\": \"u1\", \"name\": \"A\"},\n \"u2\"]")?.description
            == "people.json:3: entry 2 is not an object but a string")
    }

    @Test func repeatedFieldIsAnError() throws {
        #expect(error(#"[{"id": "u1", "name": "A", "name": "B"}]"#)?.description
            == #"people.json:1: entry 1 has "name" twice"#)
    }

    @Test func invalidUTF8IsReportedWithItsLine() throws {
        let bytes = Array("[\n{\"id\": \"u1\", \"name\": \"".utf8) + [0xC3, 0x28] + Array("\"}]".utf8)
        let failure = try #require(error(bytes))
        #expect(failure.line == 2)
        #expect(failure.description.contains("not valid UTF-8"))
        // Overlong forms and surrogates are not UTF-8 either.
        #expect(error([0x5B, 0xC0, 0xAF, 0x5D]) != nil)
        #expect(error([0x5B, 0xED, 0xA0, 0x80, 0x5D]) != nil)
        #expect(error([0x5B, 0xF4, 0x90, 0x80, 0x80, 0x5D]) != nil)
    }

    @Test func controlCharactersInMessagesAreShownEscaped() throws {
        let failure = try #require(error("[\u{1B}]"))
        #expect(!failure.description.contains("\u{1B}"))
        #expect(failure.description.contains("\\u{1B}"))
    }

    @Test func deepNestingIsRefused() throws {
        let deep = "[{\"id\": \"u1\", \"name\": \"A\", \"x\": " + String(repeating: "[", count: 5000) + "]"
        #expect(error(deep)?.description.contains("nested more than") == true)
    }

    @Test func loadsFromAPathAndReportsMissingFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("people.json")
        try Data(#"[{"id": "u1", "name": "A"}]"#.utf8).write(to: file)

        #expect(try DirectoryFile.load(path: file.path) == [Entity(id: "u1", name: "A")])
        #expect(try DirectoryFile.load(contentsOf: file) == [Entity(id: "u1", name: "A")])

        let missing = folder.appendingPathComponent("nobody.json").path
        #expect(throws: DirectoryError(path: missing, line: nil, message: "no such file")) {
            try DirectoryFile.load(path: missing)
        }
        #expect(throws: DirectoryError.self) { try DirectoryFile.load(path: folder.path) }
    }

    @Test func descriptionUsesThePathAsGiven() {
        let failure = DirectoryError(path: "dir/people.json", line: 12, message: #"entry 4 has no "name""#)
        #expect(failure.description == #"dir/people.json:12: entry 4 has no "name""#)
        #expect(DirectoryError(path: "p.json", line: nil, message: "no such file").description == "p.json: no such file")
    }
}
