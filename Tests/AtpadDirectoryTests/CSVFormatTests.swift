import AtpadCore
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

private func parse(_ text: String) throws -> [Entity] {
    try DirectoryFile.entities(fromCSV: Array(text.utf8), path: "people.csv")
}

/// The one-line description of the error parsing `bytes` throws, or nil when it parses.
private func failure(_ bytes: [UInt8]) -> String? {
    thrown(DirectoryError.self) { _ = try DirectoryFile.entities(fromCSV: bytes, path: "people.csv") }?.description
}

private func failure(_ text: String) -> String? {
    failure(Array(text.utf8))
}

@Suite struct CSVFormatTests {
    @Test func readsRowsUnderAHeader() throws {
        let entities = try parse("""
        id,name,handle,detail,url
        u1,John Doe,jdoe,iOS engineer,https://example.com/jdoe
        u2,Jane Roe,,,

        """)
        #expect(entities == [
            Entity(id: "u1", name: "John Doe", handle: "jdoe", detail: "iOS engineer", url: "https://example.com/jdoe"),
            Entity(id: "u2", name: "Jane Roe"),
        ])
    }

    @Test func headerColumnsInAnyOrderAnyCaseUnknownIgnoredOptionalMissing() throws {
        let entities = try parse("""
        Team, NAME ,avatar,Id
        core,John Doe,x.png,u1
        """)
        #expect(entities == [Entity(id: "u1", name: "John Doe")])
    }

    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let entities = try parse(#"""
        id,name,detail
        u1,"Doe, John","He said ""hi"""
        u2,"Jane
        Roe","two
        lines"
        "u3",Plain,""
        """#)
        #expect(entities == [
            Entity(id: "u1", name: "Doe, John", detail: "He said \"hi\""),
            Entity(id: "u2", name: "Jane\nRoe", detail: "two\nlines"),
            Entity(id: "u3", name: "Plain"),
        ])
    }

    @Test func spacesAroundFieldsAreDroppedUnlessQuoted() throws {
        let entities = try parse("id , name , detail\n u1 ,  John Doe\t, \"  padded  \" \n")
        #expect(entities == [Entity(id: "u1", name: "John Doe", detail: "  padded  ")])
    }

    @Test func aQuoteInsideAnUnquotedFieldIsKept() throws {
        #expect(try parse("id,name\nu1,Dwayne \"The Rock\" Johnson\n").first?.name == "Dwayne \"The Rock\" Johnson")
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("id,name\r\nu1,Zoë\r\nu2,\"A\r\nB\"\r\n".utf8)
        #expect(try DirectoryFile.entities(fromCSV: bytes, path: "p") == [
            Entity(id: "u1", name: "Zoë"), Entity(id: "u2", name: "A\r\nB"),
        ])
    }

    @Test func loneCarriageReturnsEndRows() throws {
        #expect(try parse("id,name\ru1,A\ru2,B").map(\.id) == ["u1", "u2"])
        #expect(failure("id,name\ru1,A\ru2") == "people.csv:3: row has 1 field, the header has 2")
    }

    @Test func blankLinesAreSkipped() throws {
        #expect(try parse("\n\nid,name\n\nu1,A\n  \n\nu2,B\n\n").map(\.id) == ["u1", "u2"])
    }

    @Test func emptyFileOrHeaderOnlyIsAnEmptyDirectory() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse(" \n\r\n").isEmpty)
        #expect(try parse("id,name\n").isEmpty)
        #expect(try DirectoryFile.entities(fromCSV: [0xEF, 0xBB, 0xBF], path: "p").isEmpty)
    }

    @Test func missingNameOrIdInARow() {
        #expect(failure("id,name\nu1,A\nu2,B\nu3,C\nu4,D\nu5,E\nu6,\n") == #"people.csv:7: row has no "name""#)
        #expect(failure("id,name\nu1,  \n") == #"people.csv:2: row has no "name""#)
        #expect(failure("name,id\nA,\n") == #"people.csv:2: row has no "id""#)
    }

    @Test func headerProblems() {
        #expect(failure("id,handle\nu1,x\n")
            == #"people.csv:1: the header has no "name" column (the first row names the columns: id,name and optionally handle,detail,url)"#)
        #expect(failure("u1,John Doe\n")?.hasPrefix(#"people.csv:1: the header has no "id" column"#) == true)
        #expect(failure("\nid,name,Name\n") == #"people.csv:2: the header names the column "name" twice"#)
    }

    @Test func rowsWithTooManyOrTooFewFields() {
        #expect(failure("id,name,handle\nu1,A,a\nu2,B\n") == "people.csv:3: row has 2 fields, the header has 3")
        #expect(failure("id,name\nu1,A,extra\n") == "people.csv:2: row has 3 fields, the header has 2")
        #expect(failure("id,name\nu1,A,\n") == "people.csv:2: row has 3 fields, the header has 2")
        // The line named is where the row starts, even after a quoted line break.
        #expect(failure("id,name\nu1,\"A\nB\"\nu2\n") == "people.csv:4: row has 1 field, the header has 2")
    }

    @Test func unterminatedQuoteNamesWhereItOpened() {
        #expect(failure("id,name,detail\nu1,A,x\nu2,\"B,x\nu3,C,y\n")
            == #"people.csv:3: the quoted "name" field is never closed (a '"' is missing)"#)
        #expect(failure("id,name,\"detail\nu1,A,x\n")
            == #"people.csv:1: the quoted field 3 is never closed (a '"' is missing)"#)
    }

    @Test func textAfterAClosingQuote() {
        #expect(failure("id,name\nu1,\"John\" Doe\n")
            == #"people.csv:2: "name" field: unexpected 'Doe' after the closing quote (a quote inside a quoted field is written "")"#)
    }

    @Test func invalidUTF8NamesItsLine() {
        let bytes = Array("id,name\nu1,A\nu2,".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        #expect(failure(bytes) == "people.csv:3: not valid UTF-8 (byte 0xC3 at offset 16)")
        // Overlong forms and surrogates are refused too.
        #expect(failure(Array("id,name\nu1,".utf8) + [0xC0, 0xAF]) != nil)
        #expect(failure(Array("id,name\nu1,".utf8) + [0xED, 0xA0, 0x80]) != nil)
    }

    @Test func controlCharactersInMessagesAreEscaped() throws {
        let message = try #require(failure("id,name\nu1,\"A\" \u{1B}[31m\n"))
        #expect(!message.contains("\u{1B}"))
        #expect(message.contains("\\u{1B}"))
    }
}
