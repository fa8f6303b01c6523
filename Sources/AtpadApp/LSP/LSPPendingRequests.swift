import Synchronization

/// The completions still waiting on a slow source, by their request's id (as JSON text):
/// whichever comes first — the answer or `$/cancelRequest` — takes the entry and answers,
/// so each request is answered exactly once.
final class LSPPendingRequests: Sendable {
    /// A request is entered before its task starts (which may answer at once), and its
    /// task joins it afterwards.
    private let waiting = Mutex<[String: Task<Void, Never>?]>([:])

    func begin(_ key: String) {
        waiting.withLock { $0[key] = .some(nil) }
    }

    /// Records the request's task, unless it was answered already.
    func attach(_ key: String, _ task: Task<Void, Never>) {
        waiting.withLock { if $0[key] != nil { $0[key] = task } }
    }

    /// Takes the request: true (and its task, if attached) when it was still waiting,
    /// false when it was answered or cancelled already.
    func take(_ key: String) -> (waiting: Bool, task: Task<Void, Never>?) {
        waiting.withLock { pending in
            guard let entry = pending.removeValue(forKey: key) else { return (false, nil) }
            return (true, entry)
        }
    }
}
