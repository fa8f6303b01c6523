import Testing
@testable import AtpadCore

/// A mention at scalar offset `start`, for short expectations.
private func mention(_ trigger: Unicode.Scalar, _ name: String, id: String, at start: Int) -> Mention {
    Mention(trigger: trigger, id: id, name: name, start: start)
}

/// An `@` mention at scalar offset `start`.
private func mention(_ name: String, id: String, at start: Int) -> Mention {
    mention("@", name, id: id, at: start)
}

/// A document whose mentions are given by name; each is found (in order) in `text`.
private func doc(_ text: String, _ mentions: [(Unicode.Scalar, String, String)] = []) -> MarkedText {
    let scalars = Array(text.unicodeScalars)
    var result: [Mention] = []
    var from = 0
    for (trigger, name, id) in mentions {
        let needle = [trigger] + Array(name.unicodeScalars)
        var start = from
        while !scalars[start...].starts(with: needle) { start += 1 }
        result.append(Mention(trigger: trigger, id: id, name: name, start: start))
        from = start + needle.count
    }
    return MarkedText(text: text, mentions: result)
}

// MARK: - Writing

@Suite("AtpadMarkup.encode")
struct MarkupEncodeTests {
    @Test func plainTextIsWrittenAsIs() {
        #expect(AtpadMarkup.encode(doc("hello world")) == "hello world")
        #expect(AtpadMarkup.encode(doc("")) == "")
    }

    @Test func mentionIsTriggerNameInBracketsIdInParentheses() {
        let d = doc("Thanks @John Doe!", [("@", "John Doe", "u42")])
        #expect(AtpadMarkup.encode(d) == "Thanks @[John Doe](u42)!")
    }

    @Test func nameEscapesBackslashAndBrackets() {
        let d = doc(#"@a\b[c]"#, [("@", #"a\b[c]"#, "x")])
        #expect(AtpadMarkup.encode(d) == #"@[a\\b\[c\]](x)"#)
    }

    @Test func idEscapesBackslashAndParentheses() {
        let d = doc("@a", [("@", "a", #"x\y(z)"#)])
        #expect(AtpadMarkup.encode(d) == #"@[a](x\\y\(z\))"#)
    }

    @Test func parenthesesInNamesAndBracketsInIdsNeedNoEscape() {
        let d = doc("@(a)", [("@", "(a)", "[b]")])
        #expect(AtpadMarkup.encode(d) == "@[(a)]([b])")
    }

    @Test(arguments: AtpadMarkup.triggers)
    func plainTriggerBeforeBracketIsEscaped(trigger: Unicode.Scalar) {
        let t = String(Character(trigger))
        #expect(AtpadMarkup.encode(doc("see \(t)[x](y)")) == "see \\\(t)[x](y)")
    }

    @Test func plainTriggersElsewhereAreWrittenAsIs() {
        #expect(AtpadMarkup.encode(doc("a@b #c $5 50% +1 ~x a:b @ [")) == "a@b #c $5 50% +1 ~x a:b @ [")
    }

    @Test func plainBracketsAndParenthesesAreWrittenAsIs() {
        #expect(AtpadMarkup.encode(doc("[x](y) (z) ]")) == "[x](y) (z) ]")
    }

    @Test func lonePlainBackslashesStayReadable() {
        #expect(AtpadMarkup.encode(doc(#"C:\path\to \o/ \@x \["#)) == #"C:\path\to \o/ \@x \["#)
    }

    @Test func backslashAtEndOfTextIsWrittenAsIs() {
        #expect(AtpadMarkup.encode(doc(#"end\"#)) == #"end\"#)
    }

    @Test func backslashBeforeBackslashIsDoubled() {
        // The first pairs with the second; the second escapes nothing.
        #expect(AtpadMarkup.encode(doc(#"a\\b"#)) == #"a\\\b"#)
        #expect(AtpadMarkup.encode(doc(#"\\"#)) == #"\\\"#)
    }

    @Test func backslashBeforePlainTriggerBracketIsDoubled() {
        // `@[` alone forms no mention, so it needs no escape; the backslash still pairs.
        #expect(AtpadMarkup.encode(doc(#"\@["#)) == #"\\@["#)
        #expect(AtpadMarkup.encode(doc(#"\@[a](b)"#)) == #"\\\@[a](b)"#)
    }

    @Test func onlyTextThatWouldReadAsAMentionIsEscaped() {
        #expect(AtpadMarkup.encode(doc("foo@[bar")) == "foo@[bar")
        #expect(AtpadMarkup.encode(doc("foo@[bar](baz)")) == #"foo\@[bar](baz)"#)
        #expect(AtpadMarkup.encode(doc("@[a @[b](c)")) == #"@[a \@[b](c)"#)
        #expect(AtpadMarkup.encode(doc("@[](c) @[a]() @[a](b")) == "@[](c) @[a]() @[a](b")
    }

    @Test func backslashRightBeforeMentionIsDoubled() {
        let d = doc(#"\@a"#, [("@", "a", "x")])
        #expect(AtpadMarkup.encode(d) == #"\\@[a](x)"#)
    }

    @Test func plainTriggerRightBeforeMentionIsWrittenAsIs() {
        let d = doc("@@a", [("@", "a", "x")])
        #expect(AtpadMarkup.encode(d) == "@@[a](x)")
    }

    @Test func plainTriggerBracketRightAfterMentionIsEscapedWhenItFormsOne() {
        #expect(AtpadMarkup.encode(doc("@a@[", [("@", "a", "x")])) == "@[a](x)@[")
        #expect(AtpadMarkup.encode(doc("@a@[b](c)", [("@", "a", "x")])) == #"@[a](x)\@[b](c)"#)
    }

    @Test func adjacentMentions() {
        let d = doc("@a#b", [("@", "a", "1"), ("#", "b", "2")])
        #expect(AtpadMarkup.encode(d) == "@[a](1)#[b](2)")
    }

    @Test func brokenMentionsAreWrittenAsTheirPlainText() {
        // Text at the range is not trigger + name.
        let wrongText = MarkedText(text: "@Jane", mentions: [mention("John", id: "1", at: 0)])
        #expect(AtpadMarkup.encode(wrongText) == "@Jane")
        // A trigger markup cannot spell.
        let fullwidth = MarkedText(text: "＠Jo", mentions: [mention("＠", "Jo", id: "1", at: 0)])
        #expect(AtpadMarkup.encode(fullwidth) == "＠Jo")
        // Out of range, and overlapping the one before.
        let outOfRange = MarkedText(text: "@a", mentions: [mention("abc", id: "1", at: 0)])
        #expect(AtpadMarkup.encode(outOfRange) == "@a")
        let overlapping = MarkedText(text: "@a@b", mentions: [mention("a@b", id: "1", at: 0), mention("b", id: "2", at: 2)])
        #expect(AtpadMarkup.encode(overlapping) == "@[a@b](1)")
        // Empty id.
        let emptyID = MarkedText(text: "@a", mentions: [mention("a", id: "", at: 0)])
        #expect(AtpadMarkup.encode(emptyID) == "@a")
    }
}

// MARK: - Reading

@Suite("AtpadMarkup.decode")
struct MarkupDecodeTests {
    @Test func examplesDecodeToExactTextAndMentions() {
        let d = AtpadMarkup.decode("Hi @[John Doe](u42) and #[general](c1)!")
        #expect(d.text == "Hi @John Doe and #general!")
        #expect(d.mentions == [mention("John Doe", id: "u42", at: 3), mention("#", "general", id: "c1", at: 17)])
        #expect(d.mentions.map(\.range) == [3 ..< 12, 17 ..< 25])
    }

    @Test func rangesCountScalars() {
        // 👩‍💻 is three scalars.
        let d = AtpadMarkup.decode("👩‍💻 @[王小明](u1)!")
        #expect(d.text == "👩‍💻 @王小明!")
        #expect(d.mentions == [mention("王小明", id: "u1", at: 4)])
        #expect(d.mentions[0].range == 4 ..< 8)
    }

    @Test func combiningMarksInsideANameStayPut() {
        let d = AtpadMarkup.decode("@[e\u{301}](x) \u{301}")
        #expect(Array(d.text.unicodeScalars) == ["@", "e", "\u{301}", " ", "\u{301}"])
        #expect(d.mentions == [mention("e\u{301}", id: "x", at: 0)])
    }

    /// A mention would not be whole characters when a combining mark follows its `)` or a
    /// Prepend character precedes its trigger: that markup is text, as json reading
    /// refuses such a range, and it is written back byte for byte.
    @Test(arguments: ["hi @[John Doe](u1)\u{301} there", "@[e\u{301}](x)\u{301}", "\u{600}@[John Doe](u1) hi",
                      "@[John\u{600}](u1)x", "a @[b](c)\u{200D}d", "@[a](b)\u{1F3FD}"])
    func mentionsThatWouldSplitACharacterAreText(markup: String) {
        let d = AtpadMarkup.decode(markup)
        #expect(d == MarkedText(text: markup))
        #expect(AtpadMarkup.encode(d) == markup)
    }

    @Test(arguments: AtpadMarkup.triggers)
    func everyTriggerReadsAsMention(trigger: Unicode.Scalar) {
        let t = String(Character(trigger))
        let d = AtpadMarkup.decode("x \(t)[n](i) y")
        #expect(d.text == "x \(t)n y")
        #expect(d.mentions == [mention(trigger, "n", id: "i", at: 2)])
    }

    @Test func otherCharactersAreNotTriggers() {
        for markup in ["＠[a](b)", "![a](b)", "&[a](b)", "[a](b)"] {
            #expect(AtpadMarkup.decode(markup) == MarkedText(text: markup), "\(markup)")
        }
    }

    @Test func fieldEscapesAreRead() {
        let d = AtpadMarkup.decode(#"@[a\\b\[c\]](x\\y\(z\))"#)
        #expect(d.text == #"@a\b[c]"#)
        #expect(d.mentions == [mention(#"a\b[c]"#, id: #"x\y(z)"#, at: 0)])
    }

    @Test func plainEscapesAreRead() {
        #expect(AtpadMarkup.decode(#"\@[a](b)"#) == MarkedText(text: "@[a](b)"))
        #expect(AtpadMarkup.decode(#"a\\b"#) == MarkedText(text: #"a\b"#))
        #expect(AtpadMarkup.decode(#"\\@[a](b)"#) == doc(#"\@a"#, [("@", "a", "b")]))
        #expect(AtpadMarkup.decode(#"\\\@[a](b)"#) == MarkedText(text: #"\@[a](b)"#))
    }

    // Lenient reading: each of these is plain text, never an error.

    @Test func backslashThatEscapesNothingIsLiteral() {
        #expect(AtpadMarkup.decode(#"\x"#) == MarkedText(text: #"\x"#))
        #expect(AtpadMarkup.decode(#"\"#) == MarkedText(text: #"\"#))
        #expect(AtpadMarkup.decode(#"\@x \[ \] \( \|"#) == MarkedText(text: #"\@x \[ \] \( \|"#))
    }

    @Test func backslashThatEscapesNothingInsideFieldsIsLiteral() {
        let d = AtpadMarkup.decode(#"@[a\b\(](x\y\])"#)
        #expect(d.mentions == [mention(#"a\b\("#, id: #"x\y\]"#, at: 0)])
        #expect(d.text == #"@a\b\("#)
    }

    @Test(arguments: [
        "@[unclosed", "@[a](", "@[a](b", "@[](x)", "@[a]()", "@[a] (x)", "@[a]x(y)", "@[", "@[]",
        "@[a\\](x)", "@[a](x\\)", "@[a[b]](x)", "@[a](b(c))", "@[a](b", "@[\\", "@",
    ])
    func incompleteMentionsArePlainText(markup: String) {
        let d = AtpadMarkup.decode(markup)
        #expect(d.mentions.isEmpty)
        #expect(d.text == markup)
    }

    @Test func unescapedBracketInNameLetsALaterMentionRead() {
        let d = AtpadMarkup.decode("@[a @[b](c)")
        #expect(d.text == "@[a @b")
        #expect(d.mentions == [mention("b", id: "c", at: 4)])
    }

    @Test func nestedBracketsInNameArePlainText() {
        let d = AtpadMarkup.decode("@[a [b] c](x) @[ok](1)")
        #expect(d.text == "@[a [b] c](x) @ok")
        #expect(d.mentions == [mention("ok", id: "1", at: 14)])
    }

    @Test func newlinesMayAppearInFields() {
        let d = AtpadMarkup.decode("@[a\nb](c\nd)")
        #expect(d.mentions == [mention("a\nb", id: "c\nd", at: 0)])
    }
}

// MARK: - Reading with a cursor (`atpad replay --text`)

@Suite("AtpadMarkup.decodeWithCursor")
struct MarkupCursorTests {
    @Test func barMarksTheCursorInScalars() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor("hi @[John](1) |there")
        #expect(d == doc("hi @John there", [("@", "John", "1")]))
        #expect(cursor == 9)
    }

    @Test func noBarMeansNoCursor() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor("hi @[John](1)")
        #expect(d == AtpadMarkup.decode("hi @[John](1)"))
        #expect(cursor == nil)
    }

    @Test func barAtStartAndAfterEmoji() throws {
        #expect(try AtpadMarkup.decodeWithCursor("|abc").cursor == 0)
        #expect(try AtpadMarkup.decodeWithCursor("👩‍💻|").cursor == 3)
        #expect(try AtpadMarkup.decodeWithCursor("@[a](b)|").cursor == 2)
    }

    @Test func escapedBarIsLiteral() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor(#"a\|b|"#)
        #expect(d.text == "a|b")
        #expect(cursor == 3)
    }

    @Test func escapedBackslashThenBarIsCursor() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor(#"a\\|b"#)
        #expect(d.text == #"a\b"#)
        #expect(cursor == 2)
        let (d2, cursor2) = try AtpadMarkup.decodeWithCursor(#"a\\\|b"#)
        #expect(d2.text == #"a\|b"#)
        #expect(cursor2 == nil)
    }

    @Test func escapedBarInsideFields() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor(#"@[a\|b](c\|d)|"#)
        #expect(d.mentions == [mention("a|b", id: "c|d", at: 0)])
        #expect(cursor == 4)
    }

    @Test func secondBarIsAnErrorNamingItsColumn() {
        #expect(throws: MarkupError(kind: .secondCursor, column: 14)) {
            try AtpadMarkup.decodeWithCursor("hello | world|")
        }
        let error = MarkupError(kind: .secondCursor, column: 14)
        #expect(error.description == "--text: a second cursor mark '|' at column 14")
    }

    @Test func columnsCountCharacters() {
        #expect(throws: MarkupError(kind: .secondCursor, column: 4)) {
            try AtpadMarkup.decodeWithCursor("👩‍💻|e\u{301}|")
        }
    }

    @Test func barInsideNameOrIdIsAnError() {
        #expect(throws: MarkupError(kind: .cursorInsideMention, column: 8)) {
            try AtpadMarkup.decodeWithCursor("hi @[Jo|hn](1)")
        }
        #expect(throws: MarkupError(kind: .cursorInsideMention, column: 7)) {
            try AtpadMarkup.decodeWithCursor("@[a](1|2)")
        }
        #expect(MarkupError(kind: .cursorInsideMention, column: 8).description
            == "--text: the cursor mark '|' at column 8 is inside a mention")
    }

    @Test func barThatKeepsAMentionFromFormingIsPlainCursor() throws {
        let (d, cursor) = try AtpadMarkup.decodeWithCursor("@[a]|(b)")
        #expect(d == MarkedText(text: "@[a](b)"))
        #expect(cursor == 4)
        let (d2, cursor2) = try AtpadMarkup.decodeWithCursor("@[a|")
        #expect(d2 == MarkedText(text: "@[a"))
        #expect(cursor2 == 3)
    }

    @Test func plainDecodeKeepsBarsAsText() {
        #expect(AtpadMarkup.decode("a|b|c") == MarkedText(text: "a|b|c"))
        #expect(AtpadMarkup.decode("@[a|b](c)").mentions == [mention("a|b", id: "c", at: 0)])
    }

    /// Fuzzing found it: a name of 1,500 bytes that are not UTF-8 (read from a zulip file)
    /// is 6,000 bytes of stand-ins, but 1,501 characters: the markup written for it reads
    /// back as the same mention (the field limit counts characters).
    @Test func aNameOfManyBytesThatAreNotUTF8ComesBack() throws {
        let bytes = Array("@**a".utf8) + [UInt8](repeating: 0x86, count: 1_500) + Array("|u1** and \\[x] \\".utf8)
        let read = try DocumentFormat.zulip.decode(bytes: bytes).document
        #expect(read.mentions.filter { $0.kind == .mention }.count == 1)
        let written = try DocumentFormat.atpad.encodeBytes(read)
        let back = try DocumentFormat.atpad.decode(bytes: written).document
        #expect(back.mentions.filter { $0.kind == .mention }.map(\.name) == read.mentions.filter { $0.kind == .mention }.map(\.name))
        #expect(try DocumentFormat.atpad.encodeBytes(back) == written)
        // A name of more characters than the limit is not read as one.
        let long = "@[" + String(repeating: "x", count: 4_097) + "](1)"
        #expect(AtpadMarkup.decode(long).mentions.isEmpty)
        #expect(AtpadMarkup.decode("@[" + String(repeating: "x", count: 4_096) + "](1)").mentions.count == 1)
    }
}
