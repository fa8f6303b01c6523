import AtpadCore

/// Turns the bytes a terminal sends into `InputEvent`s: a pure state machine, no I/O.
///
/// It decodes UTF-8 text (a base and the combining marks that arrive with it make one
/// `.char`), control keys, Esc and Alt (Esc before a key), the xterm/VT escape sequences
/// of cursor and editing keys with their modifiers, SGR (1006) and X10 mouse reports, and
/// bracketed paste (one `.paste` key). The sequences the terminal's terminfo entry names
/// are matched first, so a terminal with keys of its own (the Linux console's F1 is
/// `Esc [ [ A`, rxvt's Shift-Home `Esc [ 7 $`) is read as its entry says.
///
/// Feed it whatever arrives, in any pieces, then call `flush()` when nothing more is
/// queued. An Esc that nothing followed is the Esc key: a terminal writes a key's whole
/// sequence at once, so an Esc alone at the end of what was queued was typed (as crossterm
/// reads it; waiting for more would join Esc and the next key typed into Alt). A sequence
/// begun past its Esc (`Esc [ 1 ;`, a mouse report, half a character) is incomplete
/// (`isAwaitingSequence`): the caller gives the rest a moment to arrive before the flush
/// decides. A character that might still take a combining mark waits for the flush.
public struct KeyDecoder: Sendable {
    /// Where a bracketed paste stands: its bytes so far (UTF-8, checked at the end).
    private struct Paste: Sendable {
        var bytes: [UInt8] = []
        var lastWasCarriageReturn = false
        /// How many bytes of `Esc [ 2 0 1 ~` have been seen in a row.
        var terminatorMatched = 0
    }

    private static let escape: UInt8 = 0x1B
    private static let pasteTerminator: [UInt8] = Array("\u{1B}[201~".utf8)
    /// Longer runs after Esc are no keys; give up on them rather than buffer input.
    private static let maximumSequenceLength = 32

    /// The terminfo sequences, by their bytes after the Esc.
    private let known: [[UInt8]: Key]
    /// Every proper beginning of a known sequence (after the Esc): seen so far, wait.
    private let knownPrefixes: Set<[UInt8]>

    /// The bytes after an Esc whose meaning is not decided yet (nil: no Esc pending).
    private var pending: [UInt8]?
    /// The raw bytes of an X10 mouse report (`Esc [ M` and three bytes), while they come.
    private var mouseBytes: [UInt8]?
    /// A UTF-8 character begun: its bits so far, the bytes still to come, the least
    /// value its length allows, and whether an Esc came before it (Alt).
    private var partial: (value: UInt32, remaining: Int, least: UInt32, alt: Bool)?
    private var paste: Paste?
    /// A printable cluster not yet emitted, because a combining mark may still join it.
    private var pendingText = ""
    private var output: [InputEvent] = []
    /// Whether the left button is down, so pointer motion reads as a drag.
    private var buttonDown = false

    /// A decoder that also knows `sequences`, the terminal's own key strings (terminfo's
    /// `kcuu1`, `khome`, `kf1`…) with the key each means. Only sequences that begin with
    /// Esc are kept: single bytes (`kbs`) are control keys the decoder knows already.
    public init(sequences: [[UInt8]: Key] = [:]) {
        var known: [[UInt8]: Key] = [:]
        var prefixes = Set<[UInt8]>()
        for (bytes, key) in sequences where bytes.count >= 2 && bytes[0] == Self.escape
            && bytes.count <= Self.maximumSequenceLength {
            let tail = Array(bytes.dropFirst())
            known[tail] = key
            for length in 1 ..< tail.count { prefixes.insert(Array(tail[..<length])) }
        }
        self.known = known
        knownPrefixes = prefixes
    }

    /// Whether a bracketed paste has started and not yet ended.
    public var isInsidePaste: Bool { paste != nil }

    /// Whether the last bytes began something that more bytes will complete: an escape
    /// sequence past its Esc, a mouse report or a character. The caller should give them
    /// a moment to arrive (a terminal may split a sequence across reads) before `flush()`
    /// decides. A lone Esc is not waited for: it is the Esc key.
    public var isAwaitingSequence: Bool { pending?.isEmpty == false || mouseBytes != nil || partial != nil }

    /// Decodes `bytes`; returns the events they complete (possibly none).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [InputEvent] {
        var i = 0
        while i < bytes.count {
            if paste != nil {
                i = collectPaste(bytes, from: i)
            } else {
                process(bytes[i])
                i += 1
            }
        }
        return takeOutput()
    }

    /// Decodes `bytes`; returns the events they complete (possibly none).
    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    /// Says that no more input is queued right now: a pending Esc becomes `.escape`,
    /// `Esc [` / `Esc O` become Alt-[ / Alt-O, an unfinished sequence or character is
    /// dropped and a held character is emitted. An open bracketed paste stays open (it
    /// may arrive in pieces).
    public mutating func flush() -> [InputEvent] {
        if paste == nil {
            abandonSequence()
            mouseBytes = nil
            partial = nil
            emitPendingText()
        }
        return takeOutput()
    }

    /// Ends an open bracketed paste whose terminator never came, delivering what arrived.
    public mutating func finishPaste() -> [InputEvent] {
        if paste != nil { endPaste() }
        return takeOutput()
    }

    // MARK: Dispatch

    private mutating func takeOutput() -> [InputEvent] {
        let events = output
        output.removeAll(keepingCapacity: true)
        return events
    }

    private mutating func emit(_ key: Key) {
        emitPendingText()
        output.append(.key(key))
    }

    private mutating func emitPendingText() {
        guard !pendingText.isEmpty else { return }
        output.append(.key(.char(Character(pendingText))))
        pendingText = ""
    }

    /// One byte outside a paste.
    private mutating func process(_ byte: UInt8) {
        if mouseBytes != nil {
            mouseBytes!.append(byte)
            if mouseBytes!.count == 3 {
                let report = mouseBytes!
                mouseBytes = nil
                x10Mouse(report)
            }
            return
        }
        if let character = partial {
            if byte & 0xC0 == 0x80 {
                continueCharacter(character, with: byte)
                return
            }
            // Cut short: what was begun is dropped, the byte starts afresh.
            partial = nil
        }
        if pending != nil {
            afterEscape(byte)
        } else {
            ground(byte)
        }
    }

    private mutating func ground(_ byte: UInt8) {
        switch byte {
        case 0 ..< 0x80:
            plain(UInt32(byte))
        case 0xC2 ... 0xF4:
            beginCharacter(byte, alt: false)
        default:
            break  // A stray continuation byte or one no UTF-8 has: never text.
        }
    }

    // MARK: UTF-8

    private mutating func beginCharacter(_ lead: UInt8, alt: Bool) {
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        partial = (UInt32(lead) & (0xFF >> (length + 1)), length - 1, least, alt)
    }

    private mutating func continueCharacter(_ begun: (value: UInt32, remaining: Int, least: UInt32, alt: Bool),
                                            with byte: UInt8) {
        let value = begun.value << 6 | UInt32(byte & 0x3F)
        guard begun.remaining == 1 else {
            partial = (value, begun.remaining - 1, begun.least, begun.alt)
            return
        }
        partial = nil
        // Overlong forms and surrogates are no characters.
        guard value >= begun.least, !(0xD800 ... 0xDFFF).contains(value) else { return }
        if begun.alt {
            if (0x80 ... 0x9F).contains(value) { emit(.escape) }
            else if let scalar = Unicode.Scalar(value) { emit(.alt(Character(scalar))) }
        } else {
            plain(value)
        }
    }

    // MARK: Characters and control keys

    private mutating func plain(_ code: UInt32) {
        switch code {
        case 0: emit(.ctrlSpace)
        case 8, 0x7F: emit(.backspace)
        case 9: emit(.tab)
        case 10, 13: emit(.enter)
        case UInt32(Self.escape):
            emitPendingText()
            pending = []
        case 1 ... 26:
            emit(.ctrl(Character(Unicode.Scalar(UInt8(0x60 + code)))))
        case 0x1C ... 0x1F, 0x80 ... 0x9F:
            // Ctrl-\ ] ^ _ and C1 controls are no keys of atpad; never insert them.
            emitPendingText()
        default:
            guard let scalar = Unicode.Scalar(code) else { emitPendingText(); return }
            printable(scalar)
        }
    }

    /// Holds printable scalars until they can no longer extend the grapheme cluster, so
    /// a base and the combining marks that arrive with it make one `.char`.
    private mutating func printable(_ scalar: Unicode.Scalar) {
        if pendingText.isEmpty {
            pendingText.unicodeScalars.append(scalar)
            return
        }
        var extended = pendingText
        extended.unicodeScalars.append(scalar)
        if extended.count == 1 {
            pendingText = extended
        } else {
            emitPendingText()
            pendingText.unicodeScalars.append(scalar)
        }
    }

    // MARK: After an Esc

    /// One more byte after an Esc: the terminal's own sequences first, then the xterm/VT
    /// grammar (CSI and SS3 sequences), then Alt with a key.
    private mutating func afterEscape(_ byte: UInt8) {
        pending!.append(byte)
        let bytes = pending!
        if knownPrefixes.contains(bytes) { return }
        if let key = known[bytes] {
            pending = nil
            emit(key)
            return
        }
        // A known sequence held because a longer one begins with it, then not continued.
        if let length = longestKnownPrefix(of: bytes) {
            pending = nil
            emit(known[Array(bytes[..<length])]!)
            refeed(bytes[length...])
            return
        }
        decide(bytes)
    }

    private func longestKnownPrefix(of bytes: [UInt8]) -> Int? {
        var length = bytes.count - 1
        while length > 0 {
            if known[Array(bytes[..<length])] != nil { return length }
            length -= 1
        }
        return nil
    }

    /// Reads `bytes` (what followed an Esc, known sequences ruled out) by the grammar:
    /// leaves `pending` set while they may still grow, else acts and feeds the rest on.
    private mutating func decide(_ bytes: [UInt8]) {
        let first = bytes[0]
        switch first {
        case UInt8(ascii: "["):
            var end = 1
            while end < bytes.count, (0x20 ... 0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else {
                if bytes.count > Self.maximumSequenceLength { pending = nil }
                return
            }
            pending = nil
            let final = bytes[end]
            if (0x40 ... 0x7E).contains(final) {
                if end == 1 && final == UInt8(ascii: "M") {
                    mouseBytes = []  // `Esc [ M`: three raw bytes follow
                } else {
                    controlSequence(Array(bytes[1 ..< end]), final: final)
                }
                refeed(bytes[(end + 1)...])
            } else {
                // Not a control sequence after all.
                if end == 1 { emit(.alt("[")) }
                refeed(bytes[end...])
            }
        case UInt8(ascii: "O"):
            guard bytes.count >= 2 else { return }
            pending = nil
            if (0x40 ... 0x7E).contains(bytes[1]) {
                singleShift(bytes[1])
                refeed(bytes[2...])
            } else {
                emit(.alt("O"))
                refeed(bytes[1...])
            }
        default:
            pending = nil
            switch first {
            case Self.escape:
                emit(.escape)
                refeed(bytes[...])
                return
            case 8, 0x7F:
                emit(.altBackspace)
            case 0 ..< 0x20:
                // Alt with a control key: no such key in atpad; deliver both halves.
                emit(.escape)
                refeed(bytes[...])
                return
            case 0x20 ..< 0x80:
                emit(.alt(Character(Unicode.Scalar(first))))
            case 0xC2 ... 0xF4:
                emitPendingText()
                beginCharacter(first, alt: true)
            default:
                emit(.escape)
            }
            refeed(bytes[1...])
        }
    }

    private mutating func refeed(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            if paste != nil { appendPasted(byte) } else { process(byte) }
        }
    }

    /// Decides a pending sequence that no further byte will complete.
    private mutating func abandonSequence() {
        while let bytes = pending {
            if bytes.isEmpty {
                pending = nil
                emit(.escape)
            } else if let key = known[bytes] {
                pending = nil
                emit(key)
            } else if let length = longestKnownPrefix(of: bytes) {
                pending = nil
                emit(known[Array(bytes[..<length])]!)
                refeed(bytes[length...])
            } else {
                decide(bytes)
                guard pending == bytes else { continue }
                // The grammar still waits: a bare `Esc [` or `Esc O` is Alt with the
                // character, anything longer is dropped.
                pending = nil
                if bytes == [UInt8(ascii: "[")] { emit(.alt("[")) }
                if bytes == [UInt8(ascii: "O")] { emit(.alt("O")) }
            }
        }
    }

    // MARK: Escape sequences by the xterm/VT grammar

    /// `Esc [ params final`: cursor keys with xterm modifiers, `~` keys, paste start, SGR mouse.
    private mutating func controlSequence(_ bytes: [UInt8], final: UInt8) {
        if bytes.first == UInt8(ascii: "<") {
            sgrMouse(Array(bytes.dropFirst()), final: final)
            return
        }
        // `CSI ? 2027 ; Ps $ y`: the answer to the backend's question about grapheme
        // clustering (DECRPM).
        if final == UInt8(ascii: "y"), bytes.first == UInt8(ascii: "?"), bytes.last == UInt8(ascii: "$"),
           let numbers = Self.parameters(Array(bytes.dropFirst().dropLast())), numbers.count == 2,
           numbers[0] == 2027, let ps = numbers[1] {
            emitPendingText()
            output.append(.graphemeClustering(GraphemeClusteringReport(ps)))
            return
        }
        guard let numbers = Self.parameters(bytes) else { return }
        let modifiers = numbers.count >= 2 ? max(numbers[1] ?? 1, 1) - 1 : 0
        let shift = modifiers & 1 != 0
        let alt = modifiers & 2 != 0
        let control = modifiers & 4 != 0
        switch final {
        case UInt8(ascii: "A"): emit(shift ? .shiftUp : .up)
        case UInt8(ascii: "B"): emit(shift ? .shiftDown : .down)
        // Alt-arrows move by word as in most terminals' defaults (like Alt-B / Alt-F).
        case UInt8(ascii: "C"): emit(control || alt ? .ctrlRight : shift ? .shiftRight : .right)
        case UInt8(ascii: "D"): emit(control || alt ? .ctrlLeft : shift ? .shiftLeft : .left)
        case UInt8(ascii: "H"): emit(control ? .ctrlHome : shift ? .shiftHome : .home)
        case UInt8(ascii: "F"): emit(control ? .ctrlEnd : shift ? .shiftEnd : .end)
        case UInt8(ascii: "Z"): emit(.backTab)
        case UInt8(ascii: "P"): emit(.f1)
        case UInt8(ascii: "Q"): emit(.f2)
        case UInt8(ascii: "~"):
            switch numbers.first ?? nil {
            case 1, 7: emit(control ? .ctrlHome : shift ? .shiftHome : .home)
            case 4, 8: emit(control ? .ctrlEnd : shift ? .shiftEnd : .end)
            case 3: emit(.delete)
            case 5: emit(.pageUp)
            case 6: emit(.pageDown)
            case 11: emit(.f1)
            case 12: emit(.f2)
            case 18: emit(.f7)
            case 200: startPaste()
            default: break  // Insert, F-keys atpad has no use for, a stray paste end.
            }
        default:
            break  // Focus reports and other sequences: not keys.
        }
    }

    /// The `;`-separated numbers of a sequence (nil entries for empty ones), or nil when
    /// it is a private sequence (`?`, `>`, `=`) or not numbers at all.
    private static func parameters(_ bytes: [UInt8]) -> [Int?]? {
        var numbers: [Int?] = []
        var current: Int?
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
            case UInt8(ascii: ";"), UInt8(ascii: ":"):
                numbers.append(current)
                current = nil
            default:
                return nil
            }
        }
        numbers.append(current)
        return numbers
    }

    /// `Esc O x`: cursor and keypad keys in application mode.
    private mutating func singleShift(_ final: UInt8) {
        switch final {
        case UInt8(ascii: "A"): emit(.up)
        case UInt8(ascii: "B"): emit(.down)
        case UInt8(ascii: "C"): emit(.right)
        case UInt8(ascii: "D"): emit(.left)
        case UInt8(ascii: "H"): emit(.home)
        case UInt8(ascii: "F"): emit(.end)
        case UInt8(ascii: "P"): emit(.f1)
        case UInt8(ascii: "Q"): emit(.f2)
        case UInt8(ascii: "M"): emit(.enter)
        case UInt8(ascii: "p")...UInt8(ascii: "y"):  // keypad digits
            emit(.char(Character(Unicode.Scalar(final - UInt8(ascii: "p") + UInt8(ascii: "0")))))
        case UInt8(ascii: "j"): emit(.char("*"))
        case UInt8(ascii: "k"): emit(.char("+"))
        case UInt8(ascii: "m"): emit(.char("-"))
        case UInt8(ascii: "n"): emit(.char("."))
        case UInt8(ascii: "o"): emit(.char("/"))
        case UInt8(ascii: "X"): emit(.char("="))
        default: break
        }
    }

    // MARK: Mouse reports

    /// `Esc [ M b x y`: each a byte, offset by 32 (positions from 1).
    private mutating func x10Mouse(_ bytes: [UInt8]) {
        guard bytes.allSatisfy({ $0 >= 32 }) else { return }
        let button = Int(bytes[0]) - 32
        mouse(button: button, column: Int(bytes[1]) - 33, row: Int(bytes[2]) - 33, released: (button & 3) == 3)
    }

    /// `Esc [ < b ; x ; y M` (pressed, moved) or `… m` (released): SGR mode 1006.
    private mutating func sgrMouse(_ bytes: [UInt8], final: UInt8) {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m"),
              let numbers = Self.parameters(bytes), numbers.count == 3,
              let button = numbers[0], let column = numbers[1], let row = numbers[2]
        else { return }
        mouse(button: button, column: column - 1, row: row - 1, released: final == UInt8(ascii: "m"))
    }

    /// Interprets xterm's button byte: low bits the button, 32 motion, 64 wheel.
    private mutating func mouse(button: Int, column: Int, row: Int, released: Bool) {
        guard row >= 0, column >= 0 else { return }
        emitPendingText()
        let kind: MouseEvent.Kind
        if button & 64 != 0 {
            guard button & 3 <= 1 else { return }
            kind = button & 3 == 0 ? .wheelUp : .wheelDown
        } else if released {
            guard buttonDown else { return }
            buttonDown = false
            kind = .release
        } else if button & 32 != 0 {
            guard buttonDown, button & 3 == 0 else { return }
            kind = .drag
        } else {
            guard button & 3 == 0 else { return }
            buttonDown = true
            kind = .press
        }
        output.append(.mouse(MouseEvent(kind: kind, row: row, column: column)))
    }

    // MARK: Bracketed paste

    private mutating func startPaste() {
        emitPendingText()
        paste = Paste()
    }

    private mutating func endPaste() {
        guard let finished = paste else { return }
        paste = nil
        var text = String(decoding: finished.bytes, as: UTF8.self)
        // C1 controls (U+0080…U+009F, lead byte C2) are dropped like C0 ones.
        if finished.bytes.contains(0xC2) {
            text.unicodeScalars.removeAll { (0x80 ... 0x9F).contains($0.value) }
        }
        if !text.isEmpty {
            output.append(.key(.paste(text)))
        }
    }

    /// Takes pasted bytes from `bytes[start...]` until the paste ends (what follows the
    /// end marker is left for the caller) or the bytes do; returns where it stopped.
    /// Runs of ordinary bytes are copied whole: a paste can be megabytes.
    private mutating func collectPaste(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count, paste != nil {
            if paste!.terminatorMatched == 0 {
                var end = i
                while end < bytes.count, bytes[end] >= 0x20, bytes[end] != 0x7F, bytes[end] != Self.escape { end += 1 }
                if end > i {
                    paste!.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i ..< end]))
                    paste!.lastWasCarriageReturn = false
                    i = end
                    continue
                }
            }
            appendPasted(bytes[i])
            i += 1
        }
        return i
    }

    /// One pasted byte, watching for `Esc [ 2 0 1 ~`. CR and CRLF become LF; Esc and
    /// other control characters (except Tab and LF) are dropped.
    private mutating func appendPasted(_ byte: UInt8) {
        let terminator = Self.pasteTerminator
        let matched = paste!.terminatorMatched
        if matched > 0 {
            if byte == terminator[matched] {
                paste!.terminatorMatched += 1
                if paste!.terminatorMatched == terminator.count { endPaste() }
                return
            }
            // Not the terminator: what followed the Esc is text.
            paste!.terminatorMatched = 0
            for seen in terminator[1 ..< matched] { appendText(seen) }
        }
        if byte == Self.escape {
            paste!.terminatorMatched = 1
        } else {
            appendText(byte)
        }
    }

    private mutating func appendText(_ byte: UInt8) {
        let wasCarriageReturn = paste!.lastWasCarriageReturn
        paste!.lastWasCarriageReturn = byte == 13
        switch byte {
        case 13: paste!.bytes.append(10)
        case 10: if !wasCarriageReturn { paste!.bytes.append(10) }
        case 9: paste!.bytes.append(9)
        case 0 ..< 0x20, 0x7F: break
        default: paste!.bytes.append(byte)
        }
    }
}
