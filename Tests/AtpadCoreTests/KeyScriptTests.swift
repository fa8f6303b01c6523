import Testing
@testable import AtpadCore

@Suite("KeyScript")
struct KeyScriptTests {
    // MARK: Literal characters

    @Test func charactersAreTypedAsThemselves() throws {
        #expect(try KeyScript.parse("") == [])
        #expect(try KeyScript.parse("a b") == [.char("a"), .char(" "), .char("b")])
        // One key per character (grapheme cluster), however many scalars it has.
        #expect(try KeyScript.parse("é👩‍💻e\u{301}王") == [.char("é"), .char("👩‍💻"), .char("e\u{301}"), .char("王")])
    }

    @Test func newlinesAndTabsAreTheirKeys() throws {
        #expect(try KeyScript.parse("a\nb\tc") == [.char("a"), .enter, .char("b"), .tab, .char("c")])
        #expect(try KeyScript.parse("a\r\nb\r") == [.char("a"), .enter, .char("b"), .enter])
    }

    // MARK: Names

    static let names: [(String, Key)] = [
        ("Enter", .enter), ("Return", .enter), ("Tab", .tab), ("S-Tab", .backTab),
        ("BS", .backspace), ("Backspace", .backspace), ("Del", .delete), ("Delete", .delete),
        ("Esc", .escape), ("Left", .left), ("Right", .right), ("Up", .up), ("Down", .down),
        ("Home", .home), ("End", .end), ("PgUp", .pageUp), ("PgDn", .pageDown),
        ("S-Left", .shiftLeft), ("S-Right", .shiftRight), ("S-Up", .shiftUp), ("S-Down", .shiftDown),
        ("S-Home", .shiftHome), ("S-End", .shiftEnd),
        ("C-Left", .ctrlLeft), ("C-Right", .ctrlRight), ("C-Home", .ctrlHome), ("C-End", .ctrlEnd),
        ("C-Space", .ctrlSpace), ("M-BS", .altBackspace), ("F1", .f1), ("F2", .f2), ("Space", .char(" ")),
        ("lt", .char("<")), ("C-x", .ctrl("x")), ("C-a", .ctrl("a")), ("C-z", .ctrl("z")),
        ("M-x", .alt("x")), ("M-1", .alt("1")),
    ]

    @Test(arguments: names)
    func everyName(name: String, key: Key) throws {
        #expect(try KeyScript.parse("<\(name)>") == [key])
        // Names fold case; the letters of `<C-x>` and `<M-x>` are stored lower-case anyway.
        #expect(try KeyScript.parse("<\(name.uppercased())>") == [key])
        #expect(try KeyScript.parse("<\(name.lowercased())>") == [key])
    }

    @Test func ctrlLettersAreStoredLowerCase() throws {
        #expect(try KeyScript.parse("<C-S><c-q><C-w>") == [.ctrl("s"), .ctrl("q"), .ctrl("w")])
    }

    @Test func altTakesAnySingleCharacter() throws {
        #expect(try KeyScript.parse("<M-B><M-b><M-.><M-<><M->><M--><M- ><M-é><M-É>") == [
            .alt("b"), .alt("b"), .alt("."), .alt("<"), .alt(">"), .alt("-"), .alt(" "), .alt("é"), .alt("é"),
        ])
    }

    @Test func namesMixWithText() throws {
        #expect(try KeyScript.parse("@jo<Down><Enter>!") == [
            .char("@"), .char("j"), .char("o"), .down, .enter, .char("!"),
        ])
    }

    // MARK: Literal `<`

    @Test func lessThanNotShapedLikeANameIsLiteral() throws {
        #expect(try KeyScript.parse("a < b") == [.char("a"), .char(" "), .char("<"), .char(" "), .char("b")])
        #expect(try KeyScript.parse("<3") == [.char("<"), .char("3")])
        #expect(try KeyScript.parse("<>") == [.char("<"), .char(">")])
        #expect(try KeyScript.parse("<") == [.char("<")])
        #expect(try KeyScript.parse("<Enter") == "<Enter".map { Key.char($0) })
        #expect(try KeyScript.parse("< Enter>") == "< Enter>".map { Key.char($0) })
        #expect(try KeyScript.parse("<a.b>") == "<a.b>".map { Key.char($0) })
    }

    @Test func ltNameIsALiteralLessThan() throws {
        #expect(try KeyScript.parse("<lt>Enter>") == "<Enter>".map { Key.char($0) })
        #expect(try KeyScript.parse("<<lt>") == [.char("<"), .char("<")])
    }

    // MARK: Paste

    @Test func pasteIsOneKey() throws {
        #expect(try KeyScript.parse("a<Paste>hi @[Jo](1)</Paste>b") == [.char("a"), .paste("hi @[Jo](1)"), .char("b")])
    }

    @Test func pasteContentIsLiteralButForThreeNames() throws {
        #expect(try KeyScript.parse("<Paste>x <lt>b> <Enter>y<Tab>z <BS><Esc> <Paste> <3 a\nb</Paste>")
            == [.paste("x <b> \ny\tz <BS><Esc> <Paste> <3 a\nb")])
        #expect(try KeyScript.parse("<paste><LT><enter><TAB></PASTE>") == [.paste("<\n\t")])
    }

    @Test func emptyPaste() throws {
        #expect(try KeyScript.parse("<Paste></Paste>") == [.paste("")])
    }

    // MARK: Errors

    @Test func unknownNameNamesItsColumn() {
        #expect(throws: KeyScriptError(kind: .unknownName("Foo"), column: 5)) {
            try KeyScript.parse("abcd<Foo>")
        }
        #expect(KeyScriptError(kind: .unknownName("Foo"), column: 5).description
            == "--keys: unknown key name <Foo> at column 5")
    }

    @Test(arguments: ["C-1", "C-ab", "C-", "M-ab", "S-x", "F3", "Enterr", "Ctrl-a", "C-é", "123"])
    func unknownNames(name: String) {
        #expect(throws: KeyScriptError(kind: .unknownName(name), column: 2)) {
            try KeyScript.parse("x<\(name)>")
        }
    }

    @Test func columnsCountCharacters() {
        #expect(throws: KeyScriptError(kind: .unknownName("Nope"), column: 4)) {
            try KeyScript.parse("👩‍💻e\u{301}\n<Nope>")
        }
    }

    @Test func unterminatedPaste() {
        let error = KeyScriptError(kind: .unterminatedPaste, column: 3)
        #expect(throws: error) { try KeyScript.parse("ab<Paste>xyz<Enter>") }
        #expect(error.description == "--keys: <Paste> at column 3 has no </Paste>")
    }

    @Test func pasteEndWithoutStart() {
        let error = KeyScriptError(kind: .pasteEndWithoutStart, column: 2)
        #expect(throws: error) { try KeyScript.parse("a</Paste>") }
        #expect(error.description == "--keys: </Paste> at column 2 has no <Paste> before it")
    }

    @Test func firstErrorWins() {
        #expect(throws: KeyScriptError(kind: .unknownName("A"), column: 1)) {
            try KeyScript.parse("<A><B>")
        }
    }
}
