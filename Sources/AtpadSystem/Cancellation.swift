import Synchronization
import Glibc

/// A cancellation flag that also wakes a worker thread blocked in `poll` (through a
/// ``WakePipe``): the stream's termination handler calls ``cancel()`` from any thread, the
/// worker polls ``fd`` with its own descriptors so a stale query stops at once rather than
/// at its next timeout.
package final class Cancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let pipe: WakePipe

    /// A fresh, uncancelled flag with its wake-up pipe.
    package init() throws(SourceError) {
        pipe = WakePipe()
        guard pipe.descriptor >= 0 else { throw SourceError("cannot create a pipe: \(errorText(errno))") }
    }

    /// The descriptor that becomes readable once cancelled; poll it with `POLLIN`.
    package var fd: Int32 { pipe.descriptor }

    /// Whether ``cancel()`` has been called.
    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Marks the work cancelled and wakes the worker; safe from any thread, any number of
    /// times (the pipe lives as long as this flag, so a late call never writes to a closed
    /// descriptor).
    package func cancel() {
        if !cancelled.exchange(true, ordering: .acquiringAndReleasing) { pipe.wake() }
    }
}
