import AtpadCore
import FoundationEssentials
import Glibc
import Synchronization

/// A directory held in memory (from directory files or a list of entities), answering each
/// query with one ranked batch (docs/directories.md, "Ranking and frecency").
public struct FileDirectory: EntitySource {
    /// The entries, prepared for ranking, in directory order (duplicate ids dropped).
    public let index: DirectoryIndex
    /// The most results a query keeps (50 unless configured: `limit` in docs/config.md).
    public var limit: Int
    /// How recently and often entity ids were mentioned, for the ids that have a score
    /// (every other id scores 0); higher ranks first within a class. The app passes the
    /// frecency of the trigger this directory serves; it is asked once per query.
    public var frecency: @Sendable () -> [String: Double]
    /// The last frecency table resolved to entry positions (a pick changes it rarely).
    private let frecent = FrecentPositions()

    /// A directory of `entities` in the given order; of several entries with one id, the
    /// first is kept.
    public init(
        entities: [Entity],
        limit: Int = SourceDefaults.limit,
        frecency: @escaping @Sendable () -> [String: Double] = { [:] }
    ) {
        index = DirectoryIndex(DirectoryLoader.unique(entities))
        self.limit = limit
        self.frecency = frecency
    }

    /// A directory of merged files, already indexed.
    public init(
        _ merged: MergedDirectory,
        limit: Int = SourceDefaults.limit,
        frecency: @escaping @Sendable () -> [String: Double] = { [:] }
    ) {
        index = merged.index
        self.limit = limit
        self.frecency = frecency
    }

    /// Loads the directory file at `path`, in any format (errors are ``DirectoryError``s;
    /// duplicate ids keep the first, without a warning: use ``DirectoryLoader`` for those).
    public static func load(
        path: String,
        limit: Int = SourceDefaults.limit,
        frecency: @escaping @Sendable () -> [String: Double] = { [:] }
    ) throws -> FileDirectory {
        FileDirectory(try DirectoryLoader.load(paths: [path]), limit: limit, frecency: frecency)
    }

    /// Loads the directory file at a file URL.
    public static func load(
        contentsOf url: URL,
        limit: Int = SourceDefaults.limit,
        frecency: @escaping @Sendable () -> [String: Double] = { [:] }
    ) throws -> FileDirectory {
        try load(path: url.path, limit: limit, frecency: frecency)
    }

    /// The entries in directory order (for a mapped index, every entry decoded: see
    /// ``DirectoryIndex/entities``).
    public var entities: [Entity] { index.entities }

    /// The ranked results for `query`, at once (for `atpad search`, `atpad lsp` and tests);
    /// without their match ranges when `matchRanges` is false (a language client
    /// highlights the match itself).
    public func rank(_ query: String, matchRanges: Bool = true) -> [Candidate] {
        index.rankedMatches(query, limit: limit, frecent: frecent.positions(for: frecency(), in: index),
                            matchRanges: matchRanges)
            .map(\.candidate)
    }

    /// Answers with one batch, the ranked results (possibly empty), then ends.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let directory = self
        return AsyncThrowingStream { continuation in
            // Ranked off the caller's task so a large directory does not hold up the
            // editor; cancelling the consumer cancels this work.
            let work = Task {
                let results = directory.rank(query)
                if !Task.isCancelled { continuation.yield(results) }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}

/// A frecency table (by id) resolved to entry positions, kept until the table changes:
/// finding the positions walks the whole directory, which a keystroke must not.
final class FrecentPositions: Sendable {
    private let cache = Mutex<(scores: [String: Double], positions: [Int32: Double])>(([:], [:]))

    func positions(for scores: [String: Double], in index: DirectoryIndex) -> [Int32: Double] {
        let wanted = scores.filter { $0.value != 0 && !$0.value.isNaN }
        return cache.withLock { cache in
            if wanted == cache.scores { return cache.positions }
            var found: [Int32: Double] = [:]
            for (id, position) in index.positions(ofIDs: Set(wanted.keys)) {
                found[Int32(truncatingIfNeeded: position)] = wanted[id]
            }
            cache = (wanted, found)
            return found
        }
    }
}
