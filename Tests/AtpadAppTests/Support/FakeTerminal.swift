@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Glibc

/// A terminal for tests of the runtime: it hands out scripted batches of input, records
/// every screen drawn and every clipboard write, and ends input when the script runs out.
/// With `waitsWhile`, a script that has run out waits for the loop's wake descriptor (or
/// the loop's timeout) instead, as the real terminal's wait ends when another thread has
/// something for the loop.
final class FakeTerminal: TerminalIO {
    var hasColors = false
    var colorCount = 0
    var rows: Int
    var columns: Int
    private var batches: [[InputEvent]]
    private(set) var screens: [Screen] = []
    /// When each screen was drawn.
    private(set) var drawnAt: [ContinuousClock.Instant] = []
    private(set) var clipboard: [String] = []
    private(set) var started = false
    private(set) var stopped = false
    private(set) var suspensions = 0
    /// Called with the number of batches read so far, before each read (to change a file
    /// behind the editor's back between two keys).
    var beforeRead: ((Int) -> Void)?
    /// While this says so, input does not end with the script: each read waits for a wake
    /// (up to the loop's timeout, at most a minute) and returns no events.
    var waitsWhile: (() -> Bool)?
    /// The timeout the loop passed to each read (negative: none).
    private(set) var timeouts: [Int] = []
    /// How many of those waits ended with a wake, and how many with the timeout.
    private(set) var wakes = 0
    private(set) var timedOut = 0
    private var reads = 0

    init(rows: Int = 24, columns: Int = 80, batches: [[InputEvent]]) {
        self.rows = rows
        self.columns = columns
        self.batches = batches
    }

    /// One batch per key of a key script.
    convenience init(rows: Int = 24, columns: Int = 80, keys: String) throws {
        self.init(rows: rows, columns: columns, batches: try KeyScript.parse(keys).map { [.key($0)] })
    }

    func start(ttyPath: String?) throws { started = true }
    func stop() { stopped = true }
    func suspend() { suspensions += 1 }
    func size() -> (rows: Int, columns: Int) { (rows, columns) }
    func takeSignal() -> Int32? { nil }
    func setClipboard(_ text: String) { clipboard.append(text) }

    /// What `readQueuedEvents` hands out once: input typed before the first frame.
    var typedAhead: [InputEvent] = []

    func readQueuedEvents() -> [InputEvent] {
        defer { typedAhead = [] }
        return typedAhead
    }

    func readEvents(timeoutMilliseconds: Int, wakeDescriptor: Int32?) -> [InputEvent] {
        beforeRead?(reads)
        reads += 1
        timeouts.append(timeoutMilliseconds)
        if !batches.isEmpty { return batches.removeFirst() }
        guard let waitsWhile, waitsWhile(), timedOut < 3 else { return [.endOfInput] }
        let limit = timeoutMilliseconds < 0 ? 60_000 : min(timeoutMilliseconds, 60_000)
        var ready = pollfd(fd: wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, Int32(limit)) > 0, let wakeDescriptor {
            wakes += 1
            var bytes = [UInt8](repeating: 0, count: 256)
            while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
        } else {
            timedOut += 1
        }
        return []
    }

    func draw(_ screen: Screen, styles: [Role: Style], colors: Bool, graphemes: Graphemes) {
        screens.append(screen)
        drawnAt.append(.now)
    }

    /// The last screen's rows as text.
    var lastScreen: [String] { screens.last?.lines ?? [] }
}
