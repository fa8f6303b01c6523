import AtpadCore
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

/// Huge lines and fields must load (or fail with one line), never crash or go quadratic.
/// 5 MB stands in for the 100 MB line of the brief: the code paths are the same.
@Suite struct LargeInputTests {
    static let size = 5_000_000
    static let longName = String(repeating: "Zoë Ångström ", count: size / 16)

    @Test func aHugeNameInEveryFormat() throws {
        let name = Self.longName
        let json = Array("[{\"id\": \"u1\", \"name\": \"\(name)\"}]".utf8)
        let ndjson = Array("{\"id\": \"u1\", \"name\": \"\(name)\"}\n".utf8)
        let csv = Array("id,name\nu1,\"\(name)\"\n".utf8)
        for (bytes, format) in [(json, DirectoryFormat.json), (ndjson, .ndjson), (csv, .csv)] {
            let entities = try DirectoryFile.entities(from: bytes, format: format, path: "big")
            #expect(entities.count == 1)
            #expect(entities.first?.name == name, "\(format)")
        }
        // And it ranks.
        let directory = FileDirectory(entities: [Entity(id: "u1", name: name)])
        #expect(directory.rank("zoe ang").count == 1)
    }

    @Test func aHugeLineWithAnErrorAtItsEnd() {
        let junk = String(repeating: "x", count: Self.size)
        let ndjson = Array("{\"id\": \"u1\", \"name\": \"A\", \"note\": \"\(junk)\" oops}\n".utf8)
        let error = thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromNDJSON: ndjson, path: "big.ndjson") }
        #expect(error?.description == "big.ndjson:1: not valid JSON: expected ',' or '}' after \"note\", found 'oops}'")

        let csv = Array("id,name\nu1,\"\(junk)\n".utf8)
        let unclosed = thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromCSV: csv, path: "big.csv") }
        #expect(unclosed?.description == #"big.csv:2: the quoted "name" field is never closed (a '"' is missing)"#)
    }

    @Test func aHugeLineOfOnlyJunk() {
        let junk = Array(repeating: UInt8(ascii: "#"), count: Self.size)
        #expect(thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromJSON: junk, path: "j") } != nil)
        #expect(thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromNDJSON: junk, path: "n") } != nil)
        #expect(thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromCSV: junk, path: "c") }?.description
            == #"c:1: the header has no "id" column (the first row names the columns: id,name and optionally handle,detail,url)"#)
    }

    @Test func deepNestingInAnUnknownFieldIsRefused() {
        let deep = "{\"id\": \"u1\", \"name\": \"A\", \"x\": " + String(repeating: "[", count: 100_000) + "\n"
        let error = thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromNDJSON: Array(deep.utf8), path: "n") }
        #expect(error?.description.contains("nested more than") == true)
    }

    @Test func manyEntriesLoadInOrder() throws {
        var text = "id,name,handle\n"
        for number in 0 ..< 50_000 { text += "u\(number),Person \(number),p\(number)\n" }
        let entities = try DirectoryFile.entities(fromCSV: Array(text.utf8), path: "many.csv")
        #expect(entities.count == 50_000)
        #expect(entities[49_999] == Entity(id: "u49999", name: "Person 49999", handle: "p49999"))
    }
}
