import AtpadCore
import AtpadTestSupport
import Testing
@testable import AtpadDirectory

/// Participants first (docs/posting.md, "Participants: the conversation's people first"),
/// the part that needs no posting target: a ranking input (`ParticipantList`) that later
/// code fills from the conversation, and the order it gives.
@Suite struct ParticipantsTests {
    static let directory = FileDirectory(entities: [
        Entity(id: "u1", name: "John Doe", handle: "jdoe", email: "john@example.com"),
        Entity(id: "u2", name: "Joan Roe", handle: "jroe"),
        Entity(id: "u3", name: "Jo Ng", handle: "jng"),
        Entity(id: "u4", name: "Ann Lee", handle: "annl"),
    ])

    static func list(_ participants: [Participant]) -> ParticipantList {
        let list = ParticipantList()
        list.set(participants)
        return list
    }

    @Test func participantsComeFirstMarkedWithTheirRole() async throws {
        // Joan reviews; Ghost commented and is in no directory.
        let list = Self.list([Participant(entity: Entity(id: "u2", name: "Joan Roe", handle: "jroe"), role: "reviewer"),
                              Participant(entity: Entity(id: "g9", name: "Jo Ghost", handle: "ghost"), role: "commenter")])
        let source = ParticipantsFirstSource(participants: list, source: Self.directory)
        let now = try #require(source.answerNow("jo"))
        // `Jo` is a whole name word of Jo Ghost's: first among the participants
        // (docs/directories.md, "Ranking and frecency").
        #expect(now.map(\.entity.id) == ["g9", "u2", "u3", "u1"])
        #expect(now.map(\.participantRole) == ["commenter", "reviewer", nil, nil])
        #expect(await answer(source, "jo").ids == ["g9", "u2", "u3", "u1"])
        // An empty query lists the participants first, then everyone else.
        #expect(try #require(source.answerNow("")).map(\.entity.id) == ["u2", "g9", "u1", "u3", "u4"])
        // A participant who does not match stays out.
        #expect(try #require(source.answerNow("ann")).map(\.entity.id) == ["u4"])
    }

    @Test func beforeTheParticipantsArriveTheOrderIsTheDirectorys() {
        let list = ParticipantList()
        let source = ParticipantsFirstSource(participants: list, source: Self.directory)
        #expect(source.answerNow("jo")?.map(\.entity.id) == Self.directory.rank("jo").map(\.entity.id))
        list.set([Participant(entity: Entity(id: "u1", name: "John Doe"), role: "author")])
        #expect(source.answerNow("jo")?.map(\.entity.id) == ["u1", "u3", "u2"])
        // The directory's entity, which knows more (the email), stands for the participant.
        #expect(source.answerNow("jo")?.first?.entity.email == "john@example.com")
    }

    /// Property: for random directories (duplicate ids now and then), random participants
    /// (some unknown to the directory) and random queries, every matching participant is
    /// ranked above every matching non-participant: first those their own ranking finds,
    /// then those only the directory's entry matches, then the directory's ranking without
    /// them, in its order.
    @Test func everyMatchingParticipantRanksAboveEveryNonParticipant() {
        var rng = SeededRandom(seed: 0x9A27_1C1B)
        for round in 0 ..< 300 {
            let people = IndexCacheTests.people(rng.int(0 ..< 120), using: &rng)
            let directory = FileDirectory(entities: people, limit: 1000)
            var participants: [Participant] = []
            for person in people where rng.chance(0.15) {
                participants.append(Participant(entity: person, role: rng.pick(["author", "reviewer", "assignee"])))
            }
            for extra in 0 ..< rng.int(0 ..< 4) {
                participants.append(Participant(entity: Entity(id: "x\(extra)", name: "Stranger \(rng.pick(["a", "b", "é", "s"]))"),
                                                role: "commenter"))
            }
            let list = ParticipantList(limit: 1000)
            list.set(participants)
            let source = ParticipantsFirstSource(participants: list, source: directory)
            let query = RankingPropertyTests.randomText(["a", "b", "s", "e", " ", "é", "str"], maxLength: 3, using: &rng)
            guard let ranked = source.answerNow(query) else {
                Issue.record("round \(round): no instant answer")
                return
            }
            let ids = Set(participants.map(\.entity.id))
            let firstOther = ranked.firstIndex { !ids.contains($0.entity.id) } ?? ranked.count
            let lastParticipant = ranked.lastIndex { ids.contains($0.entity.id) } ?? -1
            #expect(lastParticipant < firstOther, "round \(round), query \(query)")
            #expect(ranked.allSatisfy { ids.contains($0.entity.id) == ($0.participantRole != nil) })
            let own = FileDirectory(entities: participants.map(\.entity), limit: 1000).rank(query).map(\.entity.id)
            let byDirectory = directory.rank(query).map(\.entity.id)
            let wanted = own + byDirectory.filter { ids.contains($0) && !own.contains($0) }
            #expect(ranked.prefix(firstOther).map(\.entity.id) == wanted, "round \(round), query \(query)")
            let others = byDirectory.filter { !ids.contains($0) }
            #expect(ranked.dropFirst(firstOther).map(\.entity.id) == others, "round \(round), query \(query)")
        }
    }
}
