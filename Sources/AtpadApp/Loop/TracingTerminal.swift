import AtpadTerminal
import Glibc

/// A terminal that writes how long each input batch took to handle and draw, for profiling
/// the echo path (`ATPAD_TRACE_FILE`), around the terminal it wraps: the loop knows
/// nothing of it. One line per batch of input, after the frame drawn for it, tab-separated:
/// events, µs from the batch read to its frame drawn, µs laying the frame out, µs drawing
/// it, µs reading the batch (wake-up to events), then the absolute CLOCK_MONOTONIC µs of
/// the wake-up and of the frame drawn, to line the trace up with a harness's own
/// timestamps (Python's perf_counter; `scripts/bench/echo_timeline.py`).
final class TracingTerminal: TerminalIO {
    private let terminal: any TerminalIO
    /// The trace file, emptied at start; -1 when it cannot be opened.
    private let descriptor: Int32
    /// The batch read last, until its frame is drawn.
    private var batch: (events: Int, read: ContinuousClock.Instant, wake: ContinuousClock.Instant)?
    /// How long laying out the last frame took.
    private var layout = Duration.zero

    init(_ terminal: any TerminalIO, path: String) {
        self.terminal = terminal
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// `terminal`, traced to the file `ATPAD_TRACE_FILE` names when it is set.
    static func chosen(_ terminal: any TerminalIO, environment: [String: String]) -> any TerminalIO {
        guard let path = environment["ATPAD_TRACE_FILE"] else { return terminal }
        return TracingTerminal(terminal, path: path)
    }

    func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32?) -> [InputEvent] {
        let events = terminal.readEvents(timeoutMilliseconds: timeoutMilliseconds, wakeDescriptor: wakeDescriptor)
        let wake = terminal.lastWake
        batch = events.isEmpty ? nil : (events.count, ContinuousClock.now, wake)
        return events
    }

    func layOutFrame(_ layout: (_ rows: Int, _ columns: Int) -> Frame) -> Frame {
        let start = ContinuousClock.now
        let frame = terminal.layOutFrame(layout)
        self.layout = ContinuousClock.now - start
        return frame
    }

    func draw(_ screen: Screen, styles: [Role: Style], colors: Bool, graphemes: Graphemes) {
        let start = ContinuousClock.now
        terminal.draw(screen, styles: styles, colors: colors, graphemes: graphemes)
        let drawing = ContinuousClock.now - start
        // The first frame after a batch is its frame; a frame for what came later (answers
        // to queries) or a batch that ended the session is not traced.
        if let batch {
            record(batch, layout: layout, drawing: drawing)
            self.batch = nil
        }
    }

    private func record(_ batch: (events: Int, read: ContinuousClock.Instant, wake: ContinuousClock.Instant),
                        layout: Duration, drawing: Duration) {
        guard descriptor >= 0 else { return }
        func micros(_ d: Duration) -> Int {
            Int(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let drawnAt = Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
        let elapsed = micros(ContinuousClock.now - batch.read)
        let reading = micros(batch.read - batch.wake)
        let wokeAt = drawnAt - elapsed - reading
        let line = "\(batch.events)\t\(elapsed)\t\(micros(layout))\t\(micros(drawing))\t\(reading)\t\(wokeAt)\t\(drawnAt)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    // The rest is the wrapped terminal's.

    var hasColors: Bool { terminal.hasColors }
    var colorCount: Int { terminal.colorCount }
    var lastWake: ContinuousClock.Instant { terminal.lastWake }
    func start(ttyPath: String?) throws { try terminal.start(ttyPath: ttyPath) }
    func stop() { terminal.stop() }
    func suspend() { terminal.suspend() }
    func size() -> (rows: Int, columns: Int) { terminal.size() }
    func readQueuedEvents() -> [InputEvent] { terminal.readQueuedEvents() }
    func takeSignal() -> Int32? { terminal.takeSignal() }
    func setClipboard(_ text: String) { terminal.setClipboard(text) }
}
