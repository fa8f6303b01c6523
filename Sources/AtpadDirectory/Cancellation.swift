import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cancellation flag that also wakes a worker thread blocked in `poll`: the stream's
/// termination handler calls ``cancel()`` from any thread, the worker polls ``fd`` with
/// its own descriptors so a stale query stops at once rather than at its next timeout.
final class Cancellation: @unchecked Sendable {
    // The lock makes `cancel()` and `close()` exclusive, so a late `cancel()` never writes
    // to a descriptor number that was closed and perhaps reused.
    private let lock = NSLock()
    private var cancelled = false
    private var closed = false
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
        lock.withLock { cancelled }
    }

    /// Marks the work cancelled and wakes the worker; safe from any thread, any number of times.
    func cancel() {
        lock.withLock {
            guard !cancelled else { return }
            cancelled = true
            if !closed {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
        }
    }

    /// Releases the pipe; the worker calls this when it is done.
    func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            closeDescriptor(readEnd)
            closeDescriptor(writeEnd)
        }
    }
}
