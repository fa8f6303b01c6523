import FoundationEssentials
import Glibc

/// A program spawned in a process group of its own, with stdin from `/dev/null` (or given
/// bytes) and its stdout and stderr read through pipes, so that it can be ended whole — it and every
/// process it started that stayed in its group — and never reads or draws on the terminal.
///
/// Used from one thread at a time (the worker thread of one query). Every exit path ends
/// with ``terminateGroup(grace:)`` (also called on deinit as a safety net), which kills what
/// is left of the group and reaps the leader, so no zombie of ours remains.
package final class ChildProcess {
    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        /// How a message says it: `exited with status 3`, `was killed by signal 9 (killed)`.
        package var phrase: String {
            switch self {
            case .exited(let status):
                return "exited with status \(status)"
            case .signalled(let signal):
                guard let text = strsignal(signal) else { return "was killed by signal \(signal)" }
                let name = String(cString: text)
                return "was killed by signal \(signal) (\((name.first?.lowercased() ?? "") + name.dropFirst()))"
            }
        }
    }

    /// Why reading stopped.
    package enum ReadEnd: Equatable {
        /// stdout reached end of file (the program closed it, usually by exiting).
        case endOfOutput
        /// The consumer asked to stop reading.
        case stopped
        case cancelled
        case timedOut
    }

    /// Why waiting for the exit stopped.
    package enum WaitEnd: Equatable {
        case exited(Termination)
        case cancelled
        case timedOut
    }

    /// The leader's process id, which is also the id of its process group.
    package let pid: pid_t
    private var stdoutFD: Int32
    private var stderrFD: Int32
    /// The last bytes the program wrote to stderr, for the error message.
    private var stderrTail: [UInt8] = []
    /// Set once the leader is reaped; after that its id may belong to someone else, so
    /// no signal is sent to it or its group again.
    private(set) var termination: Termination?

    private static let stderrTailLength = 4096

    /// Spawns `arguments[0]` with `arguments` as its argument vector and `environment`
    /// (`NAME=value` strings) as its environment. With `searchPath`, a name without a slash is
    /// looked up in `PATH`. `standardInput` is what the program reads on stdin (else
    /// `/dev/null`): a post's body, which must never be an argument (it may be longer than
    /// an argument may be).
    package init(arguments: [String], environment: [String], searchPath: Bool = false,
         standardInput: [UInt8]? = nil) throws(SourceError) {
        precondition(!arguments.isEmpty)
        if (arguments + environment).contains(where: { $0.utf8.contains(0) }) {
            // A C string cannot hold NUL; cutting it silently would run something else.
            throw SourceError("cannot pass a NUL character to \(arguments[0])")
        }
        // The input is a file the program reads at its own pace (no writer thread, no
        // SIGPIPE when it stops reading early), in memory where the system allows.
        let input = try standardInput.map { bytes throws(SourceError) in try Self.inputFile(bytes) }
        defer { if let input { closeDescriptor(input) } }
        // O_CLOEXEC from the start: another query may be spawning on another thread at this
        // moment, and a child that inherited our write end would keep our stdout open.
        let out = try makePipe(flags: O_CLOEXEC)
        let err: (read: Int32, write: Int32)
        do {
            err = try makePipe(flags: O_CLOEXEC)
        } catch {
            closeDescriptor(out.read)
            closeDescriptor(out.write)
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Descriptors the app opened without O_CLOEXEC (the terminal, say) stay ours.
        if let addCloseFrom = Self.addCloseFrom { _ = addCloseFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Group 0 = a new group led by the child, so one kill(-pid) reaches its descendants.
        posix_spawnattr_setpgroup(&attributes, 0)
        // atpad ignores SIGTSTP and may block signals in this thread; an ignored signal
        // would be inherited across exec, so every signal goes back to its default.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var child: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                searchPath
                    ? posix_spawnp(&child, argv[0]!, &actions, &attributes, argv, envp)
                    : posix_spawn(&child, argv[0]!, &actions, &attributes, argv, envp)
            }
        }
        closeDescriptor(out.write)
        closeDescriptor(err.write)
        guard result == 0 else {
            closeDescriptor(out.read)
            closeDescriptor(err.read)
            throw SourceError("cannot run \(arguments[0]): \(errorText(result))")
        }
        pid = child
        stdoutFD = out.read
        stderrFD = err.read
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if termination == nil { terminateGroup(grace: .zero) }
        closeDescriptor(stdoutFD)
        closeDescriptor(stderrFD)
    }

    // MARK: - Reading

    /// Reads stdout until it ends, handing each piece read to `consume`, which returns
    /// false to stop reading. stderr is drained meanwhile (a program blocked on a full
    /// stderr pipe would never finish) and its end kept for ``lastErrorLine``.
    package func readOutput(
        until deadline: ContinuousClock.Instant,
        cancellation: Cancellation,
        consume: (UnsafeRawBufferPointer) throws -> Bool
    ) rethrows -> ReadEnd {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while stdoutFD >= 0 {
            guard !cancellation.isCancelled else { return .cancelled }
            guard let timeout = Self.milliseconds(until: deadline) else { return .timedOut }
            var fds = [
                pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: cancellation.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(stderrFD >= 0 ? 3 : 2), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .timedOut  // poll itself failing cannot be waited out
            }
            if fds[1].revents != 0 { return .cancelled }
            if stderrFD >= 0, fds[2].revents != 0 { drainStderr() }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress, $0.count) }
            if count == 0 {
                closeDescriptor(stdoutFD)
                stdoutFD = -1
                return .endOfOutput
            }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                closeDescriptor(stdoutFD)
                stdoutFD = -1
                return .endOfOutput
            }
            let keepGoing = try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0 ..< count])) }
            if !keepGoing { return .stopped }
        }
        return .endOfOutput
    }

    /// Waits for the leader to exit (without reaping it yet), draining stderr meanwhile.
    package func waitForExit(until deadline: ContinuousClock.Instant, cancellation: Cancellation) -> WaitEnd {
        // Most programs exit right after closing stdout: check often at first, then back off.
        var pause: Int32 = 1
        while true {
            if let ended = exitStatus() { return .exited(ended) }
            guard !cancellation.isCancelled else { return .cancelled }
            guard let remaining = Self.milliseconds(until: deadline) else { return .timedOut }
            var fds = [
                pollfd(fd: cancellation.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&fds, nfds_t(stderrFD >= 0 ? 2 : 1), min(pause, remaining))
            if stderrFD >= 0, fds[1].revents != 0 { drainStderr() }
            pause = min(pause * 2, 20)
        }
    }

    /// The last non-blank line the program wrote to stderr, if any.
    package var lastErrorLine: String? {
        drainStderr()
        let text = String(decoding: stderrTail, as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
        return line.map { $0.trimmed() }
    }

    private func drainStderr() {
        guard stderrFD >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
            if count > 0 {
                stderrTail.append(contentsOf: buffer[0 ..< count])
                if stderrTail.count > Self.stderrTailLength {
                    stderrTail.removeFirst(stderrTail.count - Self.stderrTailLength)
                }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count == 0 || errno != EAGAIN {
                closeDescriptor(stderrFD)
                stderrFD = -1
            }
            return
        }
    }

    // MARK: - Ending

    /// Ends every process of the group and reaps the leader, returning how the leader
    /// ended. A leader still running gets SIGTERM (and SIGCONT, so that a stopped one can
    /// act on it) and up to `grace` to exit; then whatever is left of the group gets
    /// SIGKILL. Until the leader is reaped its process id cannot be reused, so the group
    /// signals cannot reach a stranger.
    @discardableResult
    package func terminateGroup(grace: Duration = .milliseconds(100)) -> Termination {
        if let termination { return termination }
        if exitStatus() == nil {
            _ = kill(-pid, SIGTERM)
            _ = kill(-pid, SIGCONT)
            let deadline = ContinuousClock.now + grace
            var pause: Int32 = 1
            while exitStatus() == nil, let remaining = Self.milliseconds(until: deadline) {
                _ = poll(nil, 0, min(pause, remaining))
                pause = min(pause * 2, 10)
            }
        }
        // Also for a leader that exited by itself: a background process it left in the
        // group is work nobody will read.
        _ = kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let ended = Self.termination(fromWaitStatus: status)
        termination = ended
        return ended
    }

    /// How the leader ended if it has, leaving it unreaped (a zombie holds its id).
    private func exitStatus() -> Termination? {
        if let termination { return termination }
        var info = siginfo_t()
        while true {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 { break }
            if errno != EINTR { return nil }
        }
        guard info._sifields._sigchld.si_pid == pid else { return nil }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? .exited(status) : .signalled(status)
    }

    private static func termination(fromWaitStatus status: Int32) -> Termination {
        // The <sys/wait.h> macros do not import: WIFEXITED is "no signal number in the low 7 bits".
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    // MARK: - Helpers

    /// Milliseconds left until `deadline` for poll (at least 1, rounded up), or nil once it has passed.
    package static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32? {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return nil }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(1, milliseconds))
    }

    /// A descriptor (close-on-exec) reading `bytes` from their start: a memfd, else a
    /// temporary file removed at once.
    private static func inputFile(_ bytes: [UInt8]) throws(SourceError) -> Int32 {
        var fd: Int32 = -1
        if let memfdCreate { fd = memfdCreate("atpad-input", 1 /* MFD_CLOEXEC */) }
        if fd < 0 {
            var template = Array(((ProcessEnvironment.value("TMPDIR") ?? "/tmp") + "/atpad-input-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw SourceError("cannot make the program's input: \(errorText(errno))") }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                closeDescriptor(fd)
                throw SourceError("cannot make the program's input: \(errorText(errno))")
            }
            written += n
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's `memfd_create` (glibc 2.27 and later), looked up at run time.
    private static let memfdCreate: MemfdCreate? = {
        guard let symbol = dlsym(nil, "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: MemfdCreate.self)
    }()

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at
    /// run time so that atpad still builds and runs with an older C library.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings (argv, envp).
private func withCStrings<Result>(
    _ strings: [String],
    _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
