import Synchronization

/// One-line notes a source makes while answering that are not failures (`3 items without
/// id or name skipped`, `the cached list could not be refreshed`): `atpad search` prints
/// them on stderr, the editor on its message line. Each distinct note is kept once, so a
/// note repeated by every query is still said once.
public final class SourceNotes: Sendable {
    private let state = Mutex<(said: Set<String>, unread: [String])>(([], []))

    public init() {}

    /// Adds `note` unless it was added before.
    public func say(_ note: String) {
        state.withLock { state in
            if state.said.insert(note).inserted { state.unread.append(note) }
        }
    }

    /// The notes added since the last call, oldest first.
    public func take() -> [String] {
        state.withLock { state in
            defer { state.unread = [] }
            return state.unread
        }
    }
}
