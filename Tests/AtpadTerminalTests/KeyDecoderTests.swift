import AtpadCore
import CNcursesw
import Testing
@testable import AtpadTerminal

// MARK: Helpers

/// Feeds each scalar of `raw` as a character `wget_wch` returned with OK.
private func characters(_ raw: String) -> [KeyDecoder.Input] {
    raw.unicodeScalars.map { .character($0.value) }
}

/// Decodes `raw` as one batch, then flushes.
private func decode(_ raw: String) -> [InputEvent] {
    var decoder = KeyDecoder()
    return decoder.feed(characters(raw)) + decoder.flush()
}

/// Decodes inputs as one batch, then flushes.
private func decode(_ inputs: [KeyDecoder.Input], decoder: KeyDecoder = KeyDecoder()) -> [InputEvent] {
    var decoder = decoder
    return decoder.feed(inputs) + decoder.flush()
}

private func keys(_ keys: Key...) -> [InputEvent] { keys.map { .key($0) } }

private func containsText(_ events: [InputEvent]) -> Bool {
    events.contains { if case .key(.char) = $0 { true } else { false } }
}

// MARK: Characters

@Suite("KeyDecoder: characters")
struct KeyDecoderCharacterTests {
    @Test("printable characters, ASCII and not, each become .char")
    func printable() {
        #expect(decode("aZ é日") == keys(.char("a"), .char("Z"), .char(" "), .char("é"), .char("日")))
    }

    @Test("a base and the combining marks that arrive with it are one .char")
    func combiningMarks() {
        let events = decode("e\u{301}\u{323}x")
        #expect(events == keys(.char("e\u{301}\u{323}"), .char("x")))
        #expect(events.count == 2)
    }

    @Test("a mark arriving in a later batch is its own .char")
    func combiningMarkLater() {
        var decoder = KeyDecoder()
        let first = decoder.feed(.character(0x65)) + decoder.flush()
        let second = decoder.feed(.character(0x301)) + decoder.flush()
        #expect(first == keys(.char("e")))
        #expect(second == keys(.char("\u{301}")))
    }

    @Test("emoji sequences and flags arriving together are one .char each")
    func emojiClusters() {
        #expect(decode("👩\u{200D}💻🇫🇷🇩🇪") == keys(.char("👩\u{200D}💻"), .char("🇫🇷"), .char("🇩🇪")))
    }

    @Test("a held character is delivered before the key that follows it")
    func heldCharacterComesFirst() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(.character(0x61)).isEmpty)
        #expect(decoder.feed(.keyCode(KEY_LEFT)) == keys(.char("a"), .left))
        #expect(decoder.flush().isEmpty)
    }

    @Test("Enter (10 and 13), Tab, Backspace (127 and 8), NUL")
    func controlKeys() {
        #expect(decode("\n\r\t\u{7F}\u{08}\u{0}") == keys(.enter, .enter, .tab, .backspace, .backspace, .ctrlSpace))
    }

    @Test("Ctrl-letters become .ctrl with the lower-case letter")
    func ctrlLetters() {
        for code in UInt32(1)...26 where ![8, 9, 10, 13].contains(code) {
            let letter = Character(Unicode.Scalar(0x60 + code)!)
            #expect(decode([.character(code)]) == keys(.ctrl(letter)), "code \(code)")
        }
        #expect(decode("\u{13}\u{11}\u{1A}\u{03}") == keys(.ctrl("s"), .ctrl("q"), .ctrl("z"), .ctrl("c")))
    }

    @Test("no C0 or C1 control character ever becomes .char")
    func controlsAreNeverText() {
        let controls = Array(UInt32(0)...0x1F) + Array(UInt32(0x7F)...0x9F)
        for code in controls {
            #expect(!containsText(decode([.character(code)])), "code \(code)")
            #expect(!containsText(decode([.character(0x1B), .character(code)])), "Esc + \(code)")
        }
        let unusedControls = [UInt32(0x1C), 0x1D, 0x1E, 0x1F, 0x85, 0x9B]
        #expect(decode(unusedControls.map { .character($0) }).isEmpty)
    }
}

// MARK: ncurses key codes

@Suite("KeyDecoder: ncurses key codes")
struct KeyDecoderKeyCodeTests {
    @Test("every KEY_* code atpad uses", arguments: [
        (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
        (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
        (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_BTAB, .backTab), (KEY_ENTER, .enter),
        (KEY_SLEFT, .shiftLeft), (KEY_SRIGHT, .shiftRight), (KEY_SR, .shiftUp), (KEY_SF, .shiftDown),
        (KEY_SHOME, .shiftHome), (KEY_SEND, .shiftEnd), (atpad_key_f(1), .f1),
        (atpad_key_f(2), .f2),
        (KEY_FIND, .home), (KEY_SELECT, .end), (KEY_A1, .home), (KEY_C1, .end),
    ])
    func keyCode(code: Int32, key: Key) {
        #expect(decode([.keyCode(code)]) == keys(key))
    }

    @Test("KEY_RESIZE is .resize")
    func resize() {
        #expect(decode([.keyCode(KEY_RESIZE)]) == [.resize])
    }

    @Test("extended codes (kLFT5 and friends) mean what the backend defines")
    func extendedCodes() {
        var decoder = KeyDecoder()
        let ctrlLeft: Int32 = 560, ctrlRight: Int32 = 575, ctrlHome: Int32 = 540, ctrlEnd: Int32 = 535
        let shiftUp: Int32 = 581, shiftDown: Int32 = 530
        decoder.define(ctrlLeft, as: .key(.ctrlLeft))
        decoder.define(ctrlRight, as: .key(.ctrlRight))
        decoder.define(ctrlHome, as: .key(.ctrlHome))
        decoder.define(ctrlEnd, as: .key(.ctrlEnd))
        decoder.define(shiftUp, as: .key(.shiftUp))
        decoder.define(shiftDown, as: .key(.shiftDown))
        let codes = [ctrlLeft, ctrlRight, ctrlHome, ctrlEnd, shiftUp, shiftDown].map { KeyDecoder.Input.keyCode($0) }
        #expect(decode(codes, decoder: decoder)
            == keys(.ctrlLeft, .ctrlRight, .ctrlHome, .ctrlEnd, .shiftUp, .shiftDown))
    }

    @Test("an unknown key code is dropped")
    func unknownCode() {
        #expect(decode([.keyCode(KEY_IC), .keyCode(atpad_key_f(7)), .keyCode(9999)]).isEmpty)
    }

    @Test("a mouse report passes through in order")
    func mouse() {
        let click = MouseEvent(kind: .press, row: 3, column: 7)
        #expect(decode([.character(0x61), .mouse(click), .character(0x62)])
            == [.key(.char("a")), .mouse(click), .key(.char("b"))])
    }
}

// MARK: Esc and Alt

@Suite("KeyDecoder: Esc and Alt")
struct KeyDecoderEscapeTests {
    @Test("a lone Esc waits for the flush, then is .escape")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(.character(0x1B)).isEmpty)
        #expect(decoder.flush() == keys(.escape))
        #expect(decoder.flush().isEmpty)
    }

    @Test("Esc followed by a character is Alt")
    func alt() {
        #expect(decode("\u{1B}b\u{1B}f\u{1B}d\u{1B}1\u{1B}B")
            == keys(.alt("b"), .alt("f"), .alt("d"), .alt("1"), .alt("B")))
    }

    @Test("Alt-Backspace, from 127, 8 or KEY_BACKSPACE")
    func altBackspace() {
        #expect(decode("\u{1B}\u{7F}\u{1B}\u{08}") == keys(.altBackspace, .altBackspace))
        #expect(decode([.character(0x1B), .keyCode(KEY_BACKSPACE)]) == keys(.altBackspace))
    }

    @Test("Esc Esc is two Escapes")
    func doubleEscape() {
        #expect(decode("\u{1B}\u{1B}") == keys(.escape, .escape))
    }

    @Test("Esc then a key code: both, in order")
    func escapeThenKeyCode() {
        #expect(decode([.character(0x1B), .keyCode(KEY_UP)]) == keys(.escape, .up))
    }

    @Test("Esc then Enter or a Ctrl key: both, never text")
    func escapeThenControl() {
        #expect(decode("\u{1B}\r") == keys(.escape, .enter))
        #expect(decode("\u{1B}\u{13}") == keys(.escape, .ctrl("s")))
    }

    @Test("Esc [ and Esc O with nothing after are Alt-[ and Alt-O")
    func unfinishedIntroducers() {
        #expect(decode("\u{1B}[") == keys(.alt("[")))
        #expect(decode("\u{1B}O") == keys(.alt("O")))
        #expect(decode("\u{1B}[é") == keys(.alt("["), .char("é")))
    }

    @Test("a sequence split across feeds is still one key")
    func sequenceAcrossFeeds() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(.character(0x1B)).isEmpty)
        #expect(decoder.feed(.character(0x5B)).isEmpty)
        #expect(decoder.feed(.character(0x31)).isEmpty)
        #expect(decoder.feed(characters(";5")).isEmpty)
        #expect(decoder.feed(.character(0x44)) == keys(.ctrlLeft))
        #expect(decoder.flush().isEmpty)
    }

    @Test("Esc, flush, then a character: Escape, then the character")
    func escapeFlushedBeforeCharacter() {
        var decoder = KeyDecoder()
        _ = decoder.feed(.character(0x1B))
        #expect(decoder.flush() == keys(.escape))
        #expect(decoder.feed(.character(0x62)) + decoder.flush() == keys(.char("b")))
    }
}

// MARK: Raw escape sequences

@Suite("KeyDecoder: raw escape sequences")
struct KeyDecoderSequenceTests {
    @Test("sequences ncurses leaves undecoded", arguments: [
        ("\u{1B}[1~", Key.home), ("\u{1B}[7~", .home), ("\u{1B}[H", .home), ("\u{1B}OH", .home),
        ("\u{1B}[4~", .end), ("\u{1B}[8~", .end), ("\u{1B}[F", .end), ("\u{1B}OF", .end),
        ("\u{1B}[1;5D", .ctrlLeft), ("\u{1B}[1;5C", .ctrlRight),
        ("\u{1B}[1;2A", .shiftUp), ("\u{1B}[1;2B", .shiftDown),
        ("\u{1B}[1;2D", .shiftLeft), ("\u{1B}[1;2C", .shiftRight),
        ("\u{1B}[1;2H", .shiftHome), ("\u{1B}[1;2F", .shiftEnd),
        ("\u{1B}[1;5H", .ctrlHome), ("\u{1B}[1;5F", .ctrlEnd),
        ("\u{1B}[1;3D", .ctrlLeft), ("\u{1B}[1;3C", .ctrlRight),
        ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[1;5~", .ctrlHome), ("\u{1B}[4;5~", .ctrlEnd), ("\u{1B}[7;2~", .shiftHome),
        ("\u{1B}[Z", .backTab), ("\u{1B}OP", .f1), ("\u{1B}[11~", .f1), ("\u{1B}OM", .enter),
        ("\u{1B}OQ", .f2), ("\u{1B}[12~", .f2), ("\u{1B}[Q", .f2),
    ])
    func sequence(raw: String, key: Key) {
        #expect(decode(raw) == keys(key), "\(raw.debugDescription)")
    }

    @Test("text around a sequence stays text")
    func textAroundSequence() {
        #expect(decode("a\u{1B}[4~b") == keys(.char("a"), .end, .char("b")))
    }

    @Test("unknown sequences are dropped, never inserted")
    func unknownSequences() {
        for raw in ["\u{1B}[99x", "\u{1B}[?1;2c", "\u{1B}[2~", "\u{1B}[I", "\u{1B}[O", "\u{1B}[201~", "\u{1B}Oz",
                    "\u{1B}[>0;276;0c", "\u{1B}[1;5"] {
            #expect(decode(raw).isEmpty, "\(raw.debugDescription)")
        }
    }

    @Test("the answer about grapheme clustering (DECRPM for mode 2027) is reported, never typed")
    func graphemeClusteringAnswer() {
        #expect(decode("\u{1B}[?2027;1$y") == [.graphemeClustering(.on)])
        #expect(decode("\u{1B}[?2027;3$y") == [.graphemeClustering(.on)])
        #expect(decode("\u{1B}[?2027;2$y") == [.graphemeClustering(.available)])
        #expect(decode("\u{1B}[?2027;0$y") == [.graphemeClustering(.unsupported)])
        #expect(decode("\u{1B}[?2027;4$y") == [.graphemeClustering(.unsupported)])
        // Among keys, and the answers about other modes: dropped.
        #expect(decode("a\u{1B}[?2027;1$yb") == [.key(.char("a")), .graphemeClustering(.on), .key(.char("b"))])
        #expect(decode("\u{1B}[?2026;2$y\u{1B}[2027;1$y").isEmpty)
    }

    @Test("an over-long parameter run is abandoned, and what follows decodes")
    func overlongSequence() {
        let events = decode("\u{1B}[" + String(repeating: "1;", count: 40) + "Dx")
        #expect(!events.contains(.key(.left)))
        #expect(events.last == .key(.char("x")))
    }

    @Test("raw SGR and X10 mouse reports become mouse events")
    func rawMouse() {
        #expect(decode("\u{1B}[<0;5;3M\u{1B}[<32;6;3M\u{1B}[<0;6;3m\u{1B}[<64;1;1M\u{1B}[<65;1;1M") == [
            .mouse(MouseEvent(kind: .press, row: 2, column: 4)),
            .mouse(MouseEvent(kind: .drag, row: 2, column: 5)),
            .mouse(MouseEvent(kind: .release, row: 2, column: 5)),
            .mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0)),
            .mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0)),
        ])
        #expect(decode("\u{1B}[M !!\u{1B}[M#!!") == [
            .mouse(MouseEvent(kind: .press, row: 0, column: 0)),
            .mouse(MouseEvent(kind: .release, row: 0, column: 0)),
        ])
    }
}

// MARK: Bracketed paste

@Suite("KeyDecoder: bracketed paste")
struct KeyDecoderPasteTests {
    @Test("a raw bracketed paste is one .paste")
    func rawPaste() {
        #expect(decode("x\u{1B}[200~hello @jo\tworld\u{1B}[201~y")
            == keys(.char("x"), .paste("hello @jo\tworld"), .char("y")))
    }

    @Test("CR and CRLF in pasted text become LF")
    func lineEnds() {
        #expect(decode("\u{1B}[200~a\r\nb\rc\nd\r\r\ne\u{1B}[201~") == keys(.paste("a\nb\nc\nd\n\ne")))
    }

    @Test("a paste arriving across feeds, flushes included, is still one .paste")
    func pasteAcrossFeeds() {
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        for piece in ["\u{1B}[200~line one\r", "\nline two\u{1B}", "[20", "1", "~"] {
            events += decoder.feed(characters(piece))
            #expect(piece == "~" || events.isEmpty)
            events += decoder.flush()
            #expect(piece == "~" || decoder.isInsidePaste || events.isEmpty)
        }
        #expect(events == keys(.paste("line one\nline two")))
        #expect(!decoder.isInsidePaste)
    }

    @Test("a paste framed by the codes the backend defined")
    func pasteByCodes() {
        var decoder = KeyDecoder()
        decoder.define(4096, as: .pasteStart)
        decoder.define(4097, as: .pasteEnd)
        let inputs = [KeyDecoder.Input.keyCode(4096)] + characters("one\r\ntwo") + [.keyCode(KEY_ENTER), .keyCode(4097)]
        #expect(decode(inputs, decoder: decoder) == keys(.paste("one\ntwo\n")))
    }

    @Test("Esc and other controls inside a paste are dropped; a near-terminator is text")
    func controlsInPaste() {
        #expect(decode("\u{1B}[200~a\u{1B}[31mb\u{7}c\u{1B}[201x\u{1B}[201~") == keys(.paste("a[31mbc[201x")))
    }

    @Test("keys inside a paste are not commands")
    func keysInPaste() {
        let inputs = characters("\u{1B}[200~ab") + [.keyCode(KEY_LEFT), .keyCode(KEY_RESIZE)] + characters("c\u{1B}[201~")
        #expect(decode(inputs) == [.resize, .key(.paste("abc"))])
    }

    @Test("a paste with combining marks and wide text keeps them")
    func unicodePaste() {
        #expect(decode("\u{1B}[200~e\u{301} 日本\u{1B}[201~") == keys(.paste("e\u{301} 日本")))
    }

    @Test("an empty paste produces nothing")
    func emptyPaste() {
        #expect(decode("\u{1B}[200~\u{1B}[201~").isEmpty)
    }

    @Test("a paste whose end never comes is delivered by finishPaste")
    func unfinishedPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(characters("\u{1B}[200~partial")).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(decoder.isInsidePaste)
        #expect(decoder.finishPaste() == keys(.paste("partial")))
        #expect(!decoder.isInsidePaste)
        #expect(decoder.feed(characters("z")) + decoder.flush() == keys(.char("z")))
    }
}

/// What the backend reads straight from the terminal as typing, and what it leaves to ncurses.
@Suite struct TypedTextTests {
    func typed(_ bytes: [UInt8]) -> [UInt32]? {
        bytes.withUnsafeBytes { TerminalBackend.typedText($0) }
    }

    @Test func printableTextIsTyping() {
        #expect(typed(Array("ab 1".utf8)) == [0x61, 0x62, 0x20, 0x31])
        #expect(typed(Array("é漢😀".utf8)) == [0xE9, 0x6F22, 0x1F600])
    }

    @Test func controlsEscapesAndBrokenUTF8AreLeftToNcurses() {
        #expect(typed([0x1B, 0x5B, 0x41]) == nil)  // an arrow key
        #expect(typed([0x61, 0x0D]) == nil)  // Enter
        #expect(typed([0x7F]) == nil)  // Backspace
        #expect(typed([0x13]) == nil)  // Ctrl-S
        #expect(typed([0xC3]) == nil)  // half of "é"
        #expect(typed([0xE6, 0xBC]) == nil)  // two thirds of "漢"
        #expect(typed([0xC0, 0xAF]) == nil)  // overlong "/"
        #expect(typed([0xC2, 0x85]) == nil)  // C1 control (NEL)
        #expect(typed([0xED, 0xA0, 0x80]) == nil)  // a surrogate
        #expect(typed([0xF8, 0x80, 0x80, 0x80]) == nil)
    }
}

@Suite("terminfo padding")
struct TerminfoPaddingTests {
    @Test func delaysAreRemovedAndTheRestKept() {
        #expect(TerminalBackend.withoutPadding("\u{1B}[?1049l$<5>\u{1B}[m$<2/>x") == "\u{1B}[?1049l\u{1B}[mx")
        #expect(TerminalBackend.withoutPadding("a$b<c>") == "a$b<c>")
        // An unclosed delay ends the string, as before.
        #expect(TerminalBackend.withoutPadding("ab$<5") == "ab")
        #expect(TerminalBackend.withoutPadding("") == "")
    }
}
