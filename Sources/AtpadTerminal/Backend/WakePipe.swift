import Glibc

/// The one way to wake the editor's loop from elsewhere: a pipe whose read end the loop
/// polls beside the terminal (the `wakeDescriptor` of `TerminalIO.readEvents`). Whatever
/// has something for the loop — a query's answer, a finished directory load, the draft
/// writer's failure, an exit signal — writes a byte to it after leaving its news where the
/// loop looks, so the loop sleeps until input, a wake or a deadline, never polling.
public final class WakePipe: Sendable {
    /// The end the loop polls (-1 when no pipe could be made: then nothing wakes it early).
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            descriptor = -1
            writeEnd = -1
            return
        }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        SignalTrap.stopWaking(writeEnd)
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

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

    /// The signals the loop must see (SIGINT, SIGTERM, SIGHUP, SIGQUIT) wake it through this
    /// pipe too, so a wait for input ends at once even when another thread takes the signal.
    public func receiveSignals() {
        SignalTrap.wake(through: writeEnd)
    }
}
