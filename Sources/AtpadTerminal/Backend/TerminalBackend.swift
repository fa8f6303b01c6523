import AtpadCore
import AtpadSystem
import CNcursesw
import Glibc

/// The terminal atpad draws on and reads keys from: the only code that calls ncurses.
///
/// `start` takes the terminal over (raw mode, keypad, mouse, bracketed paste), `draw`
/// shows a `Screen`, `readEvents` returns every input queued as one batch, `suspend`
/// gives the terminal back until the process is continued, and `stop` (idempotent) gives
/// it back for good.
///
/// ncurses sets the terminal up (terminfo, tty modes, the alternate screen, keypad mode)
/// and gives it back; it neither reads nor draws after its first clear. Input is read
/// from the tty in blocks, one reader for typing, keys, mouse reports and pastes, and
/// decoded by the pure `KeyDecoder` with the key strings of the terminal's terminfo entry.
/// Frames are written by a `FrameWriter` in the terminal's own strings, one `write` each
/// (ncurses' `doupdate` cost more than the rest of a keystroke). Where `stop` never runs —
/// `exit()`, a crash, a second exit signal the program did not take in time — an
/// emergency restore does.
public final class TerminalBackend {
    /// Whether the terminal is taken over (between `start` and `stop`).
    public private(set) var isActive = false
    /// How many colours the terminal has (0 before `start` or without colour).
    public private(set) var colorCount = 0
    /// Whether the terminal can show colour at all.
    public private(set) var hasColors = false

    /// An open bracketed paste whose end has not come for this long is delivered as is.
    private static let pasteTimeout = Duration.seconds(1)
    /// How long a paste being read may pause before the batch is handed on (it then goes
    /// on in the next batch): a whole paste usually makes one batch and one frame.
    private static let pasteGap: Int32 = 50
    /// How long the rest of an escape sequence begun past its Esc (or of a character) may
    /// take to arrive: a terminal that split it across writes sends the rest at once.
    private static let escapeDelay: Int32 = 25
    /// Longest single wait inside an open paste (to notice `pasteTimeout`) or without a
    /// wake descriptor (to notice a signal that came just before the wait).
    private static let waitSlice = 100
    /// The most read at once: a paste arrives in blocks this size.
    private static let readSize = 64 * 1024

    private var ncursesScreen: OpaquePointer?
    private var ownedFiles: [UnsafeMutablePointer<FILE>] = []
    private var inputFD: Int32 = -1
    private var outputFD: Int32 = -1
    /// The line discipline the input had before ncurses changed it (for the emergency restore).
    private var originalModes: termios?
    private var decoder = KeyDecoder()
    /// Where input is read into, allocated once (not per read).
    private var readBuffer: [UInt8] = []
    private var writer = FrameWriter(strings: .xterm)
    /// The bytes of a frame, kept between frames so their storage is reused.
    private var frameBytes: [UInt8] = []
    /// Nothing has been drawn since ncurses cleared the screen.
    private var screenIsCleared = false
    private var signals = SignalTrap()
    private var mouseEnabled = false
    /// The next read reports `.resize`: the size may have changed while atpad was stopped.
    private var resizeToReport = false
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
        guard let termName = ProcessEnvironment.value("TERM"), !termName.isEmpty else {
            throw TerminalError.noTerminalType
        }

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
        var modes = termios()
        originalModes = tcgetattr(inputFD, &modes) == 0 ? modes : nil
        // Before newterm: ncurses installs its own SIGINT/SIGTERM/SIGTSTP/SIGWINCH
        // handlers only where the disposition is still the default.
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
        meta(window, true)
        intrflush(window, false)

        hasColors = has_colors()
        if hasColors {
            start_color()
            _ = use_default_colors()
        }
        colorCount = hasColors ? Int(atpad_colors()) : 0
        writer = FrameWriter(strings: TerminalStrings.fromTerminfo())
        decoder = KeyDecoder(sequences: KeyDefinitions.terminfoSequences())
        if readBuffer.count != Self.readSize { readBuffer = [UInt8](repeating: 0, count: Self.readSize) }
        // Mouse reports are asked for where the entry says the terminal sends them
        // (`kmous`); SGR (1006) where the terminal knows it, else X10: the decoder reads both.
        mouseEnabled = atpad_tigetstr("kmous") != nil
        outputFD = fileno(output)
        _ = SignalTrap.takeResize()
        _ = SignalTrap.takeContinue()
        enterTerminal()
        lastInput = .now
        isActive = true
    }

    /// Gives the terminal back: paste and mouse reporting off, the screen cleared (also
    /// where there is no alternate screen to leave), ncurses ended, the tty closed, the
    /// signal dispositions restored. Safe to call any number of times.
    public func stop() {
        guard isActive else { return }
        isActive = false
        leaveTerminal()
        SignalTrap.disarm()
        signals.restore()
        if let ncursesScreen { delscreen(ncursesScreen) }
        ncursesScreen = nil
        closeOwnedFiles()
        inputFD = -1
        outputFD = -1
    }

    /// Gives the terminal back as `stop` does and stops the process group, as Ctrl-Z in a
    /// shell does; once continued (`fg`), takes the terminal again and reports `.resize`
    /// on the next read, so the program lays out and draws a whole frame. Nothing happens
    /// when the parent ignores SIGTSTP (nothing would continue atpad), and where the kernel
    /// will not stop the process (an orphaned process group) atpad just goes on.
    public func suspend() {
        guard isActive, signals.canSuspend else { return }
        leaveTerminal()
        SignalTrap.disarm()
        SignalTrap.stopProcessGroup()
        // The continue that woke atpad is this one: nothing more to re-enter.
        _ = SignalTrap.takeContinue()
        enterTerminal()
        updateSize()
        resizeToReport = true
    }

    /// ncurses' refresh clears the screen and sends its set-up (tty modes, the alternate
    /// screen, after `leaveTerminal` too); then atpad's own modes follow and nothing of the
    /// last frame is assumed to be on the screen.
    private func enterTerminal() {
        let window = atpad_stdscr()
        clearok(window, true)
        wnoutrefresh(window)
        doupdate()
        // ncurses turns keypad mode off when it leaves and does not turn it on again:
        // this sends it (the terminfo key strings are the ones of keypad mode).
        keypad(window, true)
        screenIsCleared = true
        writer.forget()
        invalidate()
        writeToTerminal(Self.modesOn(mouse: mouseEnabled))
        SignalTrap.arm(output: outputFD, input: originalModes == nil ? -1 : inputFD, modes: originalModes ?? termios(),
                       bytes: emergencyRestoreBytes())
    }

    /// Takes atpad's modes and looks off the terminal, clears what atpad drew, and has
    /// ncurses give the tty back (leaving the alternate screen). Without an alternate
    /// screen (`TERM=linux`, `vt100`, GNU screen without altscreen) the clear is what
    /// keeps the frame's rows from staying behind under the shell's prompt.
    private func leaveTerminal() {
        doupdate()  // empties ncurses' output buffer, so what follows comes after it
        if setClusteringMode { _ = writeToTerminal(GraphemeClusteringReport.reset) }
        setClusteringMode = false
        let strings = writer.strings
        // ncurses believes the screen blank and plain: the writer's looks and hidden
        // cursor are undone here, before the clear (which paints the current background).
        _ = writeToTerminal(Array(Self.modesOff(mouse: mouseEnabled).utf8) + strings.resetAttributes
            + strings.resetColors + strings.clearScreen + strings.showCursor)
        endwin()
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

    /// The signal received since the last call, if any: an exit request (SIGINT, SIGTERM,
    /// SIGHUP or SIGQUIT: the program should stop the terminal and exit with 128 + it), or
    /// SIGTSTP (the program should `suspend`).
    public func takeSignal() -> Int32? {
        SignalTrap.take()
    }

    /// The terminal's size in rows and columns ((0, 0) when not started).
    public func size() -> (rows: Int, columns: Int) {
        guard isActive, let window = atpad_stdscr() else { return (0, 0) }
        return (Int(atpad_getmaxy(window)), Int(atpad_getmaxx(window)))
    }

    /// Tells ncurses the terminal's size as the terminal gives it now (ncurses learns it
    /// only inside its own reads, which atpad does not use).
    private func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard atpad_window_size(outputFD, &rows, &columns) == 0, rows > 0, columns > 0,
              let window = atpad_stdscr() else { return }
        if rows != atpad_getmaxy(window) || columns != atpad_getmaxx(window) {
            _ = resizeterm(rows, columns)
        }
    }

    private func closeOwnedFiles() {
        for file in ownedFiles { fclose(file) }
        ownedFiles = []
    }

    private static func modesOn(mouse: Bool) -> String {
        "\u{1B}[?2004h" + (mouse ? "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" : "")
    }

    private static func modesOff(mouse: Bool) -> String {
        "\u{1B}[?2004l" + (mouse ? "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" : "")
    }

    /// What the emergency restore writes without ncurses: atpad's modes off, then the
    /// terminfo strings for attributes, cursor, keypad, a clear (for terminals without an
    /// alternate screen) and leaving the alternate screen.
    private func emergencyRestoreBytes() -> [UInt8] {
        var bytes = Array(Self.modesOff(mouse: mouseEnabled).utf8)
        for name in ["sgr0", "cnorm", "rmkx", "clear", "rmcup"] {
            guard let value = atpad_tigetstr(name) else { continue }
            bytes += TerminalStrings.withoutDelays(value)
        }
        return bytes
    }

    /// Sets the character type from the environment; without a UTF-8 character set (C,
    /// POSIX) falls back to C.UTF-8, so ncurses measures characters as atpad's layout
    /// does. Only LC_CTYPE: nothing else of the C locale is used (atpad's messages and
    /// numbers are its own), and loading every category costs a dozen file reads.
    private static func prepareLocale() {
        setlocale(LC_CTYPE, "")
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
    /// (possibly with no events) when an exit signal or SIGTSTP arrives: check
    /// `takeSignal()`. `.resize` after SIGWINCH and after being continued; `.endOfInput`
    /// when the input has ended (the terminal hung up).
    ///
    /// A byte on `wakeDescriptor` (a pipe other threads write to when they have something
    /// for the loop, such as a directory's answer) also ends the wait; it is consumed.
    public func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32? = nil) -> [InputEvent] {
        guard isActive else { return [.endOfInput] }
        var events: [InputEvent] = []
        noteTerminalSignals(into: &events)
        let deadline = timeoutMilliseconds < 0
            ? nil : ContinuousClock.now + .milliseconds(timeoutMilliseconds)
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
            lastWake = .now
            if ready < 0 {
                // A signal (SIGWINCH, SIGCONT, an exit request): the loop looks at it.
                if errno == EINTR { noteTerminalSignals(into: &events); continue }
                events.append(.endOfInput)
                break
            }
            guard ready > 0 else { continue }
            if let wakeDescriptor, descriptors.1.revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
                if descriptors.0.revents == 0 { break }
            }
            if !readInput(into: &events) {
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

    /// Every input event already queued, without waiting: the keys typed while atpad was
    /// starting (a cooked terminal holds them until raw mode takes them in), before the
    /// first frame is drawn.
    public func readQueuedEvents() -> [InputEvent] {
        guard isActive else { return [] }
        var descriptor = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return [] }
        var events: [InputEvent] = []
        if !readInput(into: &events) { events.append(.endOfInput) }
        for case let .graphemeClustering(report) in events { clustering = report }
        return events
    }

    /// A SIGCONT atpad did not bring on itself (a `kill -STOP` from outside, or a second
    /// SIGTSTP while busy, then `fg`) means the terminal may be in the shell's modes and
    /// show the shell's lines: take it again. A resize, then, or after SIGWINCH, is
    /// reported.
    private func noteTerminalSignals(into events: inout [InputEvent]) {
        if SignalTrap.takeContinue() {
            leaveTerminal()
            enterTerminal()
            resizeToReport = true
        }
        if SignalTrap.takeResize() || resizeToReport {
            updateSize()
            resizeToReport = true
        }
        if resizeToReport {
            resizeToReport = false
            events.append(.resize)
        }
    }

    /// Reads everything the terminal has queued, in blocks, through the decoder; waits a
    /// moment for the rest of an open paste or an unfinished escape sequence. False when
    /// the input has ended (end of file, or the terminal hung up).
    private func readInput(into events: inout [InputEvent]) -> Bool {
        while true {
            let count = readBuffer.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
            if count > 0 {
                lastInput = .now
                events += readBuffer.withUnsafeBufferPointer { decoder.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
                // A read gives all that is queued up to its size: typing stops here. A full
                // block may have more behind it, and a paste or a sequence may be on its way.
                let wait: Int32 = count == readBuffer.count ? 0
                    : decoder.isInsidePaste ? Self.pasteGap
                    : decoder.isAwaitingSequence ? Self.escapeDelay : -1
                guard wait >= 0 else { break }
                var descriptor = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, wait) > 0 else { break }
                continue
            }
            if count == 0 { return false }
            if errno == EINTR && !SignalTrap.isPending { continue }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { break }
            return false  // EIO: the terminal hung up
        }
        events += decoder.flush()
        return true
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
