import Glibc
import Synchronization

/// One value passed from the thread that makes it to the thread that waits for it: the one
/// way atpad waits for work it handed to another thread (``BackgroundQueue/sync(_:)``, the
/// dictionaries `atpad check` opens while it reads the comment).
public final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = WakePipe()

    public init() {}

    /// The value `body` returns, made on a ``BackgroundThread`` called `name` while the
    /// caller goes on; ``wait()`` takes it.
    public static func start(name: String, _ body: @escaping @Sendable () -> Value) -> Handoff<Value> {
        let handoff = Handoff<Value>()
        BackgroundThread.start(name: name) { handoff.give(body()) }
        return handoff
    }

    /// Hands `value` over and wakes the waiter. Once.
    public func give(_ value: Value) {
        self.value.withLock { $0 = value }
        done.wake()
    }

    /// The value, once it has been handed over.
    public func wait() -> Value {
        while true {
            if let value = value.withLock({ $0 }) { return value }
            // Without a pipe (a process out of descriptors) the value still comes: look again soon.
            if done.descriptor >= 0 { done.wait(milliseconds: -1) } else { usleep(1000) }
        }
    }
}
