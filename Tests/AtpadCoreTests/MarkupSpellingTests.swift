import Testing
@testable import AtpadCore

/// A markup file is given back byte for byte
/// (docs/formats.md, "Files come back as they were (kept constructs)"; issue 22): escapes
/// the writer would not write are kept as constructs shown as what they stand for, and
/// mentions spelt otherwise than the writer spells them keep their text.
@Suite("markup keeps its spelling")
struct MarkupSpellingTests {
    func open(_ file: String) -> MarkedText {
        (try? DocumentFormat.atpad.decode(file))?.document ?? MarkedText()
    }

    @Test func anEscapedBackslashBeforeALetterIsKeptAsWritten() {
        let file = #"const char *s = "a\\n";"#
        let doc = open(file)
        #expect(doc.text == #"const char *s = "a\n";"#)
        #expect(doc.mentions.map(\.text) == [#"\"#])
        #expect(doc.mentions.allSatisfy { $0.isKept })
        #expect(DocumentFormat.atpad.encode(doc) == file)
        // Another format writes what it stands for.
        #expect(DocumentFormat.github.encode(doc) == #"const char *s = "a\n";"#)
    }

    @Test func escapesTheWriterWritesStayPlainText() {
        for file in [#"a\\\b"#, #"\\\@[a](b)"#, #"x\@[a](b)"#] {
            let doc = open(file)
            #expect(doc.mentions.isEmpty, "\(file)")
            #expect(DocumentFormat.atpad.encode(doc) == file)
        }
    }

    @Test func anEscapedTriggerThatFormsNoMentionIsKeptAsWritten() {
        let file = #"see \@[abc and foo@[bar"#
        let doc = open(file)
        #expect(doc.text == "see @[abc and foo@[bar")
        #expect(doc.mentions.map(\.text) == ["@["])
        #expect(DocumentFormat.atpad.encode(doc) == file)
    }

    @Test func aMentionSpeltOtherwiseKeepsItsText() {
        let file = #"hi @[a\x](u\1) and @[b](c)"#
        let doc = open(file)
        #expect(doc.listedMentions.map(\.name) == [#"a\x"#, "b"])
        #expect(doc.mentions[0].source?.text == #"@[a\x](u\1)"#)
        #expect(doc.mentions[1].source == nil)
        #expect(DocumentFormat.atpad.encode(doc) == file)
    }

    @Test func aKeptEscapeTakesInTheMarksThatJoinIt() {
        let file = "\u{600}\\\\\u{301}x"
        let doc = open(file)
        #expect(DocumentFormat.atpad.encode(doc) == file)
        let places = LosslessFormatPropertyTests.cursorPlaces(in: doc)
        for m in doc.mentions { #expect(places.contains(m.range.lowerBound) && places.contains(m.range.upperBound)) }
    }

    @Test func pastedTextAndDraftsAreReadWithoutKeptEscapes() {
        #expect(AtpadMarkup.decode(#"a\\n"#).mentions.isEmpty)
    }

    @Test func aDraftBringsKeptEscapesBack() throws {
        let doc = open(#"C:\\Users \@[x and @[a\](b)"#)
        #expect(doc.mentions.count == 2)
        let line = try #require(TokenSources.line(doc))
        let back = TokenSources.apply(line, to: AtpadMarkup.decode(AtpadMarkup.encode(doc)))
        #expect(back == doc)
        #expect(DocumentFormat.atpad.encode(back) == DocumentFormat.atpad.encode(doc))
    }

    @Test func typingNextToAKeptEscapeStillReadsBack() {
        var editor = Editor(open(#"a\\b"#))
        editor.selection = .cursor(1)
        _ = editor.handle(.char("@"))
        _ = editor.handle(.escape)
        for c in "[x](y)" { _ = editor.handle(.char(c)) }
        let saved = DocumentFormat.atpad.encode(editor.marked)
        // Typed before the kept `\\`: the typed text is escaped, the escape kept as it was.
        #expect(saved == #"a\@[x](y)\\b"#)
        #expect(open(saved).text == editor.marked.text)
    }
}
