import Dispatch
import Foundation

/// The draft writer's background half: a serial queue that encodes and writes the newest
/// snapshot handed to it, and the failures it has for the loop.
///
/// `@unchecked Sendable` because its work runs on `queue` while the loop's thread hands
/// it snapshots and takes its warnings: every mutable property is only touched under
/// `lock`, and the rest is immutable.
final class DraftQueue: @unchecked Sendable {
    let store: DraftStore
    let draftPath: String
    let originalPath: String?
    private let queue = DispatchQueue(label: "atpad.drafts", qos: .utility)
    private let lock = NSLock()

    /// The newest snapshot not yet taken by a write. A newer one replaces it: only the
    /// newest document matters, so a slow disk never builds a backlog of 1 MB writes.
    private var waiting: (any DraftContent)?
    /// A drain is on the queue and has not yet taken `waiting`.
    private var drainQueued = false
    /// The last write or removal failed.
    private var failing = false
    /// The failure the loop was last told of; it is not told again until something succeeds.
    private var reported: String?
    /// A failure the loop has not taken yet.
    private var warning: String?
    private var writes = 0
    /// Runs on the queue right before each write; tests use it to hold a write in flight.
    private var beforeWrite: (@Sendable () -> Void)?

    init(store: DraftStore, draftPath: String, originalPath: String?) {
        self.store = store
        self.draftPath = draftPath
        self.originalPath = originalPath
    }

    /// Hands `content` to the queue, replacing any snapshot still waiting. Returns at once.
    func submit(_ content: any DraftContent) {
        let needsDrain = lock.withLock {
            waiting = content
            defer { drainQueued = true }
            return !drainQueued
        }
        if needsDrain {
            queue.async { self.drain() }
        }
    }

    /// Writes `content` now, after any write in flight, and waits for it. Whatever was
    /// waiting is dropped: `content` is newer.
    func flush(_ content: any DraftContent) -> Bool {
        lock.withLock { waiting = nil }
        return queue.sync { write(content.draftBody()) }
    }

    /// Waits for the write in flight and any waiting one; tells whether the last succeeded.
    func finish() -> Bool {
        queue.sync {}
        return lock.withLock { !failing }
    }

    /// Drops the waiting snapshot, waits for a write in flight, then removes the draft, so
    /// no write started before can bring it back.
    func discard() {
        lock.withLock { waiting = nil }
        queue.sync {
            do throws(DraftError) {
                try store.remove(draftAt: draftPath)
                succeeded(wrote: false)
            } catch {
                failed(error)
            }
        }
    }

    /// A failure not yet shown, once per failure (until something succeeds again).
    func takeWarning() -> String? {
        lock.withLock {
            defer { warning = nil }
            return warning
        }
    }

    /// The last write or removal failed.
    var isFailing: Bool { lock.withLock { failing } }

    /// How many drafts were written (for tests and measurements).
    var completedWrites: Int { lock.withLock { writes } }

    func setBeforeWrite(_ hook: (@Sendable () -> Void)?) {
        lock.withLock { beforeWrite = hook }
    }

    // MARK: - On the queue

    private func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        // The snapshot is let go as soon as it is encoded, before the (slower) file write:
        // while it lives, the loop's next edit must copy the storage's chunk list.
        guard let body = takeWaiting()?.draftBody() else { return }
        _ = write(body)
    }

    private func takeWaiting() -> (any DraftContent)? {
        lock.withLock {
            drainQueued = false
            defer { waiting = nil }
            return waiting
        }
    }

    /// Writes one encoded snapshot; only ever runs on `queue`, one at a time.
    private func write(_ body: DraftBody) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        lock.withLock { beforeWrite }?()
        do {
            try store.write(body, originalPath: originalPath, to: draftPath)
            succeeded(wrote: true)
            return true
        } catch {
            failed(error)
            return false
        }
    }

    private func succeeded(wrote: Bool) {
        lock.withLock {
            failing = false
            reported = nil
            if wrote { writes += 1 }
        }
    }

    private func failed(_ error: DraftError) {
        lock.withLock {
            failing = true
            if reported != error.message {
                reported = error.message
                warning = error.message
            }
        }
    }
}
