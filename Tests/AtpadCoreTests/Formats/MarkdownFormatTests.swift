import Testing
@testable import AtpadCore

@Suite("markdown format")
struct MarkdownFormatTests {
    let directory = lookup(formatPeople, channels: formatChannels)

    @Test func linksToTheURLOrMentionID() {
        let doc = markup("hi @[John Doe](u1) and @[Jane Roe](u2) in #[general](C1)")
        #expect(DocumentFormat.markdown.encode(doc, lookup: directory)
            == "hi [@John Doe](https://example.com/jdoe) and [@Jane Roe](mention:u2) in [#general](mention:C1)")
    }

    @Test func nameAndURLAreEscaped() {
        let doc = markup(#"@[Zoë \[x\] Ørsted](u4) @[a\\b *c* <d> &e_](x)"#)
        #expect(DocumentFormat.markdown.encode(doc, lookup: directory)
            == #"[@Zoë \[x\] Ørsted](https://example.com/a_\(b\)) [@a\\b \*c\* \<d\> \&e\_](mention:x)"#)
    }

    @Test func mentionIDsArePercentEncoded() {
        let doc = markup(#"@[A](a b%\(c\)\\王)"#)
        #expect(DocumentFormat.markdown.encode(doc) == "[@A](mention:a%20b%25%28c%29%5C%E7%8E%8B)")
    }

    @Test func urlsWithSpacesAndControls() {
        var doc = markup("@[A](a)")
        doc.mentions[0].url = "https://x/a b\u{7}<c>"
        #expect(DocumentFormat.markdown.encode(doc) == #"[@A](https://x/a%20b%07\<c\>)"#)
    }

    @Test func textIsWrittenAsIs() {
        #expect(DocumentFormat.markdown.encode(markup("*a* [b](c) \\ <d>")) == "*a* [b](c) \\ <d>")
    }

    @Test func readsMentionLinksAndKnownURLs() throws {
        let text = #"[@John Doe](https://example.com/jdoe), [@Zoë \[x\] Ørsted](<https://example.com/a_(b)>) [@Someone](mention:u%2042) [#general](mention:C1)"#
        let read = try DocumentFormat.markdown.decode(text, lookup: directory)
        #expect(read.document.text == "@John Doe, @Zoë [x] Ørsted @Someone #general")
        #expect(summary(read.document) == ["@u1 John Doe 0", "@u4 Zoë [x] Ørsted 11", "@u 42 Someone 27", "#C1 general 36"])
        #expect(read.notes.isEmpty)
    }

    @Test func unknownURLsStayTextWithANote() throws {
        let read = try DocumentFormat.markdown.decode("[@jdoe](https://github.com/jdoe) [docs](https://x)", lookup: directory)
        #expect(read.document.mentions.isEmpty)
        #expect(read.notes == ["1 mention not in the directory was left as text: [@jdoe](https://github.com/jdoe)"])
    }

    @Test func imagesEscapesCodeAndTitlesAreNotMentions() throws {
        let text = #"![@a](mention:a) \[@b](mention:b) `[@c](mention:c)` [@d](mention:d "title") [@](mention:e) [@f]()"#
        let read = try DocumentFormat.markdown.decode(text, lookup: directory)
        #expect(read.document.mentions.isEmpty)
    }

    @Test func writtenMentionsReadBack() throws {
        let doc = markup(#"@[Zoë \[x\] Ørsted](u4) @[a\\b *c* <d> &e_ (f)](x y\(z\)) #[general](C1) :[王](%)"#)
        let written = DocumentFormat.markdown.encode(doc, lookup: directory)
        #expect(try DocumentFormat.markdown.decode(written, lookup: directory).document == doc)
    }
}
