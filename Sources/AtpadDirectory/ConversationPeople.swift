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

    /// The participants matching `query`, ranked as the directory ranks (nil while they
    /// have not arrived).
    public func rankedParticipants(_ query: String) -> [Candidate]? {
        guard let list = people.people else { return nil }
        let (directory, roles) = known.participants(list, directory: Self.index(of: source))
        return directory.rank(query).prefix(limit).map { candidate in
            var marked = candidate
            marked.roles = roles[candidate.entity.id] ?? []
            return marked
        }
    }

    /// `results` (the wrapped source's) after `first`, without the people in `first`, and
    /// with any other participant among them marked.
    private func rest(_ results: [Candidate], after first: [Candidate], roles: [String: [String]]) -> [Candidate] {
        let ids = Set(first.map(\.entity.id))
        return results.compactMap { candidate in
            guard !ids.contains(candidate.entity.id) else { return nil }
            var marked = candidate
            if let roles = roles[candidate.entity.id] { marked.roles = roles }
            return marked
        }
    }

    private var roles: [String: [String]] {
        guard let list = people.people else { return [:] }
        return known.participants(list, directory: Self.index(of: source)).roles
    }

    public func answerNow(_ query: String) -> [Candidate]? {
        guard let results = instant?.answerNow(query) else { return nil }
        guard let first = rankedParticipants(query) else { return results }
        return first + rest(results, after: first, roles: roles)
    }

    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = source
        let wrapper = self
        return AsyncThrowingStream { continuation in
            let work = Task {
                // A directory still loading is waited for first (its query would wait
                // anyway): the participants it knows are then shown as it has them.
                await Self.loading(of: source)?.waitUntilLoaded()
                let first = wrapper.rankedParticipants(query) ?? []
                let roles = wrapper.roles
                if !first.isEmpty { continuation.yield(first) }
                do {
                    for try await batch in source.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        let more = wrapper.rest(batch, after: first, roles: roles)
                        if !more.isEmpty || first.isEmpty { continuation.yield(more) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
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
    static func index(of source: any EntitySource) -> DirectoryIndex? {
        switch source {
        case let files as FileDirectory: files.index
        case let loading as LoadingDirectory: loading.instantNow.flatMap { $0 as? FileDirectory }?.index
        case let merged as MergedSource: index(of: merged.files)
        default: nil
        }
    }
}

/// The participants as the directory knows them, worked out once per list and directory
/// (a directory still loading is asked again later): each participant the directory has
/// (by id, else by handle) becomes the directory's entity; the others stay as the
/// service described them.
final class KnownPeople: Sendable {
    private struct Made {
        var list: [Participant]
        var withDirectory: Bool
        var directory: FileDirectory
        var roles: [String: [String]]
    }

    private let made = Mutex<Made?>(nil)

    func participants(_ list: [Participant], directory: DirectoryIndex?) -> (FileDirectory, roles: [String: [String]]) {
        // The list never changes once it has arrived (its count guards against reuse):
        // comparing it whole would cost a large channel's members at every keystroke.
        if let done = made.withLock({ made in made.flatMap { $0.list.count == list.count && ($0.withDirectory || directory == nil) ? $0 : nil } }) {
            return (done.directory, done.roles)
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
        for person in list {
            let entity = byID[person.entity.id] ?? person.entity.handle.flatMap { byHandle[$0.lowercased()] } ?? person.entity
            guard roles[entity.id] == nil else {
                roles[entity.id]! += person.roles.filter { !roles[entity.id]!.contains($0) }
                continue
            }
            entities.append(entity)
            roles[entity.id] = person.roles
        }
        let result = Made(list: list, withDirectory: directory != nil,
                          directory: FileDirectory(entities: entities, limit: max(entities.count, 1)), roles: roles)
        made.withLock { $0 = result }
        return (result.directory, result.roles)
    }
}
