import Testing
@testable import AtpadCore

@Suite("json format reading")
struct JSONDecodingTests {
    func decode(_ json: String) throws -> DecodedDocument {
        try DocumentFormat.json.decode(json)
    }

    @Test func specExample() throws {
        let read = try decode("""
            {"text": "Thanks @John Doe", "mentions": [{"trigger": "@", "id": "u42", "name": "John Doe", \
            "start": 7, "end": 16, "utf16": [7, 16], "utf8": [7, 16]}]}
            """)
        #expect(read.document == markup("Thanks @[John Doe](u42)"))
        #expect(read.notes.isEmpty)
    }

    @Test func mentionsMayBeMissingOrUnordered() throws {
        #expect(try decode(#"{"text": "hi"}"#).document == MarkedText(text: "hi"))
        let read = try decode("""
            {"mentions": [{"trigger": "#", "id": "c", "name": "b", "start": 3, "end": 5},
                          {"trigger": "@", "id": "u", "name": "a", "start": 0, "end": 2}], "text": "@a #b"}
            """)
        #expect(summary(read.document) == ["@u a 0", "#c b 3"])
    }

    @Test func handleAndURLAreKept() throws {
        let read = try decode(#"{"text": "@a", "mentions": [{"trigger": "@", "id": "u", "name": "a", "start": 0, "end": 2, "handle": "ah", "url": "https://a"}]}"#)
        #expect(read.document.mentions.first?.handle == "ah")
        #expect(read.document.mentions.first?.url == "https://a")
    }

    @Test func offsetsCountScalars() throws {
        let read = try decode(#"{"text": "👩‍💻 e\u0301 @王伟", "mentions": [{"trigger": "@", "id": "w", "name": "王伟", "start": 7, "end": 10}]}"#)
        #expect(summary(read.document) == ["@w 王伟 7"])
    }

    @Test func structuralProblemsAreErrorsNamingTheLine() {
        #expect(throws: FormatError("line 2: unexpected end of file, expected a value")) { try decode("{\"text\":\n") }
        #expect(throws: FormatError("line 1: expected an object with \"text\" and \"mentions\", found an array")) { try decode("[]") }
        #expect(throws: FormatError("line 1: the object has no \"text\"")) { try decode("{}") }
        #expect(throws: FormatError("line 1: \"text\" must be a string, found the number 1")) { try decode(#"{"text": 1}"#) }
        #expect(throws: FormatError("line 1: \"mentions\" must be an array, found null")) { try decode(#"{"text": "", "mentions": null}"#) }
        #expect(throws: FormatError("line 1: unexpected 'x' after the value")) { try decode(#"{"text": ""} x"#) }
    }

    @Test func invalidMentionsAreDroppedWithANote() throws {
        let read = try decode("""
            {"text": "@ab @cd e\\u0301f @gh", "mentions": [
              {"trigger": "@", "id": "1", "name": "ab", "start": 0, "end": 3},
              {"trigger": "@", "id": "2", "name": "ab", "start": 1, "end": 4},
              {"trigger": "@", "id": "3", "name": "xy", "start": 4, "end": 7},
              {"trigger": "@", "id": "4", "name": "gh", "start": 90, "end": 93},
              {"trigger": "@", "id": "5", "name": "\\u0301f", "start": 9, "end": 12},
              {"trigger": "@@", "id": "6", "name": "a", "start": 0, "end": 2},
              {"trigger": "@", "id": "", "name": "a", "start": 0, "end": 2},
              {"trigger": "@", "id": "8", "name": "gh", "start": 12, "end": 14},
              {"trigger": "@", "id": "9", "name": "gh", "start": 1.5, "end": 4}
            ]}
            """)
        #expect(read.document.text == "@ab @cd e\u{301}f @gh")
        #expect(summary(read.document) == ["@1 ab 0"])
        #expect(read.notes == ["""
            8 invalid mentions were dropped (their text is kept): \
            mention 2 (2): range 1..<4 overlaps the mention before it; \
            mention 3 (3): range 4..<7 holds "@cd", not "@xy"; \
            mention 4 (4): range 90..<93 is past the end of the text; \
            and 5 more
            """])
    }

    @Test func eachKindOfMisfitIsExplained() throws {
        func why(_ mention: String, text: String) throws -> String? {
            try decode(#"{"text": \#(JSONText.quote(text)), "mentions": [\#(mention)]}"#).notes.first
        }
        #expect(try why(#"{"trigger": "@", "id": "2", "name": "ab", "start": 1, "end": 4}"#, text: "@ab @ab")
            == #"1 invalid mention was dropped (their text is kept): mention 1 (2): range 1..<4 holds "ab ", not "@ab""#)
        #expect(try why(#"{"trigger": "@", "id": "2", "name": "ab", "start": 90, "end": 93}"#, text: "@ab")
            == "1 invalid mention was dropped (their text is kept): mention 1 (2): range 90..<93 is past the end of the text")
        #expect(try why(#"{"trigger": "@", "id": "2", "name": "e", "start": 0, "end": 2}"#, text: "@e\u{301}")
            == "1 invalid mention was dropped (their text is kept): mention 1 (2): range 0..<2 splits a character")
        let overlap = try decode(#"{"text": "@ab", "mentions": [{"trigger": "@", "id": "1", "name": "ab", "start": 0, "end": 3}, {"trigger": "@", "id": "2", "name": "a", "start": 0, "end": 2}]}"#)
        #expect(overlap.notes == ["1 invalid mention was dropped (their text is kept): mention 2 (2): range 0..<2 overlaps the mention before it"])
    }

    /// Issue 32: a json file's final newline, or its absence, is kept: reading keeps the
    /// blanks after the object as the document's `ending`, and writing json puts it back,
    /// so open and save without edits gives the same bytes. Other formats write no ending.
    @Test func theFinalNewlineOrItsAbsenceComesBack() throws {
        let doc = markup("Thanks @[John Doe](u42)\n")
        let object = DocumentFormat.json.encodeUTF8(doc)
        for ending in ["", "\n", "\r\n", "\n\n", " \n"] {
            let file = object + Array(ending.utf8)
            let read = try DocumentFormat.json.decode(bytes: file)
            #expect(read.document == doc)
            #expect(read.ending == Array(ending.utf8))
            #expect(try DocumentFormat.json.encodeBytes(read.document, ending: read.ending) == file, "\(ending.debugDescription)")
        }
        #expect(try DocumentFormat.github.encodeBytes(doc, ending: [0x0A]) == Array("Thanks @John Doe\n".utf8))
        #expect(try DocumentFormat.github.decode("a\n").ending.isEmpty)
    }
}
