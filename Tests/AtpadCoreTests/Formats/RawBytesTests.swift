import Testing
@testable import AtpadCore

/// Any bytes (docs/editor.md; issue 22, bullet 2): a file that is not valid UTF-8 opens; each
/// invalid byte is a token shown as `\xE9`, atomic like a kept construct, written back as
/// it was; json and matrix cannot carry such bytes.
@Suite("bytes that are not UTF-8")
struct RawBytesTests {
    let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" \\\\n @jdoe\n".utf8)

    @Test(arguments: DocumentFormat.allCases.filter { !$0.isOutputOnly && $0 != .json })
    func eachInvalidByteIsATokenWrittenBackAsItWas(format: DocumentFormat) throws {
        let decoded = try format.decode(bytes: latin1, lookup: lookup(formatPeople))
        let doc = decoded.document
        #expect(doc.text.hasPrefix("caf\\xE9 "))
        let bytes = try #require(doc.mentions.first { $0.kind == .bytes })
        #expect(bytes.range == 3 ..< 7)
        #expect(bytes.text == "\\xE9")
        #expect(bytes.isKept)
        #expect(!doc.listedMentions.contains(bytes))
        #expect(decoded.notes.first == "1 byte that is not UTF-8 kept as it was (shown as \\xNN)")
        #expect(try format.encodeBytes(doc, lookup: lookup(formatPeople)) == latin1)
    }

    @Test func everyKindOfBadByteComesBack() throws {
        let file: [UInt8] = [0x61, 0x80, 0xC3, 0x20, 0xE2, 0x82, 0x41, 0xED, 0xA0, 0x80, 0xC0, 0xAF, 0xFF, 0xFE,
                             0xF4, 0x8F, 0xBF, 0xBF, 0xF4, 0x90, 0x80, 0x80, 0xC3, 0xA9]
        for format in [DocumentFormat.github, .atpad, .slack, .plain] {
            let doc = try format.decode(bytes: file).document
            #expect(doc.text == #"a\x80\xC3 \xE2\x82A\xED\xA0\x80\xC0\xAF\xFF\xFE\xF4\x8F\xBF\xBF\xF4\x90\x80\x80é"#, "\(format)")
            #expect(doc.mentions.count == 19)
            #expect(try format.encodeBytes(doc) == file, "\(format)")
        }
    }

    @Test func aMarkThatJoinsTheByteIsPartOfItsToken() throws {
        let file: [UInt8] = [0x78, 0xE9, 0xCC, 0x81, 0x79]  // x, Latin-1 é, U+0301, y
        let doc = try DocumentFormat.github.decode(bytes: file).document
        #expect(doc.text == "x\\xE9\u{301}y")
        #expect(doc.mentions.map(\.range) == [1 ..< 6])
        #expect(try DocumentFormat.github.encodeBytes(doc) == file)
    }

    @Test func validFilesAreReadAsBefore() throws {
        let doc = try DocumentFormat.github.decode(bytes: Array("hi @jdoe é".utf8), lookup: lookup(formatPeople))
        #expect(doc.notes.isEmpty)
        #expect(!doc.document.mentions.contains { $0.kind == .bytes })
    }

    @Test func jsonAndMatrixCannotCarryThem() throws {
        let doc = try DocumentFormat.github.decode(bytes: latin1).document
        #expect(throws: FormatError.self) { try DocumentFormat.json.encodeBytes(doc) }
        #expect(throws: FormatError.self) { try DocumentFormat.matrix.encodeBytes(doc) }
        #expect(throws: FormatError.self) { try DocumentFormat.json.decode(bytes: latin1) }
        // As UTF-8 text they show as their escapes.
        #expect(DocumentFormat.json.encode(doc).contains(#"caf\\xE9"#))
    }

    @Test func otherFormatsWriteThemAsBytesToo() throws {
        let doc = try DocumentFormat.github.decode(bytes: latin1).document
        #expect(try DocumentFormat.plain.encodeBytes(doc) == latin1)
        #expect(try DocumentFormat.slack.encodeBytes(doc) == latin1)
    }

    @Test func aByteTokenIsAtomicAndTypingAroundItKeepsIt() throws {
        let doc = try DocumentFormat.github.decode(bytes: latin1).document
        var editor = Editor(doc)
        editor.selection = .cursor(7)
        _ = editor.handle(.char("!"))
        editor.selection = .cursor(3)
        _ = editor.handle(.char("f"))
        #expect(try DocumentFormat.github.encodeBytes(editor.marked) == Array("caff".utf8) + [0xE9] + Array("! \\\\n @jdoe\n".utf8))
        // Backspace after it selects it, the next deletes it whole.
        editor.selection = .cursor(8)
        _ = editor.handle(.backspace)
        #expect(editor.selectedMention?.kind == .bytes)
        _ = editor.handle(.backspace)
        #expect(editor.marked.text.hasPrefix("caff! "))
        #expect(try DocumentFormat.github.encodeBytes(editor.marked) == Array("caff! \\\\n @jdoe\n".utf8))
        // The cursor never stops inside it.
        editor = Editor(doc)
        editor.selection = .cursor(0)
        for _ in 0 ..< 4 { _ = editor.handle(.right) }
        #expect(editor.cursor == 7)
    }

    @Test func typedScalarsOfTheStandInRangeAreWrittenAsThemselves() throws {
        let doc = MarkedText(text: "a\u{10FFE9}b")
        #expect(try DocumentFormat.github.encodeBytes(doc) == Array("a\u{10FFE9}b".utf8))
    }

    /// Found by the fuzz target (Fuzz/): json is Unicode text, so a character of the
    /// stand-ins' range (U+10FF80…U+10FFFF, valid UTF-8) in a json file, or typed into a
    /// json document, is a character: opened, saved and written as itself, where it used
    /// to open as four `.bytes` tokens that json then refused to save.
    @Test func jsonKeepsCharactersOfTheStandInRange() throws {
        let doc = MarkedText(text: "Thanks @John Doe\u{10FFFF}e", mentions: [Mention(trigger: "@", id: "u1", name: "John Doe", start: 7)])
        let file = Array(MentionJSON.document(doc).utf8)
        let read = try DocumentFormat.json.decode(bytes: file)
        #expect(read.document == doc)
        #expect(read.document.text.unicodeScalars.elementsEqual(doc.text.unicodeScalars))
        #expect(read.notes.isEmpty)
        #expect(try DocumentFormat.json.encodeBytes(read.document) == file)
        let typed = MarkedText(text: "a\u{10FFE9}b")
        #expect(try DocumentFormat.json.encodeBytes(typed) == Array(MentionJSON.document(typed).utf8))
        #expect(try DocumentFormat.matrix.encodeBytes(typed) == DocumentFormat.matrix.encodeUTF8(typed))
    }

    @Test func aByteInsideAConstructOfAnotherFormatIsStillNoJSON() throws {
        // A Latin-1 byte in a Slack link stands for that byte: json cannot write it.
        let file: [UInt8] = Array("<https://example.com|d".utf8) + [0xE9] + Array("ocs>".utf8)
        let doc = try DocumentFormat.slack.decode(bytes: file).document
        #expect(doc.mentions.map(\.kind) == [.kept])
        #expect(throws: FormatError.self) { try DocumentFormat.json.encodeBytes(doc) }
        #expect(try DocumentFormat.slack.encodeBytes(doc) == file)
    }

    @Test func aDraftKeepsThem() throws {
        let doc = try DocumentFormat.slack.decode(bytes: latin1).document
        let line = try #require(TokenSources.line(doc))
        let back = TokenSources.apply(line, to: AtpadMarkup.decode(AtpadMarkup.encode(doc)))
        #expect(back == doc)
        #expect(try DocumentFormat.slack.encodeBytes(back) == latin1)
    }
}
