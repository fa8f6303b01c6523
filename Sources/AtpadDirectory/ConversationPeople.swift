import AtpadCore
import Foundation
import Synchronization

/// The participants of the conversation a comment is posted to, fetched once on a
/// thread of their own when atpad starts (`--to`): until they arrive, and if the fetch
/// fails, searches rank as they would without them. Shared by the `@` source that ranks
/// them first (``ParticipantsSource``) and the runtime, which says once how it went.
public final class ConversationPeople: Sendable {
    public enum State: Equatable, Sendable {
        case fetching
        case ready([Participant])
        case failed(String)
    }

    private let state = Mutex<(state: State, waiting: [CheckedContinuation<Void, Never>])>((.fetching, []))

    /// People already known (tests, or an answer had some other way).
    public init(ready people: [Participant]) {
        state.withLock { $0.state = .ready(Participant.merged(people)) }
    }

    /// Starts `fetch` on a new thread at once; its answer (people or one line saying why
    /// not) becomes the state.
    public init(fetch: @escaping @Sendable () -> Result<[Participant], PostError>) {
        let thread = Thread { [self] in
            switch fetch() {
            case let .success(people): finish(.ready(Participant.merged(people)))
            case let .failure(error): finish(.failed(error.message))
            }
        }
        thread.name = "atpad participants"
        thread.start()
    }

    public var current: State { state.withLock { $0.state } }

    /// The participants, once they have arrived (nil while fetching or after a failure).
    public var people: [Participant]? {
        if case let .ready(people) = current { return people }
        return nil
    }

    /// Waits (off any thread that matters) until the fetch has ended.
    public func waitUntilFetched() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                guard state.state == .fetching else { return true }
                state.waiting.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func finish(_ outcome: State) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.state = outcome
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The most pages one call follows (Slack's cursors): a channel of 20,000 members is
    /// 100 pages of 200, more than a chooser needs.
    public static let maximumPages = 100

    /// Performs every call of `request` (and the pages they point to), each within
    /// `timeout`, and reads their answers. Blocks the calling thread; the first call that
    /// fails is the answer.
    public static func fetch(_ request: ParticipantsRequest, timeout: Duration,
                             environment: [String: String]) -> Result<[Participant], PostError> {
        var people: [Participant] = []
        for first in request.calls {
            var call: ParticipantsRequest.Call? = first
            var pages = 0
            while let current = call, pages < maximumPages {
                let reply = PostTransport.perform(current.action, timeout: timeout, environment: environment)
                switch request.read(reply, of: current) {
                case let .success(page):
                    people += page.participants
                    call = page.next
                case let .failure(error):
                    return .failure(error)
                }
                pages += 1
            }
        }
        return .success(Participant.merged(people))
    }
}

/// A trigger's source with the conversation's participants ranked first: every
/// participant that matches the query comes before every result that is not a
/// participant (an empty query lists them all), marked with their roles. A participant
/// the directory knows is shown as the directory has them; one it does not know, as the
/// service described them. Until the participants arrive, or when they could not be
/// had, the source answers as the one it wraps.
public struct ParticipantsSource: EntitySource, InstantSource {
    public let source: any EntitySource
    public let people: ConversationPeople
    /// The most participants a query lists.
    public let limit: Int
    private let instant: (any InstantSource)?
    private let known = KnownPeople()

    public init(_ source: any EntitySource, people: ConversationPeople, limit: Int) {
        self.source = source
        self.people = people
        self.limit = limit
        instant = source as? any InstantSource
    }

    /// The participants as the directory in memory knows them (nil while they have not arrived).
    private var participants: KnownPeople.Made? {
        people.people.map { known.participants($0, directory: Self.directory(of: source)) }
    }

    /// The participants matching `query`, ranked as the directory ranks, marked.
    private func ranked(_ query: String, _ made: KnownPeople.Made) -> [Candidate] {
        made.directory.rank(query).prefix(limit).map { candidate in
            var marked = candidate
            marked.roles = made.roles[candidate.entity.id] ?? []
            return marked
        }
    }

    /// `results` (the wrapped source's) without the ids in `shown`: the participants
    /// among them first (marked), then the others in their order.
    private static func rest(_ results: [Candidate], shown: Set<String>, _ made: KnownPeople.Made) -> (participants: [Candidate], others: [Candidate]) {
        var participants: [Candidate] = [], others: [Candidate] = []
        var seen = shown
        for candidate in results where seen.insert(candidate.entity.id).inserted {
            if let roles = made.roles(of: candidate.entity) {
                var marked = candidate
                marked.roles = roles
                participants.append(marked)
            } else {
                others.append(candidate)
            }
        }
        return (participants, others)
    }

    public func answerNow(_ query: String) -> [Candidate]? {
        guard let results = instant?.answerNow(query) else { return nil }
        guard let made = participants else { return results }
        let first = ranked(query, made)
        let (more, others) = Self.rest(results, shown: Set(first.map(\.entity.id)), made)
        return first + more + others
    }

    /// Answers in two batches: the participants the directory in memory ranks (at once),
    /// then, once the wrapped source has answered in full, the participants only it
    /// named (a Slack id it has a name for), then everyone else. A source that is not in
    /// memory may know people the service named by id alone: those wait for its answer.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = source
        let wrapper = self
        return AsyncThrowingStream { continuation in
            let work = Task {
                // A directory still loading is waited for first (its query would wait
                // anyway): the participants it knows are then shown as it has them.
                await Self.loading(of: source)?.waitUntilLoaded()
                guard let made = wrapper.participants else {
                    do {
                        for try await batch in source.search(query, trigger: trigger) {
                            if Task.isCancelled { break }
                            continuation.yield(batch)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                    return
                }
                let ranked = wrapper.ranked(query, made)
                let waits = wrapper.instant == nil
                let first = ranked.filter { !(waits && made.thin.contains($0.entity.id)) }
                let thin = ranked.filter { waits && made.thin.contains($0.entity.id) }
                if !first.isEmpty { continuation.yield(first) }
                var results: [Candidate] = []
                var failure: (any Error)?
                do {
                    for try await batch in source.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        results += batch
                    }
                } catch {
                    failure = error
                }
                var (more, others) = Self.rest(results, shown: Set(first.map(\.entity.id)), made)
                let named = Set(more.map(\.entity.id))
                more += thin.filter { !named.contains($0.entity.id) }
                if !(more + others).isEmpty || first.isEmpty { continuation.yield(more + others) }
                if let failure { continuation.finish(throwing: failure) } else { continuation.finish() }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// The directory behind `source` that is loading on a thread of its own, if any.
    static func loading(of source: any EntitySource) -> LoadingDirectory? {
        switch source {
        case let loading as LoadingDirectory: loading
        case let merged as MergedSource: loading(of: merged.files)
        default: nil
        }
    }

    /// The in-memory directory behind `source`, when it has one (loaded already).
    static func directory(of source: any EntitySource) -> FileDirectory? {
        switch source {
        case let files as FileDirectory: files
        case let loading as LoadingDirectory: loading.instantNow as? FileDirectory
        case let cached as CachedSource: cached.loadedDirectory
        case let merged as MergedSource: directory(of: merged.files) ?? directory(of: merged.source)
        default: nil
        }
    }
}

/// The participants as the directory knows them, worked out once per list and directory
/// (a directory still loading is asked again later): each participant the directory has
/// (by id, else by handle) becomes the directory's entity; the others stay as the
/// service described them.
final class KnownPeople: Sendable {
    struct Made: Sendable {
        var count: Int
        var withDirectory: Bool
        /// The participants as shown, to rank them.
        var directory: FileDirectory
        /// Their roles, by the id shown.
        var roles: [String: [String]]
        /// The id shown for each id and (lower-cased) handle the service gave.
        var shownID: [String: String]
        var shownHandle: [String: String]
        /// The ids of participants the directory lacks and the service named by id alone
        /// (no name, no handle: Slack's user ids).
        var thin: Set<String>

        /// The roles of `entity` when it is a participant: by its id, or by the service's
        /// id or handle for it.
        func roles(of entity: Entity) -> [String]? {
            if let roles = roles[entity.id] { return roles }
            if let id = shownID[entity.id] { return roles[id] }
            if let handle = entity.handle?.lowercased(), let id = shownHandle[handle] { return roles[id] }
            return nil
        }
    }

    private let made = Mutex<Made?>(nil)

    /// The participants of `list` as `files` (the directory in memory, if any) knows
    /// them, ranked with its frecency.
    func participants(_ list: [Participant], directory files: FileDirectory?) -> Made {
        let directory = files?.index
        // The list never changes once it has arrived (its count guards against reuse):
        // comparing it whole would cost a large channel's members at every keystroke.
        if let done = made.withLock({ made in made.flatMap { $0.count == list.count && ($0.withDirectory || directory == nil) ? $0 : nil } }) {
            return done
        }
        var entities: [Entity] = []
        var roles: [String: [String]] = [:]
        var byID: [String: Entity] = [:]
        var byHandle: [String: Entity] = [:]
        if let directory {
            for (_, position) in directory.positions(ofIDs: Set(list.map(\.entity.id))) {
                let entity = directory.entity(at: position)
                byID[entity.id] = entity
            }
            let handles = Set(list.compactMap { $0.entity.handle?.lowercased() })
            if !handles.isEmpty, byID.count < list.count {
                for entity in directory.entities {
                    if let handle = entity.handle?.lowercased(), handles.contains(handle), byHandle[handle] == nil {
                        byHandle[handle] = entity
                    }
                }
            }
        }
        var shownID: [String: String] = [:], shownHandle: [String: String] = [:]
        var thin: Set<String> = []
        for person in list {
            let known = byID[person.entity.id] ?? person.entity.handle.flatMap { byHandle[$0.lowercased()] }
            let entity = known ?? person.entity
            shownID[person.entity.id] = entity.id
            if let handle = person.entity.handle?.lowercased() { shownHandle[handle] = entity.id }
            if known == nil, entity.name == entity.id, entity.handle == nil { thin.insert(entity.id) }
            guard roles[entity.id] == nil else {
                roles[entity.id]! += person.roles.filter { !roles[entity.id]!.contains($0) }
                continue
            }
            entities.append(entity)
            roles[entity.id] = person.roles
        }
        let none: @Sendable () -> [String: Double] = { [:] }
        let frecency = files?.frecency ?? none
        let result = Made(count: list.count, withDirectory: directory != nil,
                          directory: FileDirectory(entities: entities, limit: max(entities.count, 1), frecency: frecency),
                          roles: roles,
                          shownID: shownID, shownHandle: shownHandle, thin: thin)
        made.withLock { $0 = result }
        return result
    }
}
