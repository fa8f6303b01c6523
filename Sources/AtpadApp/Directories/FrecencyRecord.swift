import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The frecency file as one session uses it: scores read once, a snapshot per trigger
/// that the directories rank with, and picks recorded and saved (off the input path).
/// `atpad search` reads it; `replay` never makes one.
final class FrecencyRecord: Sendable {
    /// The scores, and a snapshot of them per trigger; the directories read snapshots
    /// from their query tasks while the editor loop records picks.
    private let state: Mutex<(store: FrecencyStore, snapshots: [Unicode.Scalar: [String: Double]])>
    private let url: URL?
    private let saving = BackgroundQueue(name: "atpad frecency")
    /// A one-line warning from reading the file (a corrupt one is ignored), if any.
    let warning: String?

    /// Reads the frecency file (`$XDG_STATE_HOME/atpad/frecency.json`); none at all when
    /// there is no home folder to keep it in.
    init(environment: [String: String] = ProcessEnvironment.current()) {
        url = FrecencyStore.defaultURL(environment: environment)
        let store: FrecencyStore
        if let url {
            (store, warning) = FrecencyStore.load(from: url)
        } else {
            store = FrecencyStore()
            warning = nil
        }
        state = Mutex((store, [:]))
    }

    /// The scores of `trigger`, as a directory asks for them on each query (the same
    /// table until the next pick, so the directory's positions of it stay cached).
    func scores(for trigger: Unicode.Scalar) -> [String: Double] {
        state.withLock { state in
            if let cached = state.snapshots[trigger] { return cached }
            let fresh = state.store.scores(for: trigger, now: Date())
            state.snapshots[trigger] = fresh
            return fresh
        }
    }

    /// The function a directory of `trigger` ranks with.
    func provider(for trigger: Unicode.Scalar) -> @Sendable () -> [String: Double] {
        { [self] in scores(for: trigger) }
    }

    /// Records a pick and saves the file in the background (atomically). Returns nothing:
    /// a failed save costs the ranking of this pick, never the comment.
    func recordPick(of id: String, trigger: Unicode.Scalar) {
        let snapshot = state.withLock { state in
            state.store.recordPick(of: id, trigger: trigger, now: Date())
            state.snapshots[trigger] = nil
            return state.store
        }
        guard let url else { return }
        saving.async {
            var copy = snapshot
            try? copy.save(to: url, now: Date())
        }
    }

    /// Waits for the saves in flight (before the process exits).
    func finishSaving() {
        saving.sync {}
    }
}
