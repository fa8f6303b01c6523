import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The participants of the conversation a comment is posted to, fetched once on a
/// thread of their own when atpad starts (`--to`) and put into the ``ParticipantList``
/// that ranks them first: until they arrive, and if the fetch fails, searches rank as
/// they would without them. The runtime waits on it to say once how it went.
public final class ConversationPeople: Sendable {
    public enum State: Equatable, Sendable {
        case fetching
        case ready([Participant])
        case failed(String)
    }

    private let state = Mutex<(state: State, waiting: [CheckedContinuation<Void, Never>])>((.fetching, []))

    /// What naming the people a service gave by id alone found: them, named, and one line
    /// when some could not be named.
    public typealias Naming = (named: [ConversationMember], failure: PostError?)

    /// Starts `fetch` on a new thread at once. Its people, as `directory` (the trigger's
    /// source: a directory file, a cached list) knows them (``SamePerson``, on `service`),
    /// go into `list` before the state says they are ready; a directory still loading is
    /// waited for first. Those it does not know whom the service gave by id alone
    /// (Slack's `U0123`) are looked for in a cached list not fetched yet (the `slack`
    /// preset's), then named by `name`; one that still has no name is ranked only where
    /// the source names them (``ParticipantRanking``), never shown as an id.
    public init(list: ParticipantList, directory source: any EntitySource, service: Service,
                fetch: @escaping @Sendable () -> Result<[ConversationMember], PostError>,
                name: @escaping @Sendable ([String]) -> Naming = { _ in ([], nil) }) {
        BackgroundThread.start(name: "atpad participants") { [self] in
            switch fetch() {
            case let .success(members):
                Task {
                    await Self.loading(of: source)?.waitUntilLoaded()
                    let known = Self.directory(of: source)
                    let people = Self.resolved(members, in: known, on: service)
                    list.set(people)
                    guard people.contains(where: { ParticipantsFirstSource.isIDOnly($0.entity) }) else {
                        self.finish(.ready(people))
                        return
                    }
                    // Naming may take a call a person: the others rank first meanwhile.
                    BackgroundThread.start(name: "atpad participants' names") {
                        var people = people
                        if known == nil, let late = Self.fetchedDirectory(of: source) {
                            people = Self.resolved(people.map { ConversationMember(entity: $0.entity, roles: [$0.role]) },
                                                   in: late, on: service)
                        }
                        let unnamed = people.filter { ParticipantsFirstSource.isIDOnly($0.entity) }.map(\.entity.id)
                        let naming: Naming = unnamed.isEmpty ? ([], nil) : name(unnamed)
                        people = Self.named(people, by: naming.named)
                        list.set(people)
                        self.finish(naming.failure.map { .failed($0.message) } ?? .ready(people))
                    }
                }
            case let .failure(error):
                finish(.failed(error.message))
            }
        }
    }

    /// `people` with those given by id alone named from `names` (same id).
    static func named(_ people: [Participant], by names: [ConversationMember]) -> [Participant] {
        let byID = Dictionary(names.map { ($0.entity.id, $0.entity) }, uniquingKeysWith: { first, _ in first })
        return people.map { person in
            guard ParticipantsFirstSource.isIDOnly(person.entity), let entity = byID[person.entity.id] else { return person }
            return Participant(entity: entity, role: person.role)
        }
    }

    /// The directory behind `source`, fetching a cached list (a preset's) that nothing has
    /// asked for yet. Blocks: for the naming thread only.
    static func fetchedDirectory(of source: any EntitySource) -> FileDirectory? {
        switch source {
        case let cached as CachedSource:
            guard cached.loadedDirectory == nil, let cancellation = try? Cancellation() else { return cached.loadedDirectory }
            return (try? cached.directory(cancellation: cancellation)) ?? nil
        case let merged as MergedSource:
            return fetchedDirectory(of: merged.files) ?? fetchedDirectory(of: merged.source)
        default:
            return directory(of: source)
        }
    }

    public var current: State { state.withLock { $0.state } }

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
                             environment: [String: String]) -> Result<[ConversationMember], PostError> {
        var people: [ConversationMember] = []
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
        return .success(ConversationMember.merged(people))
    }

    /// Names the people with `ids` through `request`'s naming calls (Slack's
    /// `users.info`), each within `timeout`; those that fail are left unnamed, and the
    /// first failure is said.
    public static func name(_ ids: [String], through request: ParticipantsRequest, timeout: Duration,
                            environment: [String: String]) -> Naming {
        var named: [ConversationMember] = []
        var failure: PostError?
        let calls = request.namingCalls(for: ids)
        for call in calls {
            let reply = PostTransport.perform(call.action, timeout: timeout, environment: environment)
            switch request.read(reply, of: call) {
            case let .success(page): named += page.participants
            case let .failure(error): failure = failure ?? error
            }
        }
        if ids.count > calls.count, failure == nil {
            failure = PostError(.failed, "participants of \(request.target): \(ids.count - calls.count) more than "
                                + "\(ParticipantsRequest.maximumNamed) not named")
        }
        return (named, failure)
    }

    /// `members` as `directory` knows them: each one it has (``SamePerson``: an account on
    /// `service`, the same id, the same handle) is its entry; the others stay as the
    /// service described them. Roles of one person are joined (`author, reviewer`).
    public static func resolved(_ members: [ConversationMember], in directory: FileDirectory?,
                                on service: Service) -> [Participant] {
        var entries = [Entity?](repeating: nil, count: members.count)
        if let index = directory?.index {
            // Most directories give the service's ids as theirs: found without reading
            // every entry. Anyone left is looked for in a pass over all of them.
            let positions = index.positions(ofIDs: Set(members.map(\.entity.id)))
            for (i, member) in members.enumerated() {
                entries[i] = positions[member.entity.id].map(index.entity(at:))
            }
            if entries.contains(where: { $0 == nil }) {
                let rule = SamePerson(members.map(\.entity), on: service)
                let found = rule.resolve((0 ..< index.count).lazy.map(index.entity(at:)), count: members.count)
                for i in entries.indices where found[i] != nil { entries[i] = found[i] }
            }
        }
        var order: [String] = []
        var shown: [String: (entity: Entity, roles: [String])] = [:]
        for (member, entry) in zip(members, entries) {
            let entity = entry ?? member.entity
            if var known = shown[entity.id] {
                known.roles += member.roles.filter { !known.roles.contains($0) }
                shown[entity.id] = known
            } else {
                order.append(entity.id)
                shown[entity.id] = (entity, member.roles)
            }
        }
        return order.compactMap { id in shown[id].map { Participant(entity: $0.entity, role: $0.roles.joined(separator: ", ")) } }
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
