/// The little the app's runtime needs from a terminal: take it over and give it back (for
/// good, or while suspended), read a batch of input, report its size and signals, lay out
/// and draw a screen, and put text on the terminal's clipboard. `TerminalBackend` is the
/// ncurses one; tests use a fake; a decorator may wrap either (the app's trace of frame
/// times, `ATPAD_TRACE_FILE`).
public protocol TerminalIO: AnyObject {
    /// Whether the terminal can show colour, and how many.
    var hasColors: Bool { get }
    var colorCount: Int { get }
    /// Takes the terminal over, drawing on `ttyPath` when given (see `TerminalBackend`).
    func start(ttyPath: String?) throws
    /// Gives the terminal back; safe to call more than once.
    func stop()
    /// Gives the terminal back and stops the process (as Ctrl-Z in a shell); returns when
    /// continued, with the terminal taken again and a whole frame to draw.
    func suspend()
    /// Rows and columns.
    func size() -> (rows: Int, columns: Int)
    /// Waits up to `timeoutMilliseconds` (or until `wakeDescriptor` is readable) and
    /// returns every input event queued.
    func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32?) -> [InputEvent]
    /// Every input event already queued, without waiting (none: `[]`): what was typed
    /// before the first frame.
    func readQueuedEvents() -> [InputEvent]
    /// The signal received since the last call, if any: an exit request, or SIGTSTP.
    func takeSignal() -> Int32?
    /// Shows `screen` (writing only what differs from the screen drawn last), with
    /// clusters of several code points sent as `graphemes` says.
    func draw(_ screen: Screen, styles: [Role: Style], colors: Bool, graphemes: Graphemes)
    /// Puts `text` on the terminal's clipboard (OSC 52).
    func setClipboard(_ text: String)
    /// The frame `layout` lays out for the terminal's size (rows, columns), to draw next.
    func layOutFrame(_ layout: (_ rows: Int, _ columns: Int) -> Frame) -> Frame
    /// When the last wait of `readEvents` ended (input came, or a wake); the time after it
    /// went on reading and decoding.
    var lastWake: ContinuousClock.Instant { get }
}

extension TerminalIO {
    public func layOutFrame(_ layout: (_ rows: Int, _ columns: Int) -> Frame) -> Frame {
        let (rows, columns) = size()
        return layout(rows, columns)
    }

    /// A terminal that does not tell: the events are taken as read the moment they came.
    public var lastWake: ContinuousClock.Instant { .now }
}

extension TerminalBackend: TerminalIO {
    /// Puts `text` on the terminal's clipboard with OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`),
    /// which xterm, kitty, iTerm2, WezTerm, foot and tmux (with `set-clipboard on`) honour;
    /// terminals that do not know it ignore it.
    public func setClipboard(_ text: String) {
        guard isActive else { return }
        writeToTerminal("\u{1B}]52;c;" + Base64.encode(Array(text.utf8)) + "\u{7}")
    }
}

/// Standard base64 (RFC 4648, with padding), for OSC 52.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
