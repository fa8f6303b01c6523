import AtpadCore
import CNcursesw
import Testing
@testable import AtpadTerminal

// MARK: Helpers

/// The UTF-8 bytes of `raw`, as a terminal sends them.
private func bytes(_ raw: String) -> [UInt8] { Array(raw.utf8) }

/// Decodes `raw` as one batch, then flushes.
private func decode(_ raw: String, decoder: KeyDecoder = KeyDecoder()) -> [InputEvent] {
    decode(bytes(raw), decoder: decoder)
}

/// Decodes bytes as one batch, then flushes.
private func decode(_ input: [UInt8], decoder: KeyDecoder = KeyDecoder()) -> [InputEvent] {
    var decoder = decoder
    return decoder.feed(input) + decoder.flush()
}

/// Decodes `raw` one byte per feed (a terminal that splits everything), then flushes.
private func decodeBytewise(_ raw: String, decoder: KeyDecoder = KeyDecoder()) -> [InputEvent] {
    var decoder = decoder
    var events: [InputEvent] = []
    for byte in raw.utf8 { events += decoder.feed([byte]) }
    return events + decoder.flush()
}

private func keys(_ keys: Key...) -> [InputEvent] { keys.map { .key($0) } }

private func containsText(_ events: [InputEvent]) -> Bool {
    events.contains { if case .key(.char) = $0 { true } else { false } }
}

/// The strings `TERM=linux` gives for some keys (its F1/F2 and Shift-Tab are its own).
private let linuxConsole: [[UInt8]: Key] = [
    bytes("\u{1B}[[A"): .f1, bytes("\u{1B}[[B"): .f2, bytes("\u{1B}\t"): .backTab,
    bytes("\u{1B}[A"): .up, bytes("\u{1B}[1~"): .home, bytes("\u{1B}[4~"): .end, bytes("\u{1B}[3~"): .delete,
]

/// rxvt's shifted and modified keys, which no xterm sends.
private let rxvt: [[UInt8]: Key] = [
    bytes("\u{1B}[7$"): .shiftHome, bytes("\u{1B}[8$"): .shiftEnd, bytes("\u{1B}[d"): .shiftLeft,
    bytes("\u{1B}[c"): .shiftRight, bytes("\u{1B}[a"): .shiftUp, bytes("\u{1B}Od"): .ctrlLeft,
    bytes("\u{1B}[7~"): .home, bytes("\u{1B}[8~"): .end,
]

// MARK: Characters

@Suite("KeyDecoder: characters")
struct KeyDecoderCharacterTests {
    @Test("printable characters, ASCII and not, each become .char")
    func printable() {
        #expect(decode("aZ é日😀") == keys(.char("a"), .char("Z"), .char(" "), .char("é"), .char("日"), .char("😀")))
    }

    @Test("a character split across reads is still one .char")
    func characterAcrossFeeds() {
        #expect(decodeBytewise("é日😀") == keys(.char("é"), .char("日"), .char("😀")))
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
        let first = decoder.feed(bytes("e")) + decoder.flush()
        let second = decoder.feed(bytes("\u{301}")) + decoder.flush()
        #expect(first == keys(.char("e")))
        #expect(second == keys(.char("\u{301}")))
    }

    @Test("emoji sequences and flags arriving together are one .char each")
    func emojiClusters() {
        #expect(decode("👩\u{200D}💻🇫🇷🇩🇪👍🏽") == keys(.char("👩\u{200D}💻"), .char("🇫🇷"), .char("🇩🇪"), .char("👍🏽")))
    }

    @Test("a held character is delivered before the key that follows it")
    func heldCharacterComesFirst() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("a")).isEmpty)
        #expect(decoder.feed(bytes("\u{1B}[D")) == keys(.char("a"), .left))
        #expect(decoder.flush().isEmpty)
    }

    @Test("Enter (10 and 13), Tab, Backspace (127 and 8), NUL")
    func controlKeys() {
        #expect(decode("\n\r\t\u{7F}\u{08}\u{0}") == keys(.enter, .enter, .tab, .backspace, .backspace, .ctrlSpace))
    }

    @Test("Ctrl-letters become .ctrl with the lower-case letter")
    func ctrlLetters() {
        for code in UInt8(1)...26 where ![8, 9, 10, 13].contains(code) {
            let letter = Character(Unicode.Scalar(0x60 + code))
            #expect(decode([code]) == keys(.ctrl(letter)), "code \(code)")
        }
        #expect(decode("\u{13}\u{11}\u{1A}\u{03}") == keys(.ctrl("s"), .ctrl("q"), .ctrl("z"), .ctrl("c")))
    }

    @Test("no C0 or C1 control character ever becomes .char")
    func controlsAreNeverText() {
        let controls = (0 ... 0x1F).map { Unicode.Scalar(UInt8($0)) } + (0x7F ... 0x9F).map { Unicode.Scalar(UInt8($0)) }
        for control in controls {
            let text = String(Character(control))
            #expect(!containsText(decode(text)), "U+\(control.value)")
            #expect(!containsText(decode("\u{1B}" + text)), "Esc + U+\(control.value)")
        }
        #expect(decode("\u{1C}\u{1D}\u{1E}\u{1F}\u{85}\u{9B}").isEmpty)
    }

    @Test("bytes that are no UTF-8 are dropped, and what follows decodes")
    func brokenUTF8() {
        #expect(decode([0xC3, 0x61]) == keys(.char("a")))  // half of "é", then "a"
        #expect(decode([0x80, 0xBF, 0xFF, 0x62]) == keys(.char("b")))  // stray bytes
        #expect(decode([0xC0, 0xAF]).isEmpty)  // an overlong "/"
        #expect(decode([0xED, 0xA0, 0x80]).isEmpty)  // a surrogate
        #expect(decode([0xE6, 0xBC]).isEmpty)  // two thirds of "漢", then nothing
    }

    @Test("half a character waits for the rest, and says so")
    func halfACharacterWaits() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE6, 0xBC]).isEmpty)
        #expect(decoder.isAwaitingSequence)
        #expect(decoder.feed([0xA2]) + decoder.flush() == keys(.char("漢")))
        #expect(!decoder.isAwaitingSequence)
    }
}

// MARK: Esc and Alt

@Suite("KeyDecoder: Esc and Alt")
struct KeyDecoderEscapeTests {
    @Test("a lone Esc is no unfinished sequence: the flush makes it .escape at once")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}")).isEmpty)
        #expect(!decoder.isAwaitingSequence)
        #expect(decoder.flush() == keys(.escape))
        #expect(decoder.flush().isEmpty)
    }

    @Test("a sequence begun past its Esc is unfinished until its last byte")
    func unfinishedSequenceWaits() {
        var decoder = KeyDecoder()
        _ = decoder.feed(bytes("\u{1B}["))
        #expect(decoder.isAwaitingSequence)
        _ = decoder.feed(bytes("1;2"))
        #expect(decoder.isAwaitingSequence)
        #expect(decoder.feed(bytes("A")) == keys(.shiftUp))
        #expect(!decoder.isAwaitingSequence)
        _ = decoder.feed(bytes("\u{1B}[M "))
        #expect(decoder.isAwaitingSequence)  // a mouse report's three bytes
        #expect(decoder.flush().isEmpty)
    }

    @Test("Esc followed by a character is Alt")
    func alt() {
        #expect(decode("\u{1B}b\u{1B}f\u{1B}d\u{1B}1\u{1B}B\u{1B}é")
            == keys(.alt("b"), .alt("f"), .alt("d"), .alt("1"), .alt("B"), .alt("é")))
    }

    @Test("Alt-Z, the suspend key, is Alt with z (Ctrl-Z stays Ctrl-Z)")
    func altZ() {
        #expect(decode("\u{1B}z") == keys(.alt("z")))
        #expect(decodeBytewise("\u{1B}z") == keys(.alt("z")))
        #expect(decode("\u{1A}") == keys(.ctrl("z")))
        #expect(decode("\u{1B}z", decoder: KeyDecoder(sequences: linuxConsole)) == keys(.alt("z")))
    }

    @Test("Alt-Backspace, from 127 or 8")
    func altBackspace() {
        #expect(decode("\u{1B}\u{7F}\u{1B}\u{08}") == keys(.altBackspace, .altBackspace))
    }

    @Test("Esc Esc is two Escapes")
    func doubleEscape() {
        #expect(decode("\u{1B}\u{1B}") == keys(.escape, .escape))
        #expect(decode("\u{1B}\u{1B}[A") == keys(.escape, .up))
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
        #expect(decode("\u{1B}O\u{7F}") == keys(.alt("O"), .backspace))
    }

    @Test("a sequence split across feeds is still one key")
    func sequenceAcrossFeeds() {
        var decoder = KeyDecoder()
        for byte in bytes("\u{1B}[1;5") {
            #expect(decoder.feed([byte]).isEmpty)
            #expect(decoder.isAwaitingSequence == (byte != 0x1B))
        }
        #expect(decoder.feed(bytes("D")) == keys(.ctrlLeft))
        #expect(!decoder.isAwaitingSequence)
        #expect(decoder.flush().isEmpty)
    }

    @Test("Esc, flush, then a character: Escape, then the character")
    func escapeFlushedBeforeCharacter() {
        var decoder = KeyDecoder()
        _ = decoder.feed(bytes("\u{1B}"))
        #expect(decoder.flush() == keys(.escape))
        #expect(decoder.feed(bytes("b")) + decoder.flush() == keys(.char("b")))
    }
}

// MARK: Escape sequences by the xterm/VT grammar

@Suite("KeyDecoder: xterm and VT sequences")
struct KeyDecoderSequenceTests {
    @Test("cursor, editing and function keys with xterm's modifiers", arguments: [
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
        #expect(decodeBytewise(raw) == keys(key), "\(raw.debugDescription) byte by byte")
    }

    @Test("keypad keys in application mode")
    func keypad() {
        #expect(decode("\u{1B}Op\u{1B}Oy\u{1B}Ok\u{1B}On") == keys(.char("0"), .char("9"), .char("+"), .char(".")))
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
}

// MARK: The terminal's own sequences (terminfo)

@Suite("KeyDecoder: terminfo sequences")
struct KeyDecoderTerminfoTests {
    @Test("the Linux console's F1, F2 and Shift-Tab, whole or byte by byte")
    func linuxKeys() {
        let decoder = KeyDecoder(sequences: linuxConsole)
        let raw = "\u{1B}[[A\u{1B}[[B\u{1B}\tx"
        #expect(decode(raw, decoder: decoder) == keys(.f1, .f2, .backTab, .char("x")))
        #expect(decodeBytewise(raw, decoder: decoder) == keys(.f1, .f2, .backTab, .char("x")))
        // Without the entry, the console's F1 is no key (and never text but its last letter).
        #expect(!decode("\u{1B}[[A").contains(.key(.f1)))
    }

    @Test("rxvt's shifted keys, which the grammar alone does not know")
    func rxvtKeys() {
        let decoder = KeyDecoder(sequences: rxvt)
        #expect(decode("\u{1B}[7$\u{1B}[8$\u{1B}[d\u{1B}[c\u{1B}[a\u{1B}Od", decoder: decoder)
            == keys(.shiftHome, .shiftEnd, .shiftLeft, .shiftRight, .shiftUp, .ctrlLeft))
        #expect(decodeBytewise("\u{1B}[7$", decoder: decoder) == keys(.shiftHome))
    }

    @Test("the grammar still reads what the entry does not name")
    func grammarBesideTheEntry() {
        let decoder = KeyDecoder(sequences: linuxConsole)
        #expect(decode("\u{1B}[1;5D\u{1B}[B\u{1B}OP\u{1B}[200~hi\u{1B}[201~", decoder: decoder)
            == keys(.ctrlLeft, .down, .f1, .paste("hi")))
    }

    @Test("a beginning of the entry's sequence that goes on otherwise is read by the grammar")
    func divergingPrefix() {
        let decoder = KeyDecoder(sequences: linuxConsole)
        // `Esc [ [` might have been F1; `Esc [ [ Z` is no key, and Z is not lost as text
        // of a sequence nor taken for one.
        #expect(!decode("\u{1B}[[Z", decoder: decoder).contains(.key(.f1)))
        #expect(decode("\u{1B}[[", decoder: decoder).isEmpty)
        // `Esc [` followed by a key: Alt-[ then the key, as without the entry.
        #expect(decode("\u{1B}[", decoder: decoder) == keys(.alt("[")))
    }

    @Test("a known sequence that a longer one begins with is taken when the longer does not come")
    func sequenceInsideALongerOne() {
        let decoder = KeyDecoder(sequences: [bytes("\u{1B}[5"): .pageUp, bytes("\u{1B}[55x"): .pageDown])
        #expect(decode("\u{1B}[5", decoder: decoder) == keys(.pageUp))
        #expect(decode("\u{1B}[55x", decoder: decoder) == keys(.pageDown))
        #expect(decode("\u{1B}[5a", decoder: decoder) == keys(.pageUp, .char("a")))
    }

    @Test("the entry wins where it and the grammar disagree")
    func entryFirst() {
        // vt100's keypad corner `Esc O q` is Home by its entry, a digit by the grammar.
        #expect(decode("\u{1B}Oq", decoder: KeyDecoder(sequences: [bytes("\u{1B}Oq"): .home])) == keys(.home))
        #expect(decode("\u{1B}Oq") == keys(.char("1")))
    }

    @Test("strings that do not begin with Esc are ignored: such bytes are keys or text already")
    func plainStringsIgnored() {
        let decoder = KeyDecoder(sequences: [[0x7F]: .delete, bytes("x"): .f1, [0x1B]: .f2])
        #expect(decode("\u{7F}x\u{1B}", decoder: decoder) == keys(.backspace, .char("x"), .escape))
    }
}

/// The key strings looked up in the terminfo database, as the backend does at start.
@Suite("KeyDefinitions: from terminfo", .serialized)
struct KeyDefinitionsTests {
    func sequences(for term: String) throws -> [[UInt8]: Key] {
        var status: Int32 = 0
        try #require(setupterm(term, 1, &status) == OK, "no terminfo entry for \(term)")
        defer { if let entry = set_curterm(nil) { del_curterm(entry) } }
        return KeyDefinitions.terminfoSequences()
    }

    @Test func theLinuxConsoleKeysComeFromItsEntry() throws {
        let sequences = try sequences(for: "linux")
        #expect(sequences[bytes("\u{1B}[[A")] == .f1)
        #expect(sequences[bytes("\u{1B}[[B")] == .f2)
        #expect(sequences[bytes("\u{1B}\t")] == .backTab)
        #expect(sequences[bytes("\u{1B}[A")] == .up)
        #expect(sequences[bytes("\u{1B}[1~")] == .home)
        #expect(decode("\u{1B}[[A\u{1B}[[Bx\u{1B}[4~", decoder: KeyDecoder(sequences: sequences))
            == keys(.f1, .f2, .char("x"), .end))
    }

    @Test func xtermsModifiedKeysComeFromItsExtendedNames() throws {
        let sequences = try sequences(for: "xterm-256color")
        #expect(sequences[bytes("\u{1B}OA")] == .up)
        #expect(sequences[bytes("\u{1B}OH")] == .home)
        #expect(sequences[bytes("\u{1B}[1;5D")] == .ctrlLeft)
        #expect(sequences[bytes("\u{1B}[1;2H")] == .shiftHome)
        #expect(sequences[bytes("\u{1B}[3~")] == .delete)
    }

    @Test func rxvtsShiftedKeysComeFromItsEntry() throws {
        let sequences = try sequences(for: "rxvt")
        #expect(decode("\u{1B}[7$\u{1B}[d\u{1B}[7~", decoder: KeyDecoder(sequences: sequences))
            == keys(.shiftHome, .shiftLeft, .home))
    }
}

// MARK: Mouse

@Suite("KeyDecoder: mouse reports")
struct KeyDecoderMouseTests {
    @Test("SGR (1006) reports: press, drag, release, wheel")
    func sgr() {
        let raw = "\u{1B}[<0;5;3M\u{1B}[<32;6;3M\u{1B}[<0;6;3m\u{1B}[<64;1;1M\u{1B}[<65;1;1M"
        let expected: [InputEvent] = [
            .mouse(MouseEvent(kind: .press, row: 2, column: 4)),
            .mouse(MouseEvent(kind: .drag, row: 2, column: 5)),
            .mouse(MouseEvent(kind: .release, row: 2, column: 5)),
            .mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0)),
            .mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0)),
        ]
        #expect(decode(raw) == expected)
        #expect(decodeBytewise(raw) == expected)
    }

    @Test("X10 reports, also past column 95 (raw bytes, no UTF-8)")
    func x10() {
        #expect(decode("\u{1B}[M !!\u{1B}[M#!!") == [
            .mouse(MouseEvent(kind: .press, row: 0, column: 0)),
            .mouse(MouseEvent(kind: .release, row: 0, column: 0)),
        ])
        #expect(decode(bytes("\u{1B}[M ") + [0xC8, 0x2A]) == [.mouse(MouseEvent(kind: .press, row: 9, column: 167))])
    }

    @Test("a mouse report between typed characters keeps the order")
    func order() {
        #expect(decode("a\u{1B}[<0;8;4Mb") == [
            .key(.char("a")), .mouse(MouseEvent(kind: .press, row: 3, column: 7)), .key(.char("b")),
        ])
    }

    @Test("a drag or release with no press, and other buttons, are nothing")
    func strayReports() {
        #expect(decode("\u{1B}[<32;6;3M\u{1B}[<0;6;3m\u{1B}[<2;1;1M\u{1B}[<1;1;1M").isEmpty)
    }

    @Test("a mouse report ends a held Esc: Esc, then the report")
    func escapeBeforeReport() {
        #expect(decode("\u{1B}\u{1B}[<0;1;1M") == [.key(.escape), .mouse(MouseEvent(kind: .press, row: 0, column: 0))])
    }
}

// MARK: Bracketed paste

@Suite("KeyDecoder: bracketed paste")
struct KeyDecoderPasteTests {
    @Test("a bracketed paste is one .paste")
    func paste() {
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
            events += decoder.feed(bytes(piece))
            #expect(piece == "~" || events.isEmpty)
            events += decoder.flush()
            #expect(piece == "~" || decoder.isInsidePaste || events.isEmpty)
        }
        #expect(events == keys(.paste("line one\nline two")))
        #expect(!decoder.isInsidePaste)
    }

    @Test("a paste decoded byte by byte is the same paste")
    func pasteBytewise() {
        let raw = "a\u{1B}[200~e\u{301} 日本\r\n😀\u{1B}[31m\u{1B}[201~b"
        #expect(decodeBytewise(raw) == decode(raw))
        #expect(decode(raw) == keys(.char("a"), .paste("e\u{301} 日本\n😀[31m"), .char("b")))
    }

    @Test("a character split between two reads of a paste is kept whole")
    func characterSplitInPaste() {
        var decoder = KeyDecoder()
        let text = bytes("\u{1B}[200~日本\u{1B}[201~")
        let middle = 8  // inside the first character's three bytes
        let events = decoder.feed(Array(text[..<middle])) + decoder.flush() + decoder.feed(Array(text[middle...]))
        #expect(events == keys(.paste("日本")))
    }

    @Test("Esc and other controls inside a paste are dropped; a near-terminator is text")
    func controlsInPaste() {
        #expect(decode("\u{1B}[200~a\u{1B}[31mb\u{7}c\u{1B}[201x\u{7F}\u{85}d\u{1B}[201~") == keys(.paste("a[31mbc[201xd")))
    }

    @Test("keys inside a paste are not commands")
    func keysInPaste() {
        #expect(decode("\u{1B}[200~ab\u{1B}[D\u{11}c\u{1B}[201~") == keys(.paste("ab[Dc")))
    }

    @Test("broken UTF-8 inside a paste becomes U+FFFD, never a lost paste")
    func brokenUTF8InPaste() {
        #expect(decode(bytes("\u{1B}[200~a") + [0xFF, 0xC3] + bytes("b\u{1B}[201~")) == keys(.paste("a\u{FFFD}\u{FFFD}b")))
    }

    @Test("an empty paste produces nothing")
    func emptyPaste() {
        #expect(decode("\u{1B}[200~\u{1B}[201~").isEmpty)
    }

    @Test("a paste whose end never comes is delivered by finishPaste")
    func unfinishedPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[200~partial")).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(decoder.isInsidePaste)
        #expect(decoder.finishPaste() == keys(.paste("partial")))
        #expect(!decoder.isInsidePaste)
        #expect(decoder.feed(bytes("z")) + decoder.flush() == keys(.char("z")))
    }

    @Test("a megabyte paste in 64 KB blocks is one .paste with every line")
    func largePaste() {
        let line = "line with @jo and 日本 — 0123456789 abcdefghijklmnopqrstuvwxyz"
        let body = String(repeating: line + "\r\n", count: 1 << 14)
        let raw = bytes("\u{1B}[200~" + body + "\u{1B}[201~")
        var decoder = KeyDecoder()
        var events: [InputEvent] = []
        var start = 0
        while start < raw.count {
            let end = min(start + 65536, raw.count)
            events += decoder.feed(Array(raw[start ..< end]))
            start = end
        }
        events += decoder.flush()
        #expect(events == keys(.paste(String(repeating: line + "\n", count: 1 << 14))))
    }
}

@Suite("terminfo padding")
struct TerminfoPaddingTests {
    func withoutDelays(_ capability: String) -> String {
        capability.withCString { String(decoding: TerminalStrings.withoutDelays($0), as: UTF8.self) }
    }

    @Test func delaysAreRemovedAndTheRestKept() {
        #expect(withoutDelays("\u{1B}[?1049l$<5>\u{1B}[m$<2/>x") == "\u{1B}[?1049l\u{1B}[mx")
        #expect(withoutDelays("a$b<c>") == "a$b<c>")
        // An unclosed delay ends the string, as before.
        #expect(withoutDelays("ab$<5") == "ab")
        #expect(withoutDelays("") == "")
    }
}
