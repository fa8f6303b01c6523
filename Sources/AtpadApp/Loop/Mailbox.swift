import AtpadSystem
import AtpadTerminal
import Synchronization

/// Where work on other threads leaves its results for the editor's loop, as events: query
/// answers, finished directory loads. Posting wakes the loop through its `WakePipe`; the
/// loop takes everything at once after drawing.
final class Mailbox: Sendable {
    private let events = Mutex<[AppEvent]>([])
    /// The loop polls it beside the terminal; the draft writer wakes it too.
    let wake = WakePipe()

    /// Leaves `event` for the loop and wakes it (from any thread).
    func post(_ event: AppEvent) {
        events.withLock { $0.append(event) }
        wake.wake()
    }

    /// Everything posted since the last call, in order.
    func takeAll() -> [AppEvent] {
        events.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }
}
