import AtpadCore
import Foundation

/// A directory held in memory (from directory files or a list of entities), answering each
/// query with one ranked batch (SPEC §4).
public struct FileDirectory: EntitySource {
    /// The entries, prepared for ranking, in directory order (duplicate ids dropped).
    public let index: DirectoryIndex
    /// The most results a query keeps (SPEC §4: 50 unless configured).
    public var limit: Int
    /// How recently and often an entity id was mentioned; higher ranks first within a
    /// class. The app passes the frecency of the trigger this directory serves.
    public var frecency: @Sendable (String) -> Double

    /// A directory of `entities` in the given order; of several entries with one id, the
    /// first is kept.
    public init(
        entities: [Entity],
        limit: Int = 50,
        frecency: @escaping @Sendable (String) -> Double = { _ in 0 }
    ) {
        index = DirectoryIndex(DirectoryLoader.unique(entities))
        self.limit = limit
        self.frecency = frecency
    }

    /// A directory of merged files, already indexed.
    public init(
        _ merged: MergedDirectory,
        limit: Int = 50,
        frecency: @escaping @Sendable (String) -> Double = { _ in 0 }
    ) {
        index = merged.index
        self.limit = limit
        self.frecency = frecency
    }

    /// Loads the directory file at `path`, in any format (errors are ``DirectoryError``s;
    /// duplicate ids keep the first, without a warning: use ``DirectoryLoader`` for those).
    public static func load(
        path: String,
        limit: Int = 50,
        frecency: @escaping @Sendable (String) -> Double = { _ in 0 }
    ) throws -> FileDirectory {
        FileDirectory(try DirectoryLoader.load(paths: [path]), limit: limit, frecency: frecency)
    }

    /// Loads the directory file at a file URL.
    public static func load(
        contentsOf url: URL,
        limit: Int = 50,
        frecency: @escaping @Sendable (String) -> Double = { _ in 0 }
    ) throws -> FileDirectory {
        try load(path: url.path, limit: limit, frecency: frecency)
    }

    /// The entries in directory order.
    public var entities: [Entity] { index.entities }

    /// The ranked results for `query`, at once (for `atpad search` and tests).
    public func rank(_ query: String) -> [Candidate] {
        index.rank(query, limit: limit, frecency: frecency)
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
