import CNcursesw
import Synchronization
import AtpadSystem
import Glibc

// Everything a signal handler touches lives in these globals: a handler cannot reach an
// object, and only async-signal-safe work (atomic stores, write, tcsetattr, raise) may
// happen in one. They are set before the handlers are installed.

/// The exit-request signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) not yet taken, or 0.
private let pendingSignal = Atomic<Int32>(0)
/// The write end of the loop's `WakePipe`, written when a signal the loop must see
/// arrives, else -1.
private let signalWake = Atomic<Int32>(-1)
/// The pipe whose descriptor `signalWake` holds, kept alive while it may be written to.
private let signalWakePipe = Mutex<WakePipe?>(nil)
/// A SIGTSTP (`kill -TSTP`) not yet taken: the loop suspends.
private let pendingStop = Atomic<Bool>(false)
/// A SIGWINCH not yet taken: the terminal's size changed.
private let pendingResize = Atomic<Bool>(false)
/// A SIGCONT not yet taken: the process was stopped and continued.
private let pendingContinue = Atomic<Bool>(false)
/// The terminal's output descriptor while atpad owns the screen, else -1.
private let emergencyOutput = Atomic<Int32>(-1)
/// Bytes that undo atpad's terminal modes (paste, mouse, keypad, alternate screen…).
nonisolated(unsafe) private var emergencyBytes: UnsafeMutableBufferPointer<UInt8>?
/// The input descriptor and the line discipline it had before ncurses changed it.
nonisolated(unsafe) private var emergencyInput: Int32 = -1
nonisolated(unsafe) private var emergencyModes = termios()
/// What the crash signals did before atpad's handler, to pass each crash on.
nonisolated(unsafe) private var previousCrashActions: UnsafeMutablePointer<sigaction>?
private let atExitRegistered = Atomic<Bool>(false)

private let exitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
private let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
private let signalSlots = 65

/// Puts the terminal back without ncurses: safe in a signal handler and at exit.
private func emergencyRestore() {
    let fd = emergencyOutput.exchange(-1, ordering: .acquiringAndReleasing)
    guard fd >= 0 else { return }
    if let bytes = emergencyBytes, let base = bytes.baseAddress {
        _ = write(fd, base, bytes.count)
    }
    if emergencyInput >= 0 {
        _ = tcsetattr(emergencyInput, TCSANOW, &emergencyModes)
    }
}

/// SIGINT/SIGTERM/SIGHUP/SIGQUIT: ask the read loop to end the program cleanly. A second
/// one before the first was taken means the program is not listening: restore and die.
private func recordExitSignal(_ signal: Int32) {
    let earlier = pendingSignal.exchange(signal, ordering: .acquiringAndReleasing)
    guard earlier != 0 else { return wakeTheLoop() }
    emergencyRestore()
    var dflt = sigaction()
    _ = atpad_set_signal(signal, nil, &dflt)  // nil handler is SIG_DFL
    _ = raise(signal)
}

/// Ends the loop's wait for input at once, whichever thread the signal interrupted: a
/// flag alone would be seen only when the wait ends by itself.
private func wakeTheLoop() {
    let wake = signalWake.load(ordering: .acquiring)
    guard wake >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(wake, &byte, 1)
}

/// A crash: restore the terminal, then let the previous handler (Swift's backtracer) or
/// the default action have the signal.
private func restoreOnCrash(_ signal: Int32) {
    emergencyRestore()
    if let previous = previousCrashActions {
        _ = atpad_restore_signal(signal, previous + Int(signal))
    }
    _ = raise(signal)
}

private func restoreAtExit() {
    emergencyRestore()
}

/// SIGTSTP from outside (raw mode keeps Ctrl-Z a key): the loop suspends cleanly. A second
/// one before the first was taken means the loop is busy: restore the terminal and stop
/// now; the loop takes the terminal again when continued (`pendingContinue`).
private func recordStop(_ signal: Int32) {
    guard pendingStop.exchange(true, ordering: .acquiringAndReleasing) else { return wakeTheLoop() }
    emergencyRestore()
    _ = kill(0, SIGSTOP)
    pendingStop.store(false, ordering: .releasing)
}

private func recordResize(_ signal: Int32) {
    pendingResize.store(true, ordering: .releasing)
    wakeTheLoop()
}

private func recordContinue(_ signal: Int32) {
    pendingContinue.store(true, ordering: .releasing)
    wakeTheLoop()
}

/// The process signal handling while atpad owns the terminal: exit requests and SIGTSTP
/// become flags the read loop reports (`take`), a resize or a continue flags the backend,
/// and a crash or `exit()` that skips `stop()` still leaves a usable terminal.
///
/// The handlers are installed before `newterm`, so ncurses keeps its own off (it installs
/// them only where the disposition is still the default): ncurses reads no input here,
/// and its SIGWINCH and SIGTSTP handling happens inside its reads.
struct SignalTrap {
    private var saved: [Int32: sigaction] = [:]
    /// SIGTSTP was not ignored when atpad started, so atpad may stop itself.
    private(set) var canSuspend = false

    /// Installs the handlers. Call before `newterm`, so ncurses keeps its own off.
    mutating func install() {
        _ = pendingSignal.load(ordering: .relaxed)
        for signal in exitSignals {
            var old = sigaction()
            if atpad_set_signal(signal, recordExitSignal, &old) == 0 { saved[signal] = old }
        }
        // A parent that ignores SIGTSTP asks for no stops: it stays ignored, and Alt-Z
        // does nothing either.
        canSuspend = atpad_signal_is_ignored(SIGTSTP) == 0
        let handlers: [(Int32, @convention(c) (Int32) -> Void)] =
            (canSuspend ? [(SIGTSTP, recordStop)] : []) + [(SIGWINCH, recordResize), (SIGCONT, recordContinue)]
        for (signal, handler) in handlers {
            var old = sigaction()
            if atpad_set_signal(signal, handler, &old) == 0 { saved[signal] = old }
        }

        if previousCrashActions == nil {
            let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
            actions.initialize(repeating: sigaction(), count: signalSlots)
            previousCrashActions = actions
        }
        for signal in crashSignals {
            var old = sigaction()
            if atpad_set_signal(signal, restoreOnCrash, &old) == 0 {
                previousCrashActions?[Int(signal)] = old
                saved[signal] = old
            }
        }
        if !atExitRegistered.exchange(true, ordering: .relaxed) {
            atexit(restoreAtExit)
        }
    }

    /// Gives the terminal back if a frame still holds it (the emergency restore, armed):
    /// what the process's end does, as the exit handler would (``ProcessEnd``).
    static func restoreBeforeEnd() {
        emergencyRestore()
    }

    /// Puts back the dispositions `install` replaced.
    mutating func restore() {
        for (signal, old) in saved {
            var action = old
            _ = atpad_restore_signal(signal, &action)
        }
        saved.removeAll()
    }

    /// Arms the emergency restore: `modes` is the input's line discipline before ncurses,
    /// `bytes` what turns atpad's terminal modes off.
    static func arm(output: Int32, input: Int32, modes: termios, bytes: [UInt8]) {
        disarm()
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        emergencyBytes = buffer
        emergencyInput = input
        emergencyModes = modes
        emergencyOutput.store(output, ordering: .releasing)
    }

    /// Turns the emergency restore off (the normal `stop` did the work).
    static func disarm() {
        emergencyOutput.store(-1, ordering: .releasing)
        emergencyInput = -1
    }

    /// The exit-request signal received since the last call, else SIGTSTP when one was;
    /// nil when neither came.
    static func take() -> Int32? {
        let signal = pendingSignal.exchange(0, ordering: .acquiringAndReleasing)
        if signal != 0 { return signal }
        return pendingStop.exchange(false, ordering: .acquiringAndReleasing) ? SIGTSTP : nil
    }

    /// The signals the loop must see also write a byte to `pipe`, so its wait for input
    /// ends at once whichever thread they interrupt. The pipe is kept alive from then on
    /// (the handler writes to its descriptor number, which must not be closed and reused).
    static func wake(through pipe: WakePipe) {
        signalWakePipe.withLock { kept in
            kept = pipe
            signalWake.store(pipe.signalDescriptor, ordering: .releasing)
        }
    }

    /// Whether an exit-request signal or a SIGTSTP is waiting to be taken.
    static var isPending: Bool {
        pendingSignal.load(ordering: .acquiring) != 0 || pendingStop.load(ordering: .acquiring)
    }

    /// Whether SIGWINCH came since the last call.
    static func takeResize() -> Bool {
        pendingResize.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Whether SIGCONT came since the last call.
    static func takeContinue() -> Bool {
        pendingContinue.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Stops the process group, as Ctrl-Z in a shell does (the shell sees its job stop,
    /// also when atpad runs under a wrapper such as `git commit`); returns once continued.
    static func stopProcessGroup() {
        var own = sigaction()
        // The default action, for this one signal: atpad's own handler would only flag it.
        guard atpad_set_signal(SIGTSTP, nil, &own) == 0 else { return }
        _ = kill(0, SIGTSTP)
        _ = atpad_restore_signal(SIGTSTP, &own)
    }
}

extension WakePipe {
    /// The signals the loop must see (SIGINT, SIGTERM, SIGHUP, SIGQUIT) wake it through this
    /// pipe too, so a wait for input ends at once even when another thread takes the signal.
    public func receiveSignals() {
        SignalTrap.wake(through: self)
    }
}
