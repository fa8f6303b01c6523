import AtpadCore
import Synchronization

/// A person in the conversation a comment answers
/// (docs/posting.md, "Participants: the conversation's people first"): who the service says
/// they are, and their part in it.
public struct Participant: Sendable, Equatable {
    /// The person, as the service describes them (or as the directory does, when the
    /// caller found them there): a participant the directory does not know is still one.
    public var entity: Entity
    /// `author`, `reviewer`, `assignee`, `commenter`, … as the service names the part.
    public var role: String

    public init(entity: Entity, role: String) {
        self.entity = entity
        self.role = role
    }
}

/// The conversation's people, filled in when they arrive (they are fetched in the
/// background while the editor is already answering), shared by every copy of the
/// source that ranks them first.
public final class ParticipantList: Sendable {
    /// The participants ready for ranking, and each id's role.
    private let state = Mutex<(directory: FileDirectory, roles: [String: String])?>(nil)
    private let limit: Int

    public init(limit: Int = SourceDefaults.limit) {
        self.limit = limit
    }

    /// Sets the participants (the first of several with one id is kept), ranked from now on.
    public func set(_ participants: [Participant]) {
        var roles: [String: String] = [:]
        for p in participants where roles[p.entity.id] == nil { roles[p.entity.id] = p.role }
        let directory = FileDirectory(entities: participants.map(\.entity), limit: limit)
        state.withLock { $0 = participants.isEmpty ? nil : (directory, roles) }
    }

    /// The role of the participant with `id`; nil for anyone else.
    public func role(of id: String) -> String? {
        state.withLock { $0?.roles[id] }
    }

    /// The participants matching `query`, ranked as a directory file ranks
    /// (docs/directories.md, "Ranking and frecency"), each marked with their role; empty
    /// before the participants are known.
    public func rank(_ query: String) -> [Candidate] {
        guard let (directory, roles) = state.withLock({ $0 }) else { return [] }
        return directory.rank(query).map { c in
            var marked = c
            marked.participantRole = roles[c.entity.id]
            return marked
        }
    }
}

/// The ranking of docs/posting.md, "Participants: the conversation's people first": every
/// participant that matches the query above everyone else who matches it. `participants`
/// are the matching participants in their own ranked order; `others` the directory's
/// answer, in which `role` finds the participants too (one whose directory entry matches
/// when what the service says of them does not), moved up after them and marked. A
/// participant the directory also lists appears once, with the directory's entity (which
/// may know more, such as an email); one known by id alone (a Slack member nobody could
/// name) appears only so. At most `limit` results.
public enum ParticipantRanking {
    public static func merge(participants: [Candidate], others: [Candidate], role: (String) -> String?,
                             limit: Int) -> [Candidate] {
        let known = Dictionary(others.map { ($0.entity.id, $0.entity) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var result: [Candidate] = []
        for p in participants where seen.insert(p.entity.id).inserted {
            var marked = p
            if let entity = known[p.entity.id] {
                marked.entity = entity
            } else if ParticipantsFirstSource.isIDOnly(p.entity) {
                // Never shown as an id: only where the source names them.
                continue
            }
            result.append(marked)
        }
        var rest: [Candidate] = []
        for c in others where seen.insert(c.entity.id).inserted {
            if let role = role(c.entity.id) {
                var marked = c
                marked.participantRole = role
                result.append(marked)
            } else {
                rest.append(c)
            }
        }
        return Array((result + rest).prefix(limit))
    }
}

/// A trigger's source with the conversation's participants ranked first
/// (docs/posting.md, "Participants: the conversation's people first"): the first batch is
/// the matching participants (an empty query lists them all), then the source's batches
/// without them. In memory (``InstantSource``) when the source is: then the whole answer is
/// ``ParticipantRanking``'s. A command or URL answers later: its whole answer is merged the
/// same way, so a participant found only there still goes first.
public struct ParticipantsFirstSource: EntitySource, InstantSource {
    public let participants: ParticipantList
    public let source: any EntitySource

    public init(participants: ParticipantList, source: any EntitySource) {
        self.participants = participants
        self.source = source
    }

    public func answerNow(_ query: String) -> [Candidate]? {
        guard let instant = source as? any InstantSource, let others = instant.answerNow(query) else { return nil }
        let list = participants
        return ParticipantRanking.merge(participants: list.rank(query), others: others, role: list.role(of:), limit: .max)
    }

    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let ranked = participants.rank(query)
        // One the service named by id alone (Slack's `U0123`) may be known to the source
        // by name: it waits for the source's answer rather than show as its id.
        let first = ranked.filter { !Self.isIDOnly($0.entity) }
        let source = source
        let list = participants
        return AsyncThrowingStream { continuation in
            let work = Task {
                if !first.isEmpty { continuation.yield(first) }
                // The source's answer whole, then merged: a participant found only there
                // still goes before everyone else (after the ones shown already).
                var others: [Candidate] = []
                var failure: (any Error)?
                do {
                    for try await batch in source.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        others += batch
                    }
                } catch {
                    failure = error
                }
                let shown = Set(first.map(\.entity.id))
                let rest = ParticipantRanking.merge(participants: ranked, others: others, role: list.role(of:), limit: .max)
                    .filter { !shown.contains($0.entity.id) }
                if !rest.isEmpty || first.isEmpty { continuation.yield(rest) }
                if let failure { continuation.finish(throwing: failure) } else { continuation.finish() }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// A participant the service named by id alone: no name but the id, no handle.
    static func isIDOnly(_ entity: Entity) -> Bool {
        entity.name == entity.id && entity.handle == nil
    }
}
