@testable import AtpadCore
@testable import AtpadDirectory
import AtpadTestSupport
import Foundation
import Testing

/// The conversation's participants as the service names them, resolved against the
/// directory (by id, else handle) and ranked first by ``ParticipantsFirstSource``: every
/// participant that matches a query comes before every result that is not one, over random
/// directories and queries; the others keep the directory's order; one the directory knows
/// is shown as the directory has them, one it does not know as the service said.
@Suite struct ParticipantsRankingTests {
    static func source(_ inner: any EntitySource, _ people: [ConversationMember], directory: FileDirectory?) -> ParticipantsFirstSource {
        let list = ParticipantList(limit: 1000)
        list.set(ConversationPeople.resolved(people, in: directory, on: .github))
        return ParticipantsFirstSource(participants: list, source: inner)
    }

    static let syllables = ["jo", "an", "ma", "ri", "el", "da", "no", "ba", "li", "ka"]

    static func word(_ random: inout SeededRandom) -> String {
        (0 ..< random.int(1 ..< 4)).map { _ in random.pick(syllables) }.joined()
    }

    static func name(_ random: inout SeededRandom) -> String {
        (0 ..< random.int(1 ..< 3)).map { _ in word(&random).capitalized }.joined(separator: " ")
    }

    @Test func everyMatchingParticipantRanksAboveEveryOtherResult() async {
        for seed in UInt64(1) ... 300 {
            var random = SeededRandom(seed: seed)
            let entities = (0 ..< random.int(0 ..< 40)).map { i in
                Entity(id: "e\(i)", name: Self.name(&random), handle: random.chance(0.7) ? Self.word(&random) + "\(i)" : nil)
            }
            // Participants: some known by id, some by handle only, some the directory lacks.
            var people: [ConversationMember] = []
            for entity in entities where random.chance(0.3) {
                if let handle = entity.handle, random.chance(0.5) {
                    people.append(ConversationMember(entity: Entity(id: handle, name: handle, handle: handle), roles: ["commenter"]))
                } else {
                    people.append(ConversationMember(entity: Entity(id: entity.id, name: entity.id), roles: ["author"]))
                }
            }
            for i in 0 ..< random.int(0 ..< 4) {
                people.append(ConversationMember(entity: Entity(id: "x\(i)", name: Self.name(&random), handle: "x\(i)"), roles: ["reviewer"]))
            }
            let directory = FileDirectory(entities: entities, limit: 1000)
            let source = Self.source(directory, people, directory: directory)
            // The participants as shown: the directory's entity where it has them.
            var shown: [String: Entity] = [:]
            for person in people {
                let known = entities.first { $0.id == person.entity.id } ?? entities.first { $0.handle == person.entity.handle && person.entity.handle != nil }
                let entity = known ?? person.entity
                shown[entity.id] = entity
            }
            let everyone = FileDirectory(entities: entities + people.map(\.entity).filter { shown[$0.id] != nil && !entities.map(\.id).contains($0.id) }, limit: 1000)
            for _ in 0 ..< 5 {
                let query = random.chance(0.2) ? "" : String(Self.word(&random).prefix(random.int(1 ..< 4)))
                let results = source.answerNow(query) ?? []
                let context = "seed \(seed) query \"\(query)\""
                // Participants first, then no participant.
                let firstOther = results.firstIndex { $0.participantRole == nil } ?? results.count
                #expect(results[firstOther...].allSatisfy { $0.participantRole == nil }, "\(context)")
                #expect(results[..<firstOther].allSatisfy { shown[$0.entity.id] != nil }, "\(context)")
                // Every participant that matches the query is there (an empty query lists them all).
                let matching = everyone.rank(query).map(\.entity.id).filter { shown[$0] != nil }
                #expect(Set(results[..<firstOther].map(\.entity.id)) == Set(matching), "\(context)")
                // The rest is the directory's own ranking without the participants, in its order.
                #expect(results[firstOther...].map(\.entity.id) == directory.rank(query).map(\.entity.id).filter { shown[$0] == nil },
                        "\(context)")
                // Each id once; the stream answers the same.
                #expect(Set(results.map(\.entity.id)).count == results.count, "\(context)")
                let streamed = await answer(source, query)
                #expect(streamed.ids == results.map(\.entity.id), "\(context)")
            }
        }
    }

    @Test func aKnownParticipantIsTheDirectorysEntityWithTheRoles() {
        let directory = FileDirectory(entities: [
            Entity(id: "7", name: "John Doe", handle: "jdoe", detail: "Platform"),
            Entity(id: "8", name: "Joan Smith", handle: "jsmith"),
            Entity(id: "9", name: "Ada Lovelace", handle: "ada"),
        ])
        let source = Self.source(directory, [
            ConversationMember(entity: Entity(id: "jdoe", name: "jdoe", handle: "jdoe"), roles: ["author"]),
            ConversationMember(entity: Entity(id: "ghost", name: "Gus Host", handle: "ghost"), roles: ["reviewer"]),
            ConversationMember(entity: Entity(id: "jdoe", name: "jdoe", handle: "jdoe"), roles: ["commenter"]),
        ], directory: directory)
        let all = source.answerNow("") ?? []
        #expect(all.map(\.entity) == [Entity(id: "7", name: "John Doe", handle: "jdoe", detail: "Platform"),
                                      Entity(id: "ghost", name: "Gus Host", handle: "ghost"),
                                      Entity(id: "8", name: "Joan Smith", handle: "jsmith"),
                                      Entity(id: "9", name: "Ada Lovelace", handle: "ada")])
        #expect(all.map(\.participantRole) == ["author, commenter", "reviewer", nil, nil])
        // `jo` matches John and Joan; the participant comes first, whatever the plain order.
        #expect(source.answerNow("jo")?.map(\.entity.id) == ["7", "8"])
        #expect(source.answerNow("gus")?.map(\.entity.id) == ["ghost"])
    }

    @Test func withoutParticipantsTheRankingIsTheDirectorys() async {
        let directory = FileDirectory(entities: [Entity(id: "1", name: "Zed"), Entity(id: "2", name: "Zoe")])
        let list = ParticipantList()
        let failed = ConversationPeople(list: list, directory: directory, service: .slack) {
            .failure(PostError(.failed, "participants of slack:C1 not loaded: HTTP 500"))
        }
        await failed.waitUntilFetched()
        #expect(failed.current == .failed("participants of slack:C1 not loaded: HTTP 500"))
        let source = ParticipantsFirstSource(participants: list, source: directory)
        #expect(source.answerNow("z") == directory.rank("z"))
        #expect(await answer(source, "z").batches.flatMap { $0 } == directory.rank("z"))
    }

    @Test func aSourceThatIsNotInMemoryGetsParticipantsFirstToo() async throws {
        // A command source answers in its own order; participants still come first, and
        // one it also answers is not repeated.
        let folder = try ScriptFolder()
        let command = try folder.script("people", """
            printf '%s\\n' '{"id": "ada", "name": "Ada Lovelace"}' '{"id": "jdoe", "name": "John Doe"}'
            """)
        let inner = CommandSource(command: command, timeout: .seconds(10))
        let source = Self.source(inner, [ConversationMember(entity: Entity(id: "jdoe", name: "John Doe", handle: "jdoe"), roles: ["author"])],
                                 directory: nil)
        #expect(source.answerNow("") == nil)
        let got = await answer(source, "")
        #expect(got.ids == ["jdoe", "ada"])
        #expect(got.batches.flatMap { $0 }.map(\.participantRole) == ["author", nil])
    }
}

/// People a service names by id alone (Slack) and a source that is not in memory (a
/// command, a URL) knows: they wait for its answer and then go first, with its names.
@Suite struct ParticipantsNamedByTheSourceTests {
    @Test func idOnlyParticipantsTakeTheSourcesNamesAndStillGoFirst() async throws {
        let folder = try ScriptFolder()
        let command = try folder.script("people", """
            printf '%s\\n' '{"id": "U01", "name": "John Doe"}' '{"id": "U03", "name": "Jo Bloggs"}' '{"id": "U02", "name": "Joan Smith"}'
            """)
        let source = ParticipantsRankingTests.source(CommandSource(command: command, timeout: .seconds(10)), [
            ConversationMember(entity: Entity(id: "U03", name: "U03"), roles: ["replier"]),
            ConversationMember(entity: Entity(id: "U99", name: "U99"), roles: ["member"]),
            ConversationMember(entity: Entity(id: "x", name: "Known Name", handle: "kn"), roles: ["author"]),
        ], directory: nil)
        let all = await answer(source, "")
        // The participant with a name at once; the id-only ones after the source answered,
        // named by it. U99, whom nobody names, is not shown as an id.
        #expect(all.batches.map { $0.map(\.entity.name) } == [["Known Name"], ["Jo Bloggs", "John Doe", "Joan Smith"]])
        #expect(all.batches.flatMap { $0 }.map(\.participantRole) == ["author", "replier", nil, nil])
        let jo = await answer(source, "jo")
        #expect(jo.batches.flatMap { $0 }.map(\.entity.id) == ["U03", "U01", "U02"])
    }
}

/// The fetch through the one libcurl stack: every page, and a failure said in one line.
@Suite struct ConversationPeopleFetchTests {
    @Test func slackMembersOverTwoPages() throws {
        let server = try LocalHTTPServer { target in
            target.contains("cursor=") ? .json(#"{"ok": true, "members": ["U3"], "response_metadata": {"next_cursor": ""}}"#)
                : .json(#"{"ok": true, "members": ["U1", "U2"], "response_metadata": {"next_cursor": "p2"}}"#)
        }
        defer { server.stop() }
        let request = try ParticipantsRequest(target: .slack(channel: "C1", thread: nil),
                                              environment: ["SLACK_TOKEN": "t", "ATPAD_SLACK_API": "http://127.0.0.1:\(server.port)/api"])
        let fetched = ConversationPeople.fetch(request, timeout: .seconds(5), environment: [:])
        let people = try fetched.get()
        #expect(people.map(\.entity.id) == ["U1", "U2", "U3"])
        #expect(server.targets == ["/api/conversations.members?channel=C1&limit=200",
                                   "/api/conversations.members?channel=C1&limit=200&cursor=p2"])
        #expect(server.heads.allSatisfy { $0.hasPrefix("GET ") && $0.contains("\r\nAuthorization: Bearer t\r\n") && !$0.contains("Content-Length") })
    }

    @Test func aFailedCallIsOneLine() throws {
        let server = try LocalHTTPServer { _ in .json(#"{"errorMessages": ["Issue does not exist"]}"#, status: 404) }
        defer { server.stop() }
        let request = try ParticipantsRequest(target: .jira(issue: "KEY-1"), environment: [
            "JIRA_URL": "http://127.0.0.1:\(server.port)", "JIRA_USER": "u", "JIRA_TOKEN": "secret-token",
        ])
        let outcome = ConversationPeople.fetch(request, timeout: .seconds(5), environment: [:])
        #expect(outcome == .failure(PostError(.failed, "participants of jira:KEY-1 not loaded: HTTP 404 Issue does not exist")))
        #expect(server.targets == ["/rest/api/3/issue/KEY-1?fields=reporter,assignee,comment"])
    }

    @Test func noAnswerInTimeIsAFailureToo() throws {
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let request = try ParticipantsRequest(target: .matrix(room: "!r:x"), environment: [
            "MATRIX_HOMESERVER": "http://127.0.0.1:\(server.port)", "MATRIX_TOKEN": "t",
        ])
        let outcome = ConversationPeople.fetch(request, timeout: .milliseconds(300), environment: [:])
        #expect(outcome == .failure(PostError(.failed, "participants of matrix:!r:x not loaded: timed out after 0.3 s")))
    }
}

/// A directory that loads behind the first screen is waited for before the participants
/// are resolved, so one it knows is shown as it has them, not as the service named them.
@Suite struct ParticipantsWithALoadingDirectoryTests {
    @Test func theLoadedDirectoryNamesTheParticipants() async {
        let gate = Gate()
        let loading = LoadingDirectory {
            gate.wait()
            return FileDirectory(entities: [Entity(id: "U1", name: "John Doe", handle: "jdoe"), Entity(id: "U2", name: "Zed")])
        }
        let list = ParticipantList()
        let people = ConversationPeople(list: list, directory: loading, service: .slack) {
            .success([ConversationMember(entity: Entity(id: "U2", name: "U2"), roles: ["member"])])
        }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(people.current == .fetching)
        gate.open()
        await people.waitUntilFetched()
        #expect(people.current == .ready([Participant(entity: Entity(id: "U2", name: "Zed"), role: "member")]))
        let source = ParticipantsFirstSource(participants: list, source: loading)
        #expect(source.answerNow("")?.map(\.entity.name) == ["Zed", "John Doe"])
    }
}

/// docs/people.md, "One person on every service": a participant is the directory's person
/// when an `accounts` entry, the id or the handle says so, and is shown once, by name, with
/// the role; people a service gives by id alone are named, or left out.
@Suite struct OnePersonOnEveryServiceTests {
    static let ann = Entity(id: "p3", name: "Ann Lee", handle: "ann", accounts: [.slack: "U0999", .github: "AnnL", .matrix: "@ann:example.org"])
    static let john = Entity(id: "p1", name: "John Doe", handle: "jdoe", accounts: [.github: "jdoe-gh", .jira: "5b10aa"])
    static let directory = FileDirectory(entities: [john, ann, Entity(id: "p4", name: "Zed")])

    @Test func theRuleMatchesAnAccountTheIDOrTheHandle() {
        let named = [Entity(id: "U0999", name: "U0999"), Entity(id: "p4", name: "p4"), Entity(id: "W1", name: "W1", handle: "JDOE")]
        let rule = SamePerson(named, on: .slack)
        #expect(rule.matches(Self.ann).map(\.index) == [0])
        #expect(rule.matches(Self.ann).map(\.strength) == [.account])
        #expect(rule.matches(Entity(id: "p4", name: "Zed")).map(\.strength) == [.id])
        #expect(rule.matches(Self.john).map(\.strength) == [.handle])
        // An account on another service says nothing here.
        #expect(SamePerson(named, on: .github).matches(Self.ann).isEmpty)
        // GitHub logins match in any case, as the id or as the login GitHub gives.
        let github = SamePerson([Entity(id: "annl", name: "Ann", handle: "annl")], on: .github)
        #expect(github.matches(Self.ann).map(\.strength) == [.account])
        // Of two entries, the stronger match wins.
        let both = SamePerson([Entity(id: "x", name: "x", handle: "ann")], on: .gitlab)
        #expect(both.resolve([Entity(id: "q", name: "Q", handle: "ann"), Entity(id: "r", name: "R", accounts: [.gitlab: "ANN"])], count: 1)
            .map { $0?.id } == ["r"])
    }

    @Test func participantsAreTheDirectorysPeopleThroughTheirAccounts() {
        let slack = ConversationPeople.resolved([
            ConversationMember(entity: Entity(id: "U0999", name: "U0999"), roles: ["replier"]),
            ConversationMember(entity: Entity(id: "U0111", name: "U0111"), roles: ["member"]),
        ], in: Self.directory, on: .slack)
        #expect(slack == [Participant(entity: Self.ann, role: "replier"), Participant(entity: Entity(id: "U0111", name: "U0111"), role: "member")])
        let github = ConversationPeople.resolved([
            ConversationMember(entity: Entity(id: "jdoe-gh", name: "John D.", handle: "jdoe-gh"), roles: ["author"]),
            ConversationMember(entity: Entity(id: "annl", name: "annl", handle: "annl"), roles: ["reviewer"]),
        ], in: Self.directory, on: .github)
        #expect(github.map(\.entity.id) == ["p1", "p3"])
        let matrix = ConversationPeople.resolved([
            ConversationMember(entity: Entity(id: "@ann:example.org", name: "Ann"), roles: ["member"]),
        ], in: Self.directory, on: .matrix)
        #expect(matrix.map(\.entity) == [Self.ann])
        // Shown once, by name, with the role: not as the id beside the directory's entry.
        let list = ParticipantList()
        list.set(slack)
        let source = ParticipantsFirstSource(participants: list, source: Self.directory)
        #expect(source.answerNow("ann")?.map(\.entity.id) == ["p3"])
        #expect(source.answerNow("ann")?.first?.participantRole == "replier")
    }

    @Test func peopleGivenByIDAloneAreNamedOrNotShown() async {
        let list = ParticipantList()
        let people = ConversationPeople(list: list, directory: Self.directory, service: .slack, fetch: {
            .success([ConversationMember(entity: Entity(id: "U0999", name: "U0999"), roles: ["author"]),
                      ConversationMember(entity: Entity(id: "U0111", name: "U0111"), roles: ["replier"]),
                      ConversationMember(entity: Entity(id: "U0222", name: "U0222"), roles: ["replier"])])
        }, name: { ids in
            #expect(ids == ["U0111", "U0222"])
            return ([ConversationMember(entity: Entity(id: "U0111", name: "Rita Replier", handle: "rita"), roles: [])], nil)
        })
        await people.waitUntilFetched()
        #expect(people.current == .ready([Participant(entity: Self.ann, role: "author"),
                                          Participant(entity: Entity(id: "U0111", name: "Rita Replier", handle: "rita"), role: "replier"),
                                          Participant(entity: Entity(id: "U0222", name: "U0222"), role: "replier")]))
        // U0222 has no name: not offered, rather than offered as an id.
        let source = ParticipantsFirstSource(participants: list, source: Self.directory)
        #expect(source.answerNow("")?.map(\.entity.name) == ["Ann Lee", "Rita Replier", "John Doe", "Zed"])
    }

    @Test func namingThroughSlacksUsersInfo() throws {
        let server = try LocalHTTPServer { target in
            target.contains("U0111") ? .json(#"{"ok": true, "user": {"id": "U0111", "name": "rita", "real_name": "Rita Replier", "profile": {"display_name": "rr"}}}"#)
                : .json(#"{"ok": false, "error": "user_not_found"}"#)
        }
        defer { server.stop() }
        let request = try ParticipantsRequest(target: .slack(channel: "C1", thread: nil),
                                              environment: ["SLACK_TOKEN": "t", "ATPAD_SLACK_API": "http://127.0.0.1:\(server.port)/api"])
        let naming = ConversationPeople.name(["U0111", "U0404"], through: request, timeout: .seconds(5), environment: [:])
        #expect(naming.named.map(\.entity) == [Entity(id: "U0111", name: "Rita Replier", handle: "rita")])
        #expect(naming.failure == PostError(.failed, "participants of slack:C1 not named: Slack says user_not_found"))
        #expect(server.targets == ["/api/users.info?user=U0111", "/api/users.info?user=U0404"])
        #expect(server.heads.allSatisfy { $0.contains("\r\nAuthorization: Bearer t\r\n") })
        // The other services name their people: nothing to ask.
        let jira = try ParticipantsRequest(target: .jira(issue: "K-1"), environment: ["JIRA_URL": "http://x", "JIRA_USER": "u", "JIRA_TOKEN": "t"])
        #expect(jira.namingCalls(for: ["a"]).isEmpty)
    }
}

/// Blocks a thread until opened.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
