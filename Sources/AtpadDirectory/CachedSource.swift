import AtpadCore
import Foundation
import Synchronization

/// A list-only service made instant (SPEC §12 `cache`): the source is asked once, with an
/// empty query, for its whole list, which is kept in a file and ranked locally like a
/// directory file (§4, frecency included).
///
/// The file is `lists/<hash of the source's settings>.json` in the cache folder
/// (`$XDG_CACHE_HOME/atpad/`), an entity array written atomically and readable by its
/// owner only; it never holds a header. The first query with no file fetches the list and
/// waits for it. A list older than `maxAge` is refreshed in the background while the old
/// one keeps answering — or, with `refreshBeforeAnswering` (`atpad search`, being one
/// shot), before the answer. A failed refresh keeps the last good list and says so once
/// through ``SourceNotes``; a failed first fetch is the query's error. A fetch follows
/// every page up to ``maximumItems`` within ``fetchTimeout``, and says when it stopped short.
public struct CachedSource: EntitySource {
    /// The most entities one fetch keeps.
    public static let maximumItems = 100_000
    /// How long one fetch may take, pages included.
    public static let fetchTimeout: Duration = .seconds(60)

    let source: any ListSource
    /// The age after which the list is refreshed.
    public let maxAge: Duration
    /// The cache file.
    public let path: String
    public let limit: Int
    public let frecency: @Sendable () -> [String: Double]
    public let notes: SourceNotes?
    public let refreshesBeforeAnswering: Bool
    /// How long a fetch may take (``fetchTimeout`` but in tests).
    let timeout: Duration
    private let state: SharedState

    /// What all copies of the source share: the list in memory and the refresh in progress.
    private final class SharedState: Sendable {
        struct Value {
            var directory: FileDirectory?
            /// When the list in memory was fetched (the file's time).
            var fetched: Date?
            var refreshing = false
            /// When the last refresh failed: the next waits for `maxAge` after it.
            var failed: Date?
        }
        let value = Mutex(Value())
    }

    /// A cached command source.
    public init(command: CommandSource, maxAge: Duration, cacheFolder: String, limit: Int = 50,
                frecency: @escaping @Sendable () -> [String: Double] = { [:] }, notes: SourceNotes? = nil,
                refreshesBeforeAnswering: Bool = false) {
        self.init(list: command, maxAge: maxAge, cacheFolder: cacheFolder, limit: limit, frecency: frecency, notes: notes,
                  refreshesBeforeAnswering: refreshesBeforeAnswering, timeout: Self.fetchTimeout)
    }

    /// A cached URL source.
    public init(url: URLSource, maxAge: Duration, cacheFolder: String, limit: Int = 50,
                frecency: @escaping @Sendable () -> [String: Double] = { [:] }, notes: SourceNotes? = nil,
                refreshesBeforeAnswering: Bool = false) {
        self.init(list: url, maxAge: maxAge, cacheFolder: cacheFolder, limit: limit, frecency: frecency, notes: notes,
                  refreshesBeforeAnswering: refreshesBeforeAnswering, timeout: Self.fetchTimeout)
    }

    init(list: any ListSource, maxAge: Duration, cacheFolder: String, limit: Int,
         frecency: @escaping @Sendable () -> [String: Double], notes: SourceNotes?, refreshesBeforeAnswering: Bool,
         timeout: Duration) {
        source = list
        self.maxAge = maxAge
        path = cacheFolder + "/lists/" + Self.fileName(list.listKey)
        self.limit = limit
        self.frecency = frecency
        self.notes = notes
        self.refreshesBeforeAnswering = refreshesBeforeAnswering
        self.timeout = timeout
        state = SharedState()
    }

    /// `list-<FNV-1a 64 of key>.json`: stable across runs, and nothing of the key readable.
    static func fileName(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "list-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
    }

    /// Ranks the cached list for `query` (fetching it first when there is none).
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = self
        return answerOnWorkerThread(named: "atpad cached list") { cancellation, yield in
            guard let directory = try source.directory(cancellation: cancellation) else { return }
            yield(directory.rank(query))
        }
    }

    // MARK: - The list

    /// The list to rank: in memory, else from the file, else fetched now; refreshed first
    /// or in the background when stale. Nil when cancelled before there was one.
    /// The list in memory, once a query has read or fetched it (nil before): the
    /// conversation's participants are looked up in it.
    public var loadedDirectory: FileDirectory? {
        state.value.withLock { $0.directory }
    }

    func directory(cancellation: Cancellation) throws(SourceError) -> FileDirectory? {
        var (directory, fetched) = state.value.withLock { ($0.directory, $0.fetched) }
        if directory == nil, let stored = readFile() {
            directory = stored.directory
            fetched = stored.fetched
            state.value.withLock { value in
                if value.directory == nil { (value.directory, value.fetched) = (stored.directory, stored.fetched) }
            }
        }
        guard let directory, let fetched else {
            return try refresh(cancellation: cancellation)
        }
        guard isStale(fetched) else { return directory }
        if refreshesBeforeAnswering {
            do {
                return try refresh(cancellation: cancellation) ?? directory
            } catch {
                sayRefreshFailed(error, fetched: fetched)
                return directory
            }
        }
        refreshInBackground(fetched: fetched)
        return directory
    }

    private func isStale(_ fetched: Date) -> Bool {
        let age = Date().timeIntervalSince(fetched)
        let limit = Double(maxAge.components.seconds) + Double(maxAge.components.attoseconds) / 1e18
        return age >= limit
    }

    /// Starts one background refresh unless one is running or the last failed recently.
    private func refreshInBackground(fetched: Date) {
        let start = state.value.withLock { value -> Bool in
            if value.refreshing { return false }
            if let failed = value.failed, !isStale(failed) { return false }
            value.refreshing = true
            return true
        }
        guard start else { return }
        let source = self
        let thread = Thread {
            defer { source.state.value.withLock { $0.refreshing = false } }
            guard let cancellation = try? Cancellation() else { return }
            defer { cancellation.close() }
            do throws(SourceError) {
                _ = try source.refresh(cancellation: cancellation)
            } catch {
                source.state.value.withLock { $0.failed = Date() }
                source.sayRefreshFailed(error, fetched: fetched)
            }
        }
        thread.name = "atpad cache refresh"
        thread.start()
    }

    private func sayRefreshFailed(_ error: SourceError, fetched: Date) {
        let minutes = max(0, Int(Date().timeIntervalSince(fetched) / 60))
        notes?.say("could not refresh the cached list (\(error.message)); still using the one from \(minutes) min ago")
    }

    /// Fetches the whole list, keeps it in memory and in the file; nil when cancelled.
    @discardableResult
    func refresh(cancellation: Cancellation) throws(SourceError) -> FileDirectory? {
        let answer = try source.list(items: Self.maximumItems, timeout: timeout, cancellation: cancellation)
        guard !cancellation.isCancelled else { return nil }
        if let short = answer.stoppedShort { notes?.say("the cached list is not complete: \(short)") }
        let directory = FileDirectory(entities: answer.entities, limit: limit, frecency: frecency)
        let now = Date()
        state.value.withLock { value in
            value.directory = directory
            value.fetched = now
            value.failed = nil
        }
        do {
            try AtomicFile.write(Array(Self.json(directory.entities).utf8), to: path)
        } catch {
            notes?.say("could not keep the cached list: \(error.message)")
        }
        return directory
    }

    /// The list in the file and when it was written; nil when there is none or it cannot be read.
    private func readFile() -> (directory: FileDirectory, fetched: Date)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard let entities = try? DirectoryFile.entities(fromJSON: DirectoryFile.contents(of: path), path: path) else {
            return nil
        }
        let fetched = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        return (FileDirectory(entities: entities, limit: limit, frecency: frecency), fetched)
    }

    /// Entities as a JSON array in atpad's own shape.
    static func json(_ entities: [Entity]) -> String {
        var text = "[\n"
        for (index, entity) in entities.enumerated() {
            var members = ["\"id\": " + JSONText.quote(entity.id), "\"name\": " + JSONText.quote(entity.name)]
            if let handle = entity.handle { members.append("\"handle\": " + JSONText.quote(handle)) }
            if let detail = entity.detail { members.append("\"detail\": " + JSONText.quote(detail)) }
            if let url = entity.url { members.append("\"url\": " + JSONText.quote(url)) }
            text += "{" + members.joined(separator: ", ") + "}" + (index + 1 < entities.count ? ",\n" : "\n")
        }
        return text + "]\n"
    }
}
