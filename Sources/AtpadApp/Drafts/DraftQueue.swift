import AtpadSystem
import Synchronization

/// The draft writer's background half: a serial queue that encodes and writes the newest
/// snapshot handed to it, and the failures it has for the loop.
///
/// Its work runs on `queue` while the loop's thread hands it snapshots and takes its
/// warnings; everything both touch is in `state`, behind a mutex.
final class DraftQueue: Sendable {
    let store: DraftStore
    let draftPath: String
    let originalPath: String?
    private let queue = BackgroundQueue(name: "atpad drafts")
    /// Called (on the queue) when a new failure waits for `takeWarning`: wakes the loop.
    private let onWarning: (@Sendable () -> Void)?
    /// Puts one encoded draft on disk (at the draft path, for the original's path).
    private let writeDraft: Write

    /// How a queue puts an encoded draft on disk: the store's `write` unless the writer was
    /// given another (one that holds a write in flight shows what happens meanwhile).
    typealias Write = @Sendable (_ body: DraftBody, _ originalPath: String?, _ draftPath: String) throws -> Void

    private struct State {
        /// The newest snapshot not yet taken by a write. A newer one replaces it: only the
        /// newest document matters, so a slow disk never builds a backlog of 1 MB writes.
        var waiting: (any DraftContent)?
        /// A drain is on the queue and has not yet taken `waiting`.
        var drainQueued = false
        /// The last write or removal failed.
        var failing = false
        /// The failure the loop was last told of; it is not told again until something succeeds.
        var reported: String?
        /// A failure the loop has not taken yet.
        var warning: String?
    }

    private let state = Mutex(State())

    init(store: DraftStore, draftPath: String, originalPath: String?, onWarning: (@Sendable () -> Void)? = nil,
         write: Write? = nil) {
        writeDraft = write ?? { try store.write($0, originalPath: $1, to: $2) }
        self.store = store
        self.draftPath = draftPath
        self.originalPath = originalPath
        self.onWarning = onWarning
    }

    /// Hands `content` to the queue, replacing any snapshot still waiting. Returns at once.
    func submit(_ content: any DraftContent) {
        let needsDrain = state.withLock { state in
            state.waiting = content
            defer { state.drainQueued = true }
            return !state.drainQueued
        }
        if needsDrain {
            queue.async { self.drain() }
        }
    }

    /// Writes `content` now, after any write in flight, and waits for it. Whatever was
    /// waiting is dropped: `content` is newer.
    func flush(_ content: any DraftContent) -> Bool {
        state.withLock { $0.waiting = nil }
        return queue.sync { self.write(content.draftBody()) }
    }

    /// Waits for the write in flight and any waiting one; tells whether the last succeeded.
    func finish() -> Bool {
        queue.sync {}
        return state.withLock { !$0.failing }
    }

    /// Drops the waiting snapshot, waits for a write in flight, then removes the draft, so
    /// no write started before can bring it back.
    func discard() {
        state.withLock { $0.waiting = nil }
        queue.sync {
            do throws(DraftError) {
                try self.store.remove(draftAt: self.draftPath)
                self.succeeded()
            } catch {
                self.failed(error)
            }
        }
    }

    /// A failure not yet shown, once per failure (until something succeeds again).
    func takeWarning() -> String? {
        state.withLock { state in
            defer { state.warning = nil }
            return state.warning
        }
    }

    /// The last write or removal failed.
    var isFailing: Bool { state.withLock { $0.failing } }

    // MARK: - On the queue

    private func drain() {
        // The snapshot is let go as soon as it is encoded, before the (slower) file write:
        // while it lives, the loop's next edit must copy the storage's chunk list.
        guard let body = takeWaiting()?.draftBody() else { return }
        _ = write(body)
    }

    private func takeWaiting() -> (any DraftContent)? {
        state.withLock { state in
            state.drainQueued = false
            defer { state.waiting = nil }
            return state.waiting
        }
    }

    /// Writes one encoded snapshot; only ever runs on `queue`, one at a time.
    private func write(_ body: DraftBody) -> Bool {
        do {
            try writeDraft(body, originalPath, draftPath)
            succeeded()
            return true
        } catch {
            failed(error as? DraftError ?? DraftError(message: "\(error)"))
            return false
        }
    }

    private func succeeded() {
        state.withLock { state in
            state.failing = false
            state.reported = nil
        }
    }

    private func failed(_ error: DraftError) {
        let isNew = state.withLock { state in
            state.failing = true
            guard state.reported != error.message else { return false }
            state.reported = error.message
            state.warning = error.message
            return true
        }
        if isNew { onWarning?() }
    }
}
