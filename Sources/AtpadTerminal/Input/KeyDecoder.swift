import AtpadCore
import CNcursesw

/// Turns what ncurses' `wget_wch` delivers into `InputEvent`s, without calling ncurses.
///
/// It knows the `KEY_*` codes, Esc/Alt, the escape sequences ncurses leaves undecoded
/// (delivered as Esc followed by characters), bracketed paste and combining marks. Feed it
/// everything read in one batch, then call `flush()` when nothing more is queued: a lone
/// Esc, `Esc [` or `Esc O`, and a character that might still take a combining mark, wait
/// for the next input or the flush to be decided.
public struct KeyDecoder: Sendable {
    /// One thing `wget_wch` (and `getmouse`) produced.
    public enum Input: Hashable, Sendable {
        /// `wget_wch` returned OK with this character code.
        case character(UInt32)
        /// `wget_wch` returned KEY_CODE_YES with this key code.
        case keyCode(Int32)
        /// A KEY_MOUSE report, already read with `getmouse` by the backend.
        case mouse(MouseEvent)
    }

    /// What a key code stands for.
    public enum CodeMeaning: Hashable, Sendable {
        case key(Key)
        case resize
        /// The start (`\e[200~`) and end (`\e[201~`) of a bracketed paste.
        case pasteStart, pasteEnd
    }

    /// Where the decoder is inside an escape sequence.
    private enum Sequence: Hashable, Sendable {
        case none
        /// Saw Esc.
        case escape
        /// Saw `Esc [` and these parameter/intermediate bytes.
        case csi([UInt8])
        /// Saw `Esc O`.
        case ss3
        /// Saw `Esc [ M` (an X10 mouse report) and these of its three bytes.
        case x10Mouse([UInt32])
    }

    /// A bracketed paste being collected.
    private struct Paste: Sendable {
        var text = String.UnicodeScalarView()
        var lastWasCarriageReturn = false
        /// How many characters of `\e[201~` have been seen in a row.
        var terminatorMatched = 0
    }

    private static let escape: UInt32 = 0x1B
    private static let pasteTerminator: [UInt32] = Array("\u{1B}[201~".unicodeScalars.map(\.value))
    /// Longer parameter runs are not keys; give up on them rather than buffer input.
    private static let maximumSequenceLength = 32

    private var meanings: [Int32: CodeMeaning]
    private var sequence = Sequence.none
    private var paste: Paste?
    /// A printable cluster not yet emitted, because a combining mark may still join it.
    private var pendingText = ""
    private var output: [InputEvent] = []
    /// Whether the left button is down, so pointer motion reads as a drag.
    private var buttonDown = false

    /// A decoder that knows the standard `KEY_*` codes; add extended ones with `define`.
    public init() {
        meanings = Self.standardMeanings
    }

    /// Feeds raw bytes of pasted text (read straight from the terminal, in blocks) while
    /// a bracketed paste is open: UTF-8 is decoded here, the end marker closes the paste,
    /// and whatever follows it is decoded as ordinary input. Returns the bytes of an
    /// incomplete UTF-8 sequence at the end, to be prepended to the next block.
    public mutating func feedPasteBytes(_ bytes: [UInt8]) -> (events: [InputEvent], leftover: [UInt8]) {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(bytes.count)
        var i = 0
        var leftover: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b & 0xE0 == 0xC0 ? 2 : b & 0xF0 == 0xE0 ? 3 : b & 0xF8 == 0xF0 ? 4 : 1
            if i + length > bytes.count {
                leftover = Array(bytes[i...])
                break
            }
            if length == 1 {
                scalars.append(b < 0x80 ? UInt32(b) : 0xFFFD)
            } else {
                var value = UInt32(b) & (0xFF >> (length + 1))
                var valid = true
                for k in 1..<length {
                    let c = bytes[i + k]
                    if c & 0xC0 != 0x80 { valid = false; break }
                    value = value << 6 | UInt32(c & 0x3F)
                }
                scalars.append(valid ? value : 0xFFFD)
                if !valid {
                    i += 1
                    continue
                }
            }
            i += length
        }
        for code in scalars {
            if paste != nil {
                pasteCharacter(code)
            } else {
                character(code)
            }
        }
        let events = output
        output.removeAll()
        return (events, leftover)
    }

    /// Whether a bracketed paste has started and not yet ended.
    public var isInsidePaste: Bool { paste != nil }

    /// Gives a key code (an extended one such as `kLFT5`, or one registered with
    /// `define_key`) its meaning.
    public mutating func define(_ code: Int32, as meaning: CodeMeaning) {
        meanings[code] = meaning
    }

    /// The meaning of a key code, if the decoder knows it.
    public func meaning(of code: Int32) -> CodeMeaning? {
        meanings[code]
    }

    /// Decodes one input; returns the events it completes (possibly none).
    public mutating func feed(_ input: Input) -> [InputEvent] {
        process(input)
        return takeOutput()
    }

    /// Decodes several inputs in order.
    public mutating func feed<S: Swift.Sequence>(_ inputs: S) -> [InputEvent] where S.Element == Input {
        for input in inputs { process(input) }
        return takeOutput()
    }

    /// Says that no more input is queued right now: a pending Esc becomes `.escape`,
    /// `Esc [` / `Esc O` become Alt-[ / Alt-O, an unfinished sequence is dropped and a held
    /// character is emitted. An open bracketed paste stays open (it may arrive in pieces).
    public mutating func flush() -> [InputEvent] {
        if paste == nil {
            abandonSequence()
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

    private mutating func process(_ input: Input) {
        switch input {
        case .character(let code):
            if paste != nil { pasteCharacter(code) } else { character(code) }
        case .keyCode(let code):
            keyCode(code)
        case .mouse(let event):
            if paste == nil {
                abandonSequence()
                emitPendingText()
            }
            output.append(.mouse(event))
        }
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

    // MARK: Characters outside a paste

    private mutating func character(_ code: UInt32) {
        switch sequence {
        case .none:
            plain(code)
        case .escape:
            afterEscape(code)
        case .csi(var bytes):
            if (0x20...0x3F).contains(code) {
                bytes.append(UInt8(code))
                sequence = bytes.count > Self.maximumSequenceLength ? .none : .csi(bytes)
            } else if (0x40...0x7E).contains(code) {
                sequence = .none
                if bytes.isEmpty && code == 0x4D {  // `Esc [ M`: three raw bytes follow
                    sequence = .x10Mouse([])
                } else {
                    controlSequence(bytes, final: UInt8(code))
                }
            } else {
                // Not a control sequence after all.
                abandonSequence()
                plain(code)
            }
        case .ss3:
            sequence = .none
            if (0x40...0x7E).contains(code) {
                singleShift(UInt8(code))
            } else {
                emit(.alt("O"))
                plain(code)
            }
        case .x10Mouse(var bytes):
            bytes.append(code)
            if bytes.count < 3 {
                sequence = .x10Mouse(bytes)
            } else {
                sequence = .none
                x10Mouse(bytes)
            }
        }
    }

    private mutating func plain(_ code: UInt32) {
        switch code {
        case 0: emit(.ctrlSpace)
        case 8, 0x7F: emit(.backspace)
        case 9: emit(.tab)
        case 10, 13: emit(.enter)
        case Self.escape:
            emitPendingText()
            sequence = .escape
        case 1...26:
            emit(.ctrl(Character(Unicode.Scalar(UInt8(0x60 + code)))))
        case 0x1C...0x1F, 0x80...0x9F:
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

    private mutating func afterEscape(_ code: UInt32) {
        sequence = .none
        switch code {
        case 0x5B: sequence = .csi([])  // [
        case 0x4F: sequence = .ss3  // O
        case Self.escape:
            emit(.escape)
            sequence = .escape
        case 8, 0x7F:
            emit(.altBackspace)
        case 0...0x1F, 0x80...0x9F:
            // Alt with a control key: no such key in atpad; deliver both halves.
            emit(.escape)
            plain(code)
        default:
            guard let scalar = Unicode.Scalar(code) else { emit(.escape); return }
            emit(.alt(Character(scalar)))
        }
    }

    /// Decides a pending sequence that no further character will complete.
    private mutating func abandonSequence() {
        let abandoned = sequence
        sequence = .none
        switch abandoned {
        case .none, .x10Mouse: break
        case .escape: emit(.escape)
        case .csi(let bytes): if bytes.isEmpty { emit(.alt("[")) }
        case .ss3: emit(.alt("O"))
        }
    }

    // MARK: Escape sequences ncurses did not decode

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

    // MARK: Mouse reports ncurses did not decode

    private mutating func x10Mouse(_ bytes: [UInt32]) {
        guard bytes.allSatisfy({ $0 >= 32 && $0 < 0x110000 }) else { return }
        let button = Int(bytes[0]) - 32
        mouse(button: button, column: Int(bytes[1]) - 33, row: Int(bytes[2]) - 33, released: (button & 3) == 3)
    }

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

    // MARK: Key codes

    private mutating func keyCode(_ code: Int32) {
        let meaning = meanings[code]
        if paste != nil {
            switch meaning {
            case .pasteEnd: endPaste()
            case .key(.enter): pasteCharacter(10)
            case .key(.tab): pasteCharacter(9)
            case .resize: output.append(.resize)
            default: break  // A key inside pasted text is not a command.
            }
            return
        }
        if sequence == .escape && meaning == .key(.backspace) {
            sequence = .none
            emit(.altBackspace)
            return
        }
        abandonSequence()
        switch meaning {
        case .key(let key): emit(key)
        case .resize:
            emitPendingText()
            output.append(.resize)
        case .pasteStart: startPaste()
        case .pasteEnd, nil: break
        }
    }

    // MARK: Bracketed paste

    private mutating func startPaste() {
        emitPendingText()
        sequence = .none
        paste = Paste()
    }

    private mutating func endPaste() {
        guard let finished = paste else { return }
        paste = nil
        if !finished.text.isEmpty {
            output.append(.key(.paste(String(finished.text))))
        }
    }

    /// Collects one pasted character, watching for `\e[201~`. CR and CRLF become LF;
    /// Esc and other control characters (except Tab and LF) are dropped.
    private mutating func pasteCharacter(_ code: UInt32) {
        guard var current = paste else { return }
        // Take the paste out while editing it, so its text buffer is uniquely referenced
        // and appended to in place (a copy per character would make a paste quadratic).
        paste = nil
        let terminator = Self.pasteTerminator
        if current.terminatorMatched > 0 {
            if code == terminator[current.terminatorMatched] {
                current.terminatorMatched += 1
                if current.terminatorMatched == terminator.count {
                    paste = current
                    endPaste()
                } else {
                    paste = current
                }
                return
            }
            // Not the terminator: keep what followed the Esc as text.
            let matched = terminator[1..<current.terminatorMatched]
            current.terminatorMatched = 0
            for c in matched { Self.append(c, to: &current) }
        }
        if code == Self.escape {
            current.terminatorMatched = 1
        } else {
            Self.append(code, to: &current)
        }
        paste = current
    }

    private static func append(_ code: UInt32, to paste: inout Paste) {
        let wasCarriageReturn = paste.lastWasCarriageReturn
        paste.lastWasCarriageReturn = code == 13
        switch code {
        case 13: paste.text.append("\n")
        case 10: if !wasCarriageReturn { paste.text.append("\n") }
        case 9: paste.text.append("\t")
        case 0...0x1F, 0x7F...0x9F: break
        default:
            if let scalar = Unicode.Scalar(code) { paste.text.append(scalar) }
        }
    }

    // MARK: The standard key codes

    private static let standardMeanings: [Int32: CodeMeaning] = {
        var table: [Int32: CodeMeaning] = [
            KEY_UP: .key(.up), KEY_DOWN: .key(.down), KEY_LEFT: .key(.left), KEY_RIGHT: .key(.right),
            KEY_HOME: .key(.home), KEY_END: .key(.end), KEY_PPAGE: .key(.pageUp), KEY_NPAGE: .key(.pageDown),
            KEY_BACKSPACE: .key(.backspace), KEY_DC: .key(.delete), KEY_BTAB: .key(.backTab),
            KEY_ENTER: .key(.enter),
            KEY_SLEFT: .key(.shiftLeft), KEY_SRIGHT: .key(.shiftRight),
            KEY_SR: .key(.shiftUp), KEY_SF: .key(.shiftDown),
            KEY_SHOME: .key(.shiftHome), KEY_SEND: .key(.shiftEnd),
            KEY_SDC: .key(.delete), KEY_SPREVIOUS: .key(.pageUp), KEY_SNEXT: .key(.pageDown),
            // Keypad corners, and the VT220 Find/Select keys that sit where Home/End are
            // (some terminfo entries name `\e[1~` / `\e[4~` so).
            KEY_A1: .key(.home), KEY_A3: .key(.pageUp), KEY_C1: .key(.end), KEY_C3: .key(.pageDown),
            KEY_FIND: .key(.home), KEY_SELECT: .key(.end), KEY_BEG: .key(.home),
            KEY_RESIZE: .resize,
        ]
        table[KEY_F0 + 1] = .key(.f1)
        table[KEY_F0 + 2] = .key(.f2)
        return table
    }()
}
