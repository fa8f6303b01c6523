import FoundationEssentials
import Synchronization
import Glibc

/// A cancellation flag that also wakes a worker thread blocked in `poll`: the stream's
/// termination handler calls ``cancel()`` from any thread, the worker polls ``fd`` with
/// its own descriptors so a stale query stops at once rather than at its next timeout.
final class Cancellation: Sendable {
    // The lock makes `cancel()` and `close()` exclusive, so a late `cancel()` never writes
    // to a descriptor number that was closed and perhaps reused.
    private let state = Mutex((cancelled: false, closed: false))
    private let readEnd: Int32
    private let writeEnd: Int32

    /// A fresh, uncancelled flag with its wake-up pipe.
    init() throws(SourceError) {
        (readEnd, writeEnd) = try makePipe(flags: O_CLOEXEC | O_NONBLOCK)
    }

    deinit { close() }

    /// The descriptor that becomes readable once cancelled; poll it with `POLLIN`.
    var fd: Int32 { readEnd }

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// Marks the work cancelled and wakes the worker; safe from any thread, any number of times.
    func cancel() {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.cancelled = true
            if !state.closed {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
        }
    }

    /// Releases the pipe; the worker calls this when it is done.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            closeDescriptor(readEnd)
            closeDescriptor(writeEnd)
        }
    }
}
