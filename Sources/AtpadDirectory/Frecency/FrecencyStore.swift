import AtpadSystem
import FoundationEssentials
import Glibc

/// How recently and how often each entity was picked, per trigger
/// (docs/directories.md, "Ranking and frecency": within a match class, more recently and
/// frequently mentioned people rank first).
///
/// Every pick adds 1 to an id's score, and scores halve every `halfLife` (14 days unless
/// set), so a score is the sum over past picks of `0.5^(age / halfLife)`. Each id keeps
/// only its score as of its last pick, so a pick costs O(1) whatever the history.
///
/// The store is a value: the clock is passed in (`now`), so it is deterministic to test,
/// and reading or writing its file (``load(from:halfLife:)``, ``save(to:now:)``) is
/// explicit. A bad file is never fatal: loading it gives an empty store and a warning.
public struct FrecencyStore: Sendable, Equatable {
    /// One id's standing: its score as of `updated`.
    public struct Entry: Sendable, Equatable {
        /// The sum of the id's decayed picks at `updated`.
        public var score: Double
        /// When the id was last picked.
        public var updated: Date

        /// An entry with `score` as of `updated`.
        public init(score: Double, updated: Date) {
            self.score = score
            self.updated = updated
        }

        /// The score decayed to `now`; a time before `updated` (a clock set back) counts
        /// as no time at all.
        public func score(at now: Date, halfLife: TimeInterval) -> Double {
            let age = max(0, now.timeIntervalSince(updated))
            return score * exp2(-age / halfLife)
        }
    }

    /// A pick not yet saved, replayed over the file's contents when saving.
    private struct Pick: Sendable, Equatable {
        var trigger: String
        var id: String
        var at: Date
    }

    /// Two weeks: a person mentioned daily stays on top; one mentioned once a month ago
    /// counts for a fifth of a fresh pick.
    public static let defaultHalfLife: TimeInterval = 14 * 24 * 60 * 60
    /// Saved entries whose decayed score fell below this are dropped (one pick, about
    /// three months old), so the file does not grow forever.
    public static let minimumScore = 0.01
    /// At most this many ids are saved per trigger, the highest scores first.
    public static let maximumEntries = 10_000

    /// How long a pick takes to count half as much.
    public var halfLife: TimeInterval
    /// The entries by trigger (as a one-character string) and id.
    public private(set) var entries: [String: [String: Entry]] = [:]
    private var pending: [Pick] = []

    /// An empty store.
    public init(halfLife: TimeInterval = defaultHalfLife) {
        self.halfLife = halfLife > 0 ? halfLife : Self.defaultHalfLife
    }

    // MARK: - Scores

    /// `id`'s score for `trigger` at `now` (0 when it was never picked).
    public func score(of id: String, trigger: Unicode.Scalar, now: Date) -> Double {
        entries[Self.key(trigger)]?[id]?.score(at: now, halfLife: halfLife) ?? 0
    }

    /// Records that `id` was picked for `trigger` at `now`: its score decays to `now`,
    /// then grows by 1.
    public mutating func recordPick(of id: String, trigger: Unicode.Scalar, now: Date) {
        let pick = Pick(trigger: Self.key(trigger), id: id, at: now)
        Self.apply(pick, to: &entries, halfLife: halfLife)
        pending.append(pick)
    }

    /// The scores of `trigger` at `now`, as the function ``FileDirectory`` ranks with.
    ///
    /// A snapshot: record a pick, then ask again. The scores are decayed once, here; a
    /// session's minutes do not change a two-week decay enough to matter.
    public func scorer(for trigger: Unicode.Scalar, now: Date) -> @Sendable (String) -> Double {
        let scores = scores(for: trigger, now: now)
        if scores.isEmpty { return { _ in 0 } }
        return { scores[$0] ?? 0 }
    }

    /// The scores of `trigger` at `now` by id, for the ids that have one: the table
    /// ``FileDirectory/frecency`` gives (a snapshot, like ``scorer(for:now:)``).
    public func scores(for trigger: Unicode.Scalar, now: Date) -> [String: Double] {
        (entries[Self.key(trigger)] ?? [:]).mapValues { $0.score(at: now, halfLife: halfLife) }
    }

    /// The entries of one trigger.
    public func entries(for trigger: Unicode.Scalar) -> [String: Entry] {
        entries[Self.key(trigger)] ?? [:]
    }

    private static func apply(_ pick: Pick, to entries: inout [String: [String: Entry]], halfLife: TimeInterval) {
        let old = entries[pick.trigger]?[pick.id]
        let score = (old?.score(at: pick.at, halfLife: halfLife) ?? 0) + 1
        let updated = max(old?.updated ?? pick.at, pick.at)
        entries[pick.trigger, default: [:]][pick.id] = Entry(score: score, updated: updated)
    }

    static func key(_ trigger: Unicode.Scalar) -> String {
        String(Character(trigger))
    }

    // MARK: - The file

    /// Where the store lives: `$XDG_STATE_HOME/atpad/frecency.json`, or
    /// `~/.local/state/atpad/frecency.json` when that variable is unset, empty or not an
    /// absolute path (as the XDG base directory rules say); nil without a home folder.
    public static func defaultURL(environment: [String: String] = ProcessEnvironment.current()) -> URL? {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            state = home + "/.local/state"
        } else {
            return nil
        }
        // Said to be a file: a URL left to guess asks the file system.
        return URL(filePath: state + "/atpad/frecency.json", directoryHint: .notDirectory)
    }

    /// The store saved at `url`. A missing file is an empty store; a file that cannot be
    /// read or is not a frecency file is an empty store and a one-line warning (returned,
    /// for the caller to show).
    public static func load(from url: URL, halfLife: TimeInterval = defaultHalfLife) -> (store: FrecencyStore, warning: String?) {
        var store = FrecencyStore(halfLife: halfLife)
        switch FrecencyFile.read(url) {
        case .missing:
            return (store, nil)
        case .failed(let problem):
            return (store, "ignoring the frecency file: \(problem)")
        case .entries(let entries):
            store.entries = entries
            return (store, nil)
        }
    }

    /// Writes the store to `url` atomically (a temporary file in the same folder, flushed,
    /// then renamed), creating the folder if needed.
    ///
    /// Picks recorded since loading are replayed over the file as it is now, so two
    /// atpads saving one after the other keep each other's picks. Entries decayed below
    /// ``minimumScore`` at `now` are dropped, and at most ``maximumEntries`` per trigger
    /// kept. Throws a ``FrecencyStore/SaveError`` (the store is unchanged then).
    public mutating func save(to url: URL, now: Date) throws {
        var merged = entries
        if case .entries(let onDisk) = FrecencyFile.read(url) {
            merged = onDisk
            for pick in pending { Self.apply(pick, to: &merged, halfLife: halfLife) }
        }
        for (trigger, ids) in merged {
            var kept = ids.filter { $0.value.score(at: now, halfLife: halfLife) >= Self.minimumScore }
            if kept.count > Self.maximumEntries {
                let best = kept.sorted { $0.value.score(at: now, halfLife: halfLife) > $1.value.score(at: now, halfLife: halfLife) }
                kept = Dictionary(uniqueKeysWithValues: best.prefix(Self.maximumEntries).map { ($0.key, $0.value) })
            }
            merged[trigger] = kept.isEmpty ? nil : kept
        }
        do {
            try AtomicFile.write(Array(FrecencyFile.encode(merged).utf8), to: url.path)
        } catch {
            throw SaveError(message: "cannot save frecency to \(url.path): \(error.message)")
        }
        entries = merged
        pending = []
    }

    /// Saving failed; the message names the file and the reason in one line.
    public struct SaveError: Error, CustomStringConvertible, Equatable {
        /// `cannot save frecency to PATH: REASON`.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
