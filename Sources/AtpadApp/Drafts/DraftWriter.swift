import FoundationEssentials
import Glibc

/// Keeps one editing session's recovery draft at most about two seconds behind the
/// document (docs/drafts.md) without the editor loop ever waiting for a file.
///
/// The loop tells it of every change (`documentChanged`) and calls `tick` on every turn.
/// The first change after a write arms a deadline `interval` later; later changes do not
/// push it back, so even continuous typing is written about once a second. When the
/// deadline has passed, `tick` takes the snapshot — a copy-on-write value, O(1) — and
/// hands it to a serial background queue, which encodes it to markup and writes the
/// file. Failures never reach the loop as errors: each is kept once for `takeWarning`,
/// and `onWarning` (the loop's wake-up) is called so the loop looks.
///
/// Used from the loop's thread only (it is deliberately not `Sendable`).
public final class DraftWriter {
    /// The draft file this session writes.
    public var draftPath: String { background.draftPath }
    /// How long after the first unwritten change the draft is written.
    public let interval: Duration
    /// When the next write is due; nil when everything is written. The loop may sleep
    /// until then, not longer.
    public private(set) var nextDeadline: ContinuousClock.Instant?
    /// There are changes no snapshot has taken yet.
    private var changed = false
    let background: DraftQueue

    /// A writer for the draft at `draftPath` of the document at `originalPath` (nil for an
    /// unnamed comment).
    init(store: DraftStore, draftPath: String, originalPath: String?, interval: Duration = .seconds(1),
         onWarning: (@Sendable () -> Void)? = nil, write: DraftQueue.Write? = nil) {
        self.interval = interval
        background = DraftQueue(store: store, draftPath: draftPath, originalPath: originalPath.map(store.absolutePath),
                                onWarning: onWarning, write: write)
    }

    /// A writer for the document at `documentPath`, or for a new unnamed comment started
    /// now when it is nil.
    convenience init(store: DraftStore, documentPath: String?, interval: Duration = .seconds(1),
                     onWarning: (@Sendable () -> Void)? = nil, write: DraftQueue.Write? = nil) {
        let draftPath = documentPath.map(store.draftPath(for:)) ?? store.unnamedDraftPath()
        self.init(store: store, draftPath: draftPath, originalPath: documentPath, interval: interval,
                  onWarning: onWarning, write: write)
    }

    /// The document changed at `now`: arms the deadline unless one is already armed.
    public func documentChanged(now: ContinuousClock.Instant) {
        changed = true
        if nextDeadline == nil { nextDeadline = now + interval }
    }

    /// Called on every turn of the loop: when the deadline has passed, takes a snapshot
    /// and hands it to the background queue. Returns whether it did. `snapshot` is only
    /// called then, and must be cheap (a copy-on-write value).
    ///
    /// Best called after the frame is drawn, right before waiting for input: on a busy
    /// machine the woken writer thread can take the core for a few milliseconds, which
    /// then delays nothing the person sees.
    @discardableResult
    public func tick<Content: DraftContent>(now: ContinuousClock.Instant, snapshot: () -> Content) -> Bool {
        guard let deadline = nextDeadline, now >= deadline else { return false }
        nextDeadline = nil
        changed = false
        background.submit(snapshot())
        return true
    }

    /// How long the loop may wait for input before the next `tick`, in milliseconds: its
    /// usual `otherwise` (negative: no limit), or less when a write falls due sooner.
    public func pollTimeout(now: ContinuousClock.Instant, otherwise: Int) -> Int {
        guard let deadline = nextDeadline else { return otherwise }
        let left = now.duration(to: deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let millis = Int(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return otherwise < 0 ? millis : min(otherwise, millis)
    }

    /// Writes the draft now and waits for it (SIGHUP, SIGTERM): the snapshot when there
    /// are changes not yet handed to the queue or the last write failed, else just the
    /// write in flight. Returns whether the draft on disk is now up to date; a failure is
    /// also kept for `takeWarning`.
    @discardableResult
    public func flushNow<Content: DraftContent>(_ snapshot: () -> Content) -> Bool {
        nextDeadline = nil
        if changed || background.isFailing {
            changed = false
            return background.flush(snapshot())
        }
        return background.finish()
    }

    /// Removes the draft after a clean save or quit: a pending write is dropped and a write
    /// in flight is waited for first, so nothing brings the draft back. Later changes arm
    /// the writer again.
    public func discard() {
        nextDeadline = nil
        changed = false
        background.discard()
    }

    /// A failure to show on the message line (one line), once; nil when there is none new.
    public func takeWarning() -> String? {
        background.takeWarning()
    }
}
