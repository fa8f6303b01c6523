import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc
import Synchronization

/// A list-only service made instant (`cache` in docs/directories.md): the source is asked
/// once, with an empty query, for its whole list, which is kept in a file and ranked
/// locally like a directory file (frecency included).
///
/// The file is `lists/<hash of the source's settings>.json` in the cache folder
/// (`$XDG_CACHE_HOME/atpad/`), an entity array written atomically and readable by its
/// owner only; it never holds a header. The first query with no file fetches the list and
/// waits for it. A list older than `maxAge` is refreshed in the background while the old
/// one keeps answering — or, with `refreshBeforeAnswering` (`atpad search`, being one
/// shot), before the answer. A failed refresh keeps the last good list and says so once
/// through ``SourceNotes``; a failed first fetch is the query's error. A fetch follows
/// every page up to ``maximumItems`` within ``fetchTimeout``, and says when it stopped short.
///
/// The list is kept in the on-disk index too (``IndexCache``), so a large one is
/// mapped at the next start rather than parsed; and once in memory, a keystroke is
/// answered at once, on the caller's thread (``InstantSource``).
///
/// With a ``listLimit`` (the github and gitlab presets: ``defaultListLimit``), a list longer
/// than it is not kept: the source is asked per query instead, as it would be without a
/// cache, and a marker file says so until the list would be stale.
public struct CachedSource: EntitySource, InstantSource {
    /// The most entities one fetch keeps.
    public static let maximumItems = 100_000
    /// How long one fetch may take, pages included.
    public static let fetchTimeout: Duration = .seconds(60)
    /// The list limit of the presets that can fall back to per-query calls.

    let source: any ListSource
    /// The age after which the list is refreshed.
    public let maxAge: Duration
    /// The cache file.
    public let path: String
    public let limit: Int
    public let frecency: @Sendable () -> [String: Double]
    public let notes: SourceNotes?
    public let refreshesBeforeAnswering: Bool
    /// The most entities the list may have; a longer list is asked per query instead.
    public let listLimit: Int?
    /// Where the list's index is kept (docs/directories.md); nil: the list file is parsed
    /// at each start.
    public let indexCache: IndexCache?
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
            /// When the list was found longer than the limit: queries go to the source
            /// until that is stale.
            var tooLarge: Date?
        }
        let value = Mutex(Value())
    }

    /// A cached command source.
    public init(command: CommandSource, maxAge: Duration, cacheFolder: String, limit: Int = SourceDefaults.limit,
                frecency: @escaping @Sendable () -> [String: Double] = { [:] }, notes: SourceNotes? = nil,
                refreshesBeforeAnswering: Bool = false, listLimit: Int? = nil, indexCache: IndexCache? = nil) {
        self.init(list: command, maxAge: maxAge, cacheFolder: cacheFolder, limit: limit, frecency: frecency, notes: notes,
                  refreshesBeforeAnswering: refreshesBeforeAnswering, timeout: Self.fetchTimeout, listLimit: listLimit,
                  indexCache: indexCache)
    }

    /// A cached URL source.
    public init(url: URLSource, maxAge: Duration, cacheFolder: String, limit: Int = SourceDefaults.limit,
                frecency: @escaping @Sendable () -> [String: Double] = { [:] }, notes: SourceNotes? = nil,
                refreshesBeforeAnswering: Bool = false, listLimit: Int? = nil, indexCache: IndexCache? = nil) {
        self.init(list: url, maxAge: maxAge, cacheFolder: cacheFolder, limit: limit, frecency: frecency, notes: notes,
                  refreshesBeforeAnswering: refreshesBeforeAnswering, timeout: Self.fetchTimeout, listLimit: listLimit,
                  indexCache: indexCache)
    }

    init(list: any ListSource, maxAge: Duration, cacheFolder: String, limit: Int,
         frecency: @escaping @Sendable () -> [String: Double], notes: SourceNotes?, refreshesBeforeAnswering: Bool,
         timeout: Duration, listLimit: Int? = nil, indexCache: IndexCache? = nil) {
        source = list
        self.maxAge = maxAge
        path = cacheFolder + "/lists/" + Self.fileName(list.listKey)
        self.limit = limit
        self.frecency = frecency
        self.notes = notes
        self.refreshesBeforeAnswering = refreshesBeforeAnswering
        self.timeout = timeout
        self.listLimit = listLimit
        self.indexCache = indexCache
        state = SharedState()
    }

    /// The marker file that says the list is longer than ``listLimit``.
    var tooLargePath: String { String(path.dropLast(".json".count)) + ".too-large" }

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

    /// Ranks the cached list for `query` (fetching it first when there is none); a list
    /// longer than ``listLimit`` passes the query to the source.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        if asksPerQuery() { return source.search(query, trigger: trigger) }
        let cached = self
        let ranked = answerOnWorkerThread(named: "atpad cached list") { cancellation, yield in
            guard let directory = try cached.directory(cancellation: cancellation) else { return }
            yield(directory.rank(query))
        }
        guard listLimit != nil else { return ranked }
        // The first fetch may find the list too long: then the source answers after all.
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await batch in ranked { continuation.yield(batch) }
                    if cached.asksPerQuery() {
                        for try await batch in cached.source.search(query, trigger: trigger) { continuation.yield(batch) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The answer at once when the list is in memory (a stale one starts its refresh);
    /// nil before that, and when the source is asked per query.
    public func answerNow(_ query: String) -> [Candidate]? {
        let (directory, fetched, tooLarge) = state.value.withLock { ($0.directory, $0.fetched, $0.tooLarge) }
        guard tooLarge == nil, let directory, let fetched else { return nil }
        if isStale(fetched) {
            // `atpad search` refreshes before answering, on its worker thread.
            if refreshesBeforeAnswering { return nil }
            refreshInBackground(fetched: fetched)
        }
        return directory.rank(query)
    }

    /// Reads the kept list into memory on a thread of its own (the editor, at start), so
    /// that the first keystroke is answered at once too; a stale one then starts its
    /// refresh. Fetches nothing when there is no list yet: the first query does.
    public func preload() {
        guard state.value.withLock({ $0.directory == nil }), !asksPerQuery() else { return }
        let source = self
        BackgroundThread.start(name: "atpad cached list load") {
            guard let (directory, fetched) = source.readFile() else { return }
            let stored = source.state.value.withLock { value -> Bool in
                guard value.directory == nil else { return false }
                (value.directory, value.fetched) = (directory, fetched)
                return true
            }
            if stored, source.isStale(fetched), !source.refreshesBeforeAnswering { source.refreshInBackground(fetched: fetched) }
        }
    }

    /// Whether the list was found longer than ``listLimit`` (now or, per the marker file,
    /// at a fetch that is not stale yet): queries then go to the source.
    func asksPerQuery() -> Bool {
        guard listLimit != nil else { return false }
        if let since = state.value.withLock({ $0.tooLarge }) {
            if !isStale(since) { return true }
            state.value.withLock { $0.tooLarge = nil }
            return false
        }
        var info = stat()
        guard stat(tooLargePath, &info) == 0 else { return false }
        let since = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
        guard !isStale(since) else { return false }
        state.value.withLock { $0.tooLarge = since }
        return true
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
            // The file was a list too long for the limit: the source answers instead.
            if state.value.withLock({ $0.tooLarge != nil }) { return nil }
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
        BackgroundThread.start(name: "atpad cache refresh") {
            defer { source.state.value.withLock { $0.refreshing = false } }
            guard let cancellation = try? Cancellation() else { return }
            do throws(SourceError) {
                _ = try source.refresh(cancellation: cancellation)
            } catch {
                source.state.value.withLock { $0.failed = Date() }
                source.sayRefreshFailed(error, fetched: fetched)
            }
        }
    }

    private func sayRefreshFailed(_ error: SourceError, fetched: Date) {
        let minutes = max(0, Int(Date().timeIntervalSince(fetched) / 60))
        notes?.say("could not refresh the cached list (\(error.message)); still using the one from \(minutes) min ago")
    }

    /// Fetches the whole list, keeps it in memory and in the file; nil when cancelled.
    @discardableResult
    func refresh(cancellation: Cancellation) throws(SourceError) -> FileDirectory? {
        // One more than the limit tells a list that is too long without reading all of it.
        let items = listLimit.map { min($0 + 1, Self.maximumItems) } ?? Self.maximumItems
        let answer = try source.list(items: items, timeout: timeout, cancellation: cancellation)
        guard !cancellation.isCancelled else { return nil }
        let now = Date()
        if let listLimit, answer.entities.count > listLimit {
            markTooLarge(now)
            return nil
        }
        if let short = answer.stoppedShort { notes?.say("the cached list is not complete: \(short)") }
        let directory = FileDirectory(entities: answer.entities, limit: limit, frecency: frecency)
        unlink(tooLargePath)
        // In memory first: a query from now on finds the new list, whatever the file does.
        state.value.withLock { value in
            value.directory = directory
            value.fetched = now
            value.failed = nil
            value.tooLarge = nil
        }
        do {
            try AtomicFile.write(Array(Self.json(directory.entities).utf8), to: path)
            // The index of the file, written now for the next start
            // (docs/directories.md, "Big directories: the index cache").
            if let indexCache, let merged = try? DirectoryLoader.load(paths: [path], cache: indexCache) {
                merged.writeIndex()
            }
        } catch {
            notes?.say("could not keep the cached list: \(error.message)")
        }
        return directory
    }

    /// Records that the list is longer than ``listLimit``: in memory and in the marker file
    /// (the list file goes), so that queries go to the source until that is stale.
    private func markTooLarge(_ now: Date) {
        guard let listLimit else { return }
        state.value.withLock { value in
            value.tooLarge = now
            value.directory = nil
            value.fetched = nil
        }
        unlink(path)
        do {
            try AtomicFile.write(Array("more than \(listLimit) entries\n".utf8), to: tooLargePath)
        } catch {
            notes?.say("could not keep the cached list's size: \(error.message)")
        }
        notes?.say("the list has more than \(listLimit) people: asking the source at each keystroke instead")
    }

    /// The list in the file and when it was written; nil when there is none or it cannot be
    /// read. Through the index cache: mapped when its index is current, else parsed and
    /// indexed for the next time.
    private func readFile() -> (directory: FileDirectory, fetched: Date)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard let merged = try? DirectoryLoader.load(paths: [path], cache: indexCache) else { return nil }
        // Kept before the limit was lowered: too long now, so the source is asked per query.
        if let listLimit, merged.index.count > listLimit {
            markTooLarge(Date())
            return nil
        }
        if merged.needsIndexWrite { merged.writeIndex() }
        let fetched = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        return (FileDirectory(merged, limit: limit, frecency: frecency), fetched)
    }

    /// Entities as a JSON array in atpad's own shape, one entity a line.
    static func json(_ entities: [Entity]) -> String {
        let items = entities.map { entity -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [("id", .string(entity.id)), ("name", .string(entity.name))]
            let optional = [("handle", entity.handle), ("detail", entity.detail), ("url", entity.url), ("email", entity.email)]
            for case let (key, value?) in optional { members.append((key, .string(value))) }
            if !entity.accounts.isEmpty {
                members.append(("accounts", .object(entity.accounts.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .string($0.value)) })))
            }
            return .object(members)
        }
        return JSONWriter.text(.array(items), layout: .lines(depth: 1, indent: 0)) + "\n"
    }
}
