/// Why the terminal could not be taken over; `description` is one line for stderr.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// TERM is unset or empty.
    case noTerminalType
    /// TERM names a type the terminfo database does not have.
    case unknownTerminalType(String)
    /// No terminfo database could be found at all.
    case noTerminfoDatabase(String)
    /// The terminal type cannot move the cursor (`dumb`, a printing terminal).
    case cannotAddressCursor(String)
    /// The terminal device (`/dev/tty` when stdout is not a terminal) cannot be opened.
    case cannotOpenTerminal(path: String, reason: String)
    /// ncurses refused to start on this terminal.
    case startFailed(String)

    public var description: String {
        switch self {
        case .noTerminalType:
            "TERM is not set: atpad needs a terminal type to draw the editor (e.g. TERM=xterm-256color)"
        case .unknownTerminalType(let name):
            "unknown terminal type '\(name)' (TERM): it is not in the terminfo database"
        case .noTerminfoDatabase(let name):
            "no terminfo database found for terminal type '\(name)' (TERM)"
        case .cannotAddressCursor(let name):
            "terminal type '\(name)' (TERM) cannot move the cursor, so atpad cannot draw on it"
        case .cannotOpenTerminal(let path, let reason):
            "cannot open the terminal \(path): \(reason)"
        case .startFailed(let name):
            "cannot start the screen on terminal type '\(name)' (TERM)"
        }
    }
}
