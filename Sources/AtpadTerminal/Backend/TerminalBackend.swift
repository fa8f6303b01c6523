import AtpadCore
import CNcursesw
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal atpad draws on and reads keys from: the only code that calls ncurses.
///
/// `start` takes the terminal over (raw mode, keypad, mouse, bracketed paste), `draw`
/// shows a `Screen`, `readEvents` returns every input queued as one batch, and `stop`
/// (idempotent) gives the terminal back.
///
/// ncurses sets the terminal up, gives its terminfo strings and decodes special keys and
/// mouse reports; frames are written by a `FrameWriter` in the terminal's own strings, one
/// `write` each (ncurses' `doupdate` cost more than the rest of a keystroke). Keys are
/// read through a 1×1 pad, which `wget_wch` never refreshes, so ncurses never draws over
/// a frame. Where `stop` never runs — `exit()`, a crash, a
/// second exit signal the program did not take in time — an emergency restore does.
public final class TerminalBackend {
    /// Whether the terminal is taken over (between `start` and `stop`).
    public private(set) var isActive = false
    /// How many colours the terminal has (0 before `start` or without colour).
    public private(set) var colorCount = 0
    /// Whether the terminal can show colour at all.
    public private(set) var hasColors = false

    /// An open bracketed paste whose end has not come for this long is delivered as is.
    private static let pasteTimeout = Duration.seconds(1)
    /// Longest single wait inside an open paste (to notice `pasteTimeout`) or without a
    /// wake descriptor (to notice a signal that came just before the wait).
    private static let waitSlice = 100

    private var ncursesScreen: OpaquePointer?
    private var ownedFiles: [UnsafeMutablePointer<FILE>] = []
    private var inputFD: Int32 = -1
    private var outputFD: Int32 = -1
    private var decoder = KeyDecoder()
    /// The window keys are read through: a pad, which `wget_wch` never refreshes.
    private var inputWindow: UnsafeMutablePointer<WINDOW>?
    private var writer = FrameWriter(strings: .xterm)
    /// The bytes of a frame, kept between frames so their storage is reused.
    private var frameBytes: [UInt8] = []
    /// Nothing has been drawn since ncurses cleared the screen at start.
    private var screenIsCleared = false
    private var signals = SignalTrap()
    private var mouseEnabled = false
    private var mouseButtonDown = false
    private var lastInput = ContinuousClock.now
    /// When the last wait for input ended (for the echo trace: the time spent reading).
    public private(set) var lastWake = ContinuousClock.now

    public init() {}

    deinit { stop() }

    // MARK: Start and stop

    /// Whether there is a terminal to edit on: stdin and stdout are both terminals, or the
    /// controlling terminal `/dev/tty` opens (a process started with `setsid`, cron or a
    /// CI job has none). Checked before anything else, so `atpad: no terminal` comes first.
    public static func hasTerminal() -> Bool {
        if isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 { return true }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Takes the terminal over. Draws on and reads from `ttyPath` when given; else uses
    /// the standard streams, each replaced by `/dev/tty` when it is not a terminal (stdout
    /// captured by `body=$(atpad --print)`, stdin piped as in `atpad - < draft.md`).
    /// Throws, without touching the screen, when TERM is missing or unusable.
    public func start(ttyPath: String? = nil) throws {
        atpad_keep_frames_on_heap()
        invalidate()
        guard !isActive else { return }
        Self.prepareLocale()
        guard let termPointer = getenv("TERM"), termPointer.pointee != 0 else {
            throw TerminalError.noTerminalType
        }
        let termName = String(cString: termPointer)

        // Each side that is not a terminal is replaced by /dev/tty, like vim: stdout
        // captured (`body=$(atpad --print)`) draws there, stdin piped or redirected
        // (`xargs atpad`, `atpad - < draft.md`) reads keys there.
        let input: UnsafeMutablePointer<FILE>
        let output: UnsafeMutablePointer<FILE>
        let inputPath = ttyPath ?? (isatty(STDIN_FILENO) == 0 ? "/dev/tty" : nil)
        let outputPath = ttyPath ?? (isatty(STDOUT_FILENO) == 0 ? "/dev/tty" : nil)
        if let inputPath {
            guard let readable = fopen(inputPath, "r") else {
                throw TerminalError.cannotOpenTerminal(path: inputPath, reason: String(cString: strerror(errno)))
            }
            input = readable
            ownedFiles.append(readable)
        } else {
            input = atpad_stdin()
        }
        if let outputPath {
            guard let writable = fopen(outputPath, "w") else {
                let reason = String(cString: strerror(errno))
                closeOwnedFiles()
                throw TerminalError.cannotOpenTerminal(path: outputPath, reason: reason)
            }
            output = writable
            ownedFiles.append(writable)
        } else {
            output = atpad_stdout()
        }

        do {
            try Self.checkTerminalType(termName, descriptor: fileno(output))
        } catch {
            closeOwnedFiles()
            throw error
        }

        inputFD = fileno(input)
        var originalModes = termios()
        let haveModes = tcgetattr(inputFD, &originalModes) == 0
        // Before newterm: ncurses installs its own SIGINT/SIGTERM/SIGTSTP handlers only
        // where the disposition is still the default.
        signals.install()
        // The size comes from the terminal itself, never from LINES/COLUMNS in the
        // environment: an exported COLUMNS (a shell, a test runner) would pin a stale size.
        use_tioctl(true)
        guard let newScreen = newterm(nil, output, input) else {
            signals.restore()
            closeOwnedFiles()
            throw TerminalError.startFailed(termName)
        }
        ncursesScreen = newScreen
        set_term(newScreen)

        let window = atpad_stdscr()
        raw()  // Ctrl-C/Z/S/Q are keys, never signals or flow control.
        noecho()
        nonl()
        keypad(window, true)
        meta(window, true)
        intrflush(window, false)
        set_escdelay(25)

        hasColors = has_colors()
        if hasColors {
            start_color()
            _ = use_default_colors()
        }
        colorCount = hasColors ? Int(atpad_colors()) : 0
        writer = FrameWriter(strings: TerminalStrings.fromTerminfo())
        inputWindow = newpad(1, 1)
        if let inputWindow {
            keypad(inputWindow, true)
            meta(inputWindow, true)
        }

        mouseEnabled = mousemask(atpad_all_mouse_events() | atpad_report_mouse_position(), nil) != 0
        mouseinterval(0)
        mouseButtonDown = false

        decoder = KeyDecoder()
        KeyDefinitions.register(in: &decoder)

        // ncurses' first refresh clears the screen and sends its set-up; after it, only
        // the frame writer draws.
        wnoutrefresh(window)
        doupdate()
        screenIsCleared = true
        // Written straight to the terminal once ncurses has flushed its set-up: 1002 (drag
        // reports) must follow the 1000 that ncurses sends, which would replace it.
        outputFD = fileno(output)
        writeToTerminal(Self.modesOn(mouse: mouseEnabled))

        SignalTrap.arm(output: outputFD, input: haveModes ? inputFD : -1, modes: originalModes,
                       bytes: Self.emergencyRestoreBytes(mouse: mouseEnabled))
        lastInput = .now
        isActive = true
    }

    /// Gives the terminal back: paste and mouse reporting off, ncurses ended, the tty
    /// closed, the signal dispositions restored. Safe to call any number of times.
    public func stop() {
        guard isActive else { return }
        isActive = false
        doupdate()  // empties ncurses' output buffer, so what follows comes after it
        writeToTerminal(Self.modesOff(mouse: mouseEnabled))
        if setClusteringMode { _ = writeToTerminal(GraphemeClusteringReport.reset) }
        setClusteringMode = false
        // ncurses believes the screen blank and plain: the writer's looks and hidden
        // cursor are undone here.
        let strings = writer.strings
        _ = writeToTerminal(strings.resetAttributes + strings.resetColors + strings.showCursor)
        if mouseEnabled { mousemask(0, nil) }
        endwin()
        if let inputWindow { delwin(inputWindow) }
        inputWindow = nil
        SignalTrap.disarm()
        signals.restore()
        if let ncursesScreen { delscreen(ncursesScreen) }
        ncursesScreen = nil
        closeOwnedFiles()
        inputFD = -1
        outputFD = -1
    }

    /// Writes terminal modes ncurses does not manage, bypassing its buffer.
    func writeToTerminal(_ text: String) {
        _ = writeToTerminal(Array(text.utf8))
    }

    /// Writes `bytes` whole (a terminal that is not ready is waited for); false when the
    /// terminal failed.
    private func writeToTerminal(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(outputFD, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: outputFD, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 100)
                    continue
                }
                return false
            }
            if written == 0 { return false }
            offset += written
        }
        return true
    }

    /// The exit-request signal (SIGINT, SIGTERM, SIGHUP or SIGQUIT) received since the
    /// last call, if any. The program should stop the terminal and exit with 128 + it.
    public func takeSignal() -> Int32? {
        SignalTrap.take()
    }

    /// The terminal's size in rows and columns ((0, 0) when not started).
    public func size() -> (rows: Int, columns: Int) {
        guard isActive, let window = atpad_stdscr() else { return (0, 0) }
        return (Int(atpad_getmaxy(window)), Int(atpad_getmaxx(window)))
    }

    private func closeOwnedFiles() {
        for file in ownedFiles { fclose(file) }
        ownedFiles = []
    }

    private static func modesOn(mouse: Bool) -> String {
        "\u{1B}[?2004h" + (mouse ? "\u{1B}[?1002h" : "")
    }

    private static func modesOff(mouse: Bool) -> String {
        "\u{1B}[?2004l" + (mouse ? "\u{1B}[?1002l" : "")
    }

    /// What the emergency restore writes without ncurses: atpad's modes off, then the
    /// terminfo strings for attributes, cursor, keypad and the alternate screen.
    private static func emergencyRestoreBytes(mouse: Bool) -> [UInt8] {
        var text = modesOff(mouse: mouse) + (mouse ? "\u{1B}[?1006l\u{1B}[?1000l" : "")
        for name in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            guard let value = atpad_tigetstr(name) else { continue }
            text += withoutPadding(String(cString: value))
        }
        return Array(text.utf8)
    }

    /// Removes terminfo delays (`$<5>`), which only `tputs` understands. (On the bytes:
    /// a generic substring search here is slow enough to show in start-up.)
    static func withoutPadding(_ capability: String) -> String {
        capability.withCString { String(decoding: TerminalStrings.withoutDelays($0), as: UTF8.self) }
    }

    /// Sets the locale from the environment; without a UTF-8 character set (C, POSIX)
    /// falls back to C.UTF-8, or ncurses garbles and stalls on non-ASCII input.
    private static func prepareLocale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil {
                setlocale(LC_CTYPE, "en_US.UTF-8")
            }
        }
    }

    /// Fails for a TERM that newterm cannot use, before anything reaches the screen.
    private static func checkTerminalType(_ name: String, descriptor: Int32) throws {
        var status: Int32 = 0
        guard setupterm(name, descriptor, &status) == OK else {
            throw status == -1 ? TerminalError.noTerminfoDatabase(name) : TerminalError.unknownTerminalType(name)
        }
        let canMoveCursor = atpad_tigetstr("cup") != nil
        if let probe = set_curterm(nil) { del_curterm(probe) }
        guard canMoveCursor else { throw TerminalError.cannotAddressCursor(name) }
    }

    // MARK: Input

    /// Waits up to `timeoutMilliseconds` (negative: no limit) for input, then returns
    /// every event already queued, so the program can draw once per batch. Returns early
    /// (possibly with no events) when an exit signal arrives: check `takeSignal()`.
    /// `.endOfInput` when the input has ended (stdin at end of file, hang-up).
    ///
    /// A byte on `wakeDescriptor` (a pipe other threads write to when they have something
    /// for the loop, such as a directory's answer) also ends the wait; it is consumed.
    public func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32? = nil) -> [InputEvent] {
        guard isActive else { return [.endOfInput] }
        var events: [InputEvent] = []
        // ncurses may hold input already (pushed-back bytes) or a resize it noted.
        _ = drain(into: &events)
        let deadline = timeoutMilliseconds < 0
            ? nil : ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        var emptyReadable = 0
        while events.isEmpty && !SignalTrap.isPending {
            if decoder.isInsidePaste && ContinuousClock.now - lastInput > Self.pasteTimeout {
                events += decoder.finishPaste()
                break
            }
            // Otherwise no limit but the caller's: the signals the loop must see write to
            // the wake pipe (`WakePipe.receiveSignals`), so an idle editor sleeps until needed.
            var wait = decoder.isInsidePaste || wakeDescriptor == nil ? Self.waitSlice : -1
            if let deadline {
                let left = deadline - .now
                if left <= .zero { break }
                let milliseconds = max(Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000), 1)
                wait = wait < 0 ? milliseconds : min(wait, milliseconds)
            }
            // Two descriptors on the stack (a tuple), not an array allocated per wait.
            var descriptors = (pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
            let ready = withUnsafeMutableBytes(of: &descriptors) { raw in
                poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), wakeDescriptor == nil ? 1 : 2, Int32(wait))
            }
            let descriptor = descriptors.0
            lastWake = .now
            if ready < 0 {
                // A signal: SIGWINCH becomes KEY_RESIZE inside ncurses.
                if errno == EINTR { _ = drain(into: &events); continue }
                events.append(.endOfInput)
                break
            }
            guard ready > 0 else { continue }
            if let wakeDescriptor, descriptors.1.revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
                if descriptor.revents == 0 { break }
            }
            if readTyped(into: &events) || drain(into: &events) {
                emptyReadable = 0
                continue
            }
            // Readable but nothing to read: end of file (a pipe, /dev/null) or hang-up.
            // One such wake-up can be a byte ncurses held back; twice in a row is the end.
            emptyReadable += 1
            let hungUp = descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            if hungUp || emptyReadable >= 2 {
                events.append(.endOfInput)
                break
            }
        }
        if events.isEmpty && decoder.isInsidePaste && ContinuousClock.now - lastInput > Self.pasteTimeout {
            events += decoder.finishPaste()
        }
        for case let .graphemeClustering(report) in events { clustering = report }
        return events
    }

    /// Reads everything queued, without waiting, through the decoder; true when
    /// anything was read.
    /// Reads the rest of a bracketed paste straight from the terminal in large blocks.
    /// ncurses reads input one byte at a time and holds nothing past the paste-start
    /// sequence it just matched, so the body is still in the tty's buffer; one `wget_wch`
    /// per pasted character is too slow for a large paste. Stops at the
    /// end marker (what follows it is decoded as ordinary input), or when nothing more
    /// arrives for a while (the paste then stays open and ncurses reads on).
    private func readPasteBody(into events: inout [InputEvent]) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var carry: [UInt8] = []
        while decoder.isInsidePaste {
            var descriptor = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            lastInput = .now
            let (decoded, leftover) = decoder.feedPasteBytes(carry + buffer[0..<n])
            events += decoded
            carry = leftover
        }
        // A sequence cut off by a stalled paste cannot be completed any more: U+FFFD.
        if !carry.isEmpty { events += decoder.feedPasteBytes(carry.map { _ in UInt8(0xFF) }).events }
    }

    /// Reads what is queued straight from the terminal when it is typed text — printable
    /// characters, no control or escape byte — and feeds it to the decoder as `wget_wch`
    /// would. Anything else (keys, mouse reports, a paste, half a character) is pushed back
    /// for ncurses to read. Typing is most of what a terminal sends, and ncurses reads it a
    /// byte and a poll at a time, with more code cold between keystrokes than the key itself.
    /// Returns whether it consumed anything.
    private func readTyped(into events: inout [InputEvent]) -> Bool {
        // At most 4 bytes: a keystroke (one character) is what typing sends per wake-up.
        // And what is pushed back then cannot hold a whole paste-start sequence (6 bytes)
        // with pasted text after it, which the paste reader would read from the terminal
        // before ncurses gave back the pushed-back part.
        var buffer: UInt32 = 0
        return withUnsafeMutableBytes(of: &buffer) { raw -> Bool in
            let n = read(inputFD, raw.baseAddress, raw.count)
            guard n > 0 else { return false }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[0 ..< n])
            guard let scalars = Self.typedText(bytes) else {
                // Back in order (ncurses' queue is last in, first out).
                for byte in bytes.reversed() { ungetch(Int32(byte)) }
                return false
            }
            lastInput = .now
            for scalar in scalars { events += decoder.feed(.character(scalar)) }
            // A full buffer may have left more behind (a burst of typing): ncurses reads
            // the rest, so the whole burst makes one frame.
            if n == raw.count { _ = drain(into: &events) } else { events += decoder.flush() }
            return true
        }
    }

    /// The scalars of `bytes` when they are complete UTF-8 of printable characters only
    /// (none below U+0020, no DEL): what typing sends. Nil for anything else.
    static func typedText(_ bytes: UnsafeRawBufferPointer) -> [UInt32]? {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 {
                guard lead >= 0x20, lead != 0x7F else { return nil }
                scalars.append(UInt32(lead))
                i += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            guard length > 0, lead < 0xF5, i + length <= bytes.count else { return nil }
            var value = UInt32(lead) & (0xFF >> (length + 1))
            for k in 1 ..< length {
                let b = bytes[i + k]
                guard b & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(b & 0x3F)
            }
            // Overlong forms, surrogates and C1 controls are left to ncurses.
            let least: UInt32 = length == 2 ? 0xA0 : length == 3 ? 0x800 : 0x10000
            guard value >= least, value <= 0x10FFFF, !(0xD800 ... 0xDFFF).contains(value) else { return nil }
            scalars.append(value)
            i += length
        }
        return scalars
    }

    private func drain(into events: inout [InputEvent]) -> Bool {
        guard let window = inputWindow else { return false }
        wtimeout(window, 0)
        var readAnything = false
        var character: wint_t = 0
        while true {
            let status = wget_wch(window, &character)
            if status == ERR { break }
            readAnything = true
            if status == KEY_CODE_YES {
                let code = Int32(bitPattern: character)
                if code == KEY_MOUSE {
                    for event in mouseEvents() { events += decoder.feed(.mouse(event)) }
                } else {
                    events += decoder.feed(.keyCode(code))
                }
            } else {
                events += decoder.feed(.character(UInt32(character)))
            }
            if decoder.isInsidePaste { readPasteBody(into: &events) }
        }
        if readAnything { lastInput = .now }
        events += decoder.flush()
        return readAnything
    }

    /// The mouse report ncurses has decoded, as atpad's events (a click resolved by
    /// ncurses becomes a press and a release; motion counts only as a drag).
    private func mouseEvents() -> [MouseEvent] {
        var report = MEVENT()
        guard getmouse(&report) == OK else { return [] }
        let state = report.bstate
        let row = Int(report.y)
        let column = Int(report.x)
        func has(_ mask: mmask_t) -> Bool { state & mask != 0 }
        if has(atpad_button4_pressed()) { return [MouseEvent(kind: .wheelUp, row: row, column: column)] }
        if has(atpad_button5_pressed()) { return [MouseEvent(kind: .wheelDown, row: row, column: column)] }
        var events: [MouseEvent] = []
        if has(atpad_button1_pressed()) {
            mouseButtonDown = true
            events.append(MouseEvent(kind: .press, row: row, column: column))
        }
        if has(atpad_button1_clicked() | atpad_button1_double_clicked() | atpad_button1_triple_clicked()) {
            events.append(MouseEvent(kind: .press, row: row, column: column))
            events.append(MouseEvent(kind: .release, row: row, column: column))
            mouseButtonDown = false
        }
        if has(atpad_report_mouse_position()) && mouseButtonDown && events.isEmpty {
            events.append(MouseEvent(kind: .drag, row: row, column: column))
        }
        if has(atpad_button1_released()) {
            if mouseButtonDown { events.append(MouseEvent(kind: .release, row: row, column: column)) }
            mouseButtonDown = false
        }
        return events
    }

    // MARK: Output

    /// The last screen drawn, which the terminal shows (nil: nothing drawn yet, or
    /// forgotten), and the looks it was drawn in.
    private var lastScreen: Screen?
    private var lastStyles: [Role: Style]?
    private var lastUseColor = false
    /// What the terminal answered about grapheme clustering (nil: nothing yet), whether it
    /// was asked, and whether atpad set the mode (and resets it in `stop`).
    private var clustering: GraphemeClusteringReport?
    private var askedAboutClustering = false
    private var setClusteringMode = false

    /// Forgets what is on the terminal, so the next draw repaints everything.
    public func invalidate() {
        lastScreen = nil
        lastStyles = nil
    }

    /// Draws a frame: the cells that differ from the last frame drawn (every cell when the
    /// size, the styles or the way clusters are sent changed, or nothing was drawn before)
    /// in their role's style, then the cursor, in one `write`. With `colors` false, or a
    /// terminal without colour, styles keep only their attributes; each role's escape
    /// sequence is worked out again only when the styles change (not on every frame).
    /// `graphemes` says how clusters of several code points are sent; with the first frame,
    /// unless it is `first`, the terminal is asked whether it clusters them.
    public func draw(_ screen: Screen, styles: [Role: Style], colors: Bool, graphemes: Graphemes) {
        guard isActive, let window = atpad_stdscr() else { return }
        let rows = Int(atpad_getmaxy(window))
        let columns = Int(atpad_getmaxx(window))
        let useColor = colors && hasColors
        frameBytes.removeAll(keepingCapacity: true)

        if graphemes != .first {
            if !askedAboutClustering {
                frameBytes += GraphemeClusteringReport.query
                askedAboutClustering = true
            }
            if clustering == .available && !setClusteringMode {
                frameBytes += GraphemeClusteringReport.set
                setClusteringMode = true
            }
        }
        let whole = graphemes.drawsWhole(reported: clustering)
        if whole != writer.wholeClusters {
            writer.wholeClusters = whole
            lastScreen = nil
        }
        if lastStyles != styles || lastUseColor != useColor {
            lastStyles = styles
            lastUseColor = useColor
            writer.setLooks(Role.byCode.map { styles[$0] ?? Style() }, colors: useColor, colorCount: colorCount)
            lastScreen = nil
        }

        writer.write(screen, over: lastScreen, cleared: screenIsCleared, rows: rows, columns: columns,
                     into: &frameBytes)
        lastScreen = screen
        screenIsCleared = false
        // A terminal that failed is assumed to show nothing the writer knows of.
        if !writeToTerminal(frameBytes) {
            writer.forget()
            lastScreen = nil
        }
    }
}
