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

    /// Starts `fetch` on a new thread at once. Its people, as `directory` (the trigger's
    /// source: a directory file, a cached list) knows them, go into `list` before the
    /// state says they are ready; a directory still loading is waited for first.
    public init(list: ParticipantList, directory source: any EntitySource,
                fetch: @escaping @Sendable () -> Result<[ConversationMember], PostError>) {
        BackgroundThread.start(name: "atpad participants") { [self] in
            switch fetch() {
            case let .success(members):
                Task {
                    await Self.loading(of: source)?.waitUntilLoaded()
                    let people = Self.resolved(members, in: Self.directory(of: source))
                    list.set(people)
                    self.finish(.ready(people))
                }
            case let .failure(error):
                finish(.failed(error.message))
            }
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

    /// `members` as `directory` knows them: each one it has (the same id, else the same
    /// handle) is its entry; the others stay as the service described them. Roles of one
    /// person are joined (`author, reviewer`).
    public static func resolved(_ members: [ConversationMember], in directory: FileDirectory?) -> [Participant] {
        var byID: [String: Entity] = [:]
        var byHandle: [String: Entity] = [:]
        if let index = directory?.index {
            for (_, position) in index.positions(ofIDs: Set(members.map(\.entity.id))) {
                let entity = index.entity(at: position)
                byID[entity.id] = entity
            }
            let handles = Set(members.compactMap { $0.entity.handle?.lowercased() })
            if !handles.isEmpty, byID.count < members.count {
                for entity in index.entities {
                    if let handle = entity.handle?.lowercased(), handles.contains(handle), byHandle[handle] == nil {
                        byHandle[handle] = entity
                    }
                }
            }
        }
        var order: [String] = []
        var shown: [String: (entity: Entity, roles: [String])] = [:]
        for member in members {
            let entity = byID[member.entity.id] ?? member.entity.handle.flatMap { byHandle[$0.lowercased()] } ?? member.entity
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
