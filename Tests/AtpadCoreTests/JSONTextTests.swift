import Testing
@testable import AtpadCore

@Suite("JSONText.quote")
struct JSONTextQuoteTests {
    @Test func plainTextIsQuoted() {
        #expect(JSONText.quote("") == #""""#)
        #expect(JSONText.quote("John Doe") == #""John Doe""#)
    }

    @Test func quoteAndBackslashAreEscaped() {
        #expect(JSONText.quote(#"say "hi" \o/"#) == #""say \"hi\" \\o/""#)
    }

    @Test func namedControlEscapes() {
        #expect(JSONText.quote("a\nb\tc\rd\u{08}e\u{0C}f") == #""a\nb\tc\rd\be\ff""#)
    }

    @Test func otherControlsAreUnicodeEscapes() {
        #expect(JSONText.quote("\u{00}\u{01}\u{1B}[0m\u{1F}\u{7F}") == #""\u0000\u0001\u001b[0m\u001f\u007f""#)
    }

    @Test func lineAndParagraphSeparatorsAreEscaped() {
        #expect(JSONText.quote("a\u{2028}b\u{2029}c") == #""a\u2028b\u2029c""#)
    }

    @Test func everyControlIsEscaped() {
        for value in Array(0 ... 0x1F) + [0x7F, 0x2028, 0x2029] {
            let quoted = JSONText.quote(String(Character(Unicode.Scalar(UInt32(value))!)))
            #expect(quoted.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "U+\(value)")
        }
    }

    @Test func everythingElseIsWrittenAsIs() {
        let s = "é e\u{301} 王 👩‍💻 שלום \u{80} \u{A0} / <>&'"
        #expect(JSONText.quote(s) == "\"" + s + "\"")
    }
}

@Suite("MentionJSON")
struct MentionJSONTests {
    @Test func specExample() {
        let doc = AtpadMarkup.decode("Thanks @[John Doe](u42)")
        #expect(MentionJSON.document(doc) == """
            {"text": "Thanks @John Doe", "mentions": [{"trigger": "@", "id": "u42", "name": "John Doe", \
            "start": 7, "end": 16, "utf16": [7, 16], "utf8": [7, 16]}]}
            """)
    }

    @Test func emptyDocument() {
        #expect(MentionJSON.document(MarkedText()) == #"{"text": "", "mentions": []}"#)
        #expect(MentionJSON.array(MarkedText(text: "hi")) == "[]")
    }

    @Test func offsetsInEveryUnitWithEmojiAndCJK() throws {
        // 👩‍💻 is 3 scalars, 5 UTF-16 units, 11 UTF-8 bytes; 王 is 1, 1, 3; 👍 is 1, 2, 4;
        // é (precomposed) is 1, 1, 2.
        let doc = AtpadMarkup.decode("👩‍💻王 @[王小明](u1) and 👍 #[général](c2)")
        try #require(doc.mentions.count == 2)
        let first = MentionJSON.object(doc.mentions[0], in: doc.text)
        let second = MentionJSON.object(doc.mentions[1], in: doc.text)
        #expect(first == """
            {"trigger": "@", "id": "u1", "name": "王小明", "start": 5, "end": 9, "utf16": [7, 11], "utf8": [15, 25]}
            """)
        #expect(second == """
            {"trigger": "#", "id": "c2", "name": "général", "start": 16, "end": 24, "utf16": [19, 27], "utf8": [35, 45]}
            """)
        #expect(MentionJSON.array(doc) == "[\(first), \(second)]")
        #expect(MentionJSON.document(doc) == "{\"text\": \"👩‍💻王 @王小明 and 👍 #général\", \"mentions\": [\(first), \(second)]}")
    }

    @Test func offsetsAgreeWithTheStandardLibraryViews() {
        let text = "a👩‍💻b @x e\u{301}@王 👍@y"
        let doc = MarkedText(text: text, mentions: [
            Mention(trigger: "@", id: "1", name: "x", start: 6),
            Mention(trigger: "@", id: "2", name: "王", start: 11),
            Mention(trigger: "@", id: "3", name: "y", start: 15),
        ])
        for m in doc.mentions {
            let scalars = text.unicodeScalars
            let lower = scalars.index(scalars.startIndex, offsetBy: m.range.lowerBound)
            let upper = scalars.index(scalars.startIndex, offsetBy: m.range.upperBound)
            #expect(String(scalars[lower ..< upper]) == m.text)
            let u16 = [text.utf16.distance(from: text.startIndex, to: lower), text.utf16.distance(from: text.startIndex, to: upper)]
            let u8 = [text.utf8.distance(from: text.startIndex, to: lower), text.utf8.distance(from: text.startIndex, to: upper)]
            let object = MentionJSON.object(m, in: text)
            #expect(object.contains("\"utf16\": [\(u16[0]), \(u16[1])]"), "\(object)")
            #expect(object.contains("\"utf8\": [\(u8[0]), \(u8[1])]"), "\(object)")
        }
    }

    @Test func namesAndIdsAreEscaped() {
        let doc = AtpadMarkup.decode(#"@[Jo "J" \\ Doe](a\nb)"#)
        #expect(MentionJSON.array(doc) == #"""
            [{"trigger": "@", "id": "a\\nb", "name": "Jo \"J\" \\ Doe", "start": 0, "end": 13, "utf16": [0, 13], "utf8": [0, 13]}]
            """#)
    }

    @Test func mentionAtTheVeryEnd() {
        let doc = MarkedText(text: "é@a", mentions: [Mention(trigger: "@", id: "1", name: "a", start: 1)])
        #expect(MentionJSON.object(doc.mentions[0], in: doc.text).hasSuffix(#""start": 1, "end": 3, "utf16": [1, 3], "utf8": [2, 4]}"#))
    }
}
