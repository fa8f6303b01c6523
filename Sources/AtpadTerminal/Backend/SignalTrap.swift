import CNcursesw
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Everything a signal handler touches lives in these globals: a handler cannot reach an
// object, and only async-signal-safe work (atomic stores, write, tcsetattr, raise) may
// happen in one. They are set before the handlers are installed.

/// The exit-request signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) not yet taken, or 0.
private let pendingSignal = Atomic<Int32>(0)
/// The write end of the loop's `WakePipe`, written when a signal the loop must see
/// arrives, else -1.
private let signalWake = Atomic<Int32>(-1)
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

/// The process signal handling while atpad owns the terminal: exit requests become a
/// flag the read loop reports, Ctrl-Z never suspends, and a crash or `exit()` that skips
/// `stop()` still leaves a usable terminal.
struct SignalTrap {
    private var saved: [Int32: sigaction] = [:]

    /// Installs the handlers. Call before `newterm`, so ncurses keeps its own off.
    mutating func install() {
        _ = pendingSignal.load(ordering: .relaxed)
        for signal in exitSignals {
            var old = sigaction()
            if atpad_set_signal(signal, recordExitSignal, &old) == 0 { saved[signal] = old }
        }
        var oldStop = sigaction()
        if atpad_ignore_signal(SIGTSTP, &oldStop) == 0 { saved[SIGTSTP] = oldStop }

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

    /// The exit-request signal received since the last call, if any.
    static func take() -> Int32? {
        let signal = pendingSignal.exchange(0, ordering: .acquiringAndReleasing)
        return signal == 0 ? nil : signal
    }

    /// The signals the loop must see also write a byte to `descriptor` (a `WakePipe`'s
    /// write end), so its wait for input ends at once whichever thread they interrupt.
    static func wake(through descriptor: Int32) {
        signalWake.store(descriptor, ordering: .releasing)
    }

    /// `descriptor` is being closed: signals stop writing to it (if they still did).
    static func stopWaking(_ descriptor: Int32) {
        _ = signalWake.compareExchange(expected: descriptor, desired: -1, ordering: .acquiringAndReleasing)
    }

    /// Whether an exit-request signal is waiting to be taken.
    static var isPending: Bool { pendingSignal.load(ordering: .acquiring) != 0 }
}
