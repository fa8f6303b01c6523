import Synchronization

/// Work done in order, off the caller's thread: the jobs handed to ``async(_:)`` run one
/// after another on a ``BackgroundThread`` that lives while there is work (none is kept
/// idle). The draft writer and the frecency file save through one each.
public final class BackgroundQueue: Sendable {
    private let name: String
    private let state = Mutex((jobs: [@Sendable () -> Void](), running: false))

    /// A queue whose thread is called `name` (as `top -H` and `ps -L` show it).
    public init(name: String) {
        self.name = name
    }

    /// Runs `job` after every job handed in before it. Returns at once.
    public func async(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state in
            state.jobs.append(job)
            defer { state.running = true }
            return !state.running
        }
        if start { BackgroundThread.start(name: name) { self.drain() } }
    }

    /// Runs `job` after every job handed in before it and waits for its result.
    public func sync<Result: Sendable>(_ job: @escaping @Sendable () -> Result) -> Result {
        let handoff = Handoff<Result>()
        async { handoff.give(job()) }
        return handoff.wait()
    }

    private func drain() {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            if state.jobs.isEmpty {
                state.running = false
                return nil
            }
            return state.jobs.removeFirst()
        }) {
            job()
        }
    }
}
