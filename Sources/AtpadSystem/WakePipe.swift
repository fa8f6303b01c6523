import Glibc

/// The one self-pipe: a pipe whose read end a waiting thread polls beside its other
/// descriptors, and whose write end anyone wakes it through. The editor's loop polls one
/// beside the terminal (the `wakeDescriptor` of `TerminalIO.readEvents`): whatever has
/// something for the loop — a query's answer, a finished directory load, the draft
/// writer's failure, an exit signal — writes a byte to it after leaving its news where the
/// loop looks, so the loop sleeps until input, a wake or a deadline, never polling. A
/// worker blocked in `poll` on a child or a transfer polls one too (``Cancellation``).
public final class WakePipe: Sendable {
    /// The end the loop polls (-1 when no pipe could be made: then nothing wakes it early).
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        // Both ends non-blocking: a wake never blocks its writer, a drain never blocks the loop.
        guard let ends = try? makePipe(flags: O_CLOEXEC | O_NONBLOCK) else {
            descriptor = -1
            writeEnd = -1
            return
        }
        (descriptor, writeEnd) = ends
    }

    deinit {
        closeDescriptor(descriptor)
        closeDescriptor(writeEnd)
    }

    /// The end a signal handler writes to (`SignalTrap`, which keeps this pipe alive while
    /// it does, so the number is never closed and reused under it).
    package var signalDescriptor: Int32 { writeEnd }

    /// Wakes the loop. Safe from any thread and from a signal handler (one `write`); a full
    /// pipe already wakes it, so a byte that does not fit is dropped.
    public func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe: the loop is awake and looks at everything left for it.
    public func drain() {
        guard descriptor >= 0 else { return }
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits up to `milliseconds` (negative: no limit) for a wake, then empties the pipe:
    /// for a loop with no terminal to poll (`atpad replay`).
    public func wait(milliseconds: Int32) {
        guard descriptor >= 0 else { return }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, milliseconds) > 0 { drain() }
    }
}
