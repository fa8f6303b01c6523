import Testing
@testable import AtpadCore

@Suite("post targets")
struct PostTargetTests {
    @Test(arguments: [
        ("github:octo/atpad#12", PostTarget.github(owner: "octo", repository: "atpad", number: 12)),
        ("github:my-org/my.repo_2#1", .github(owner: "my-org", repository: "my.repo_2", number: 1)),
        ("gitlab:group/project#7", .gitlab(project: "group/project", item: .issue, number: 7)),
        ("gitlab:group/sub/project!42", .gitlab(project: "group/sub/project", item: .mergeRequest, number: 42)),
        ("slack:C0123", .slack(channel: "C0123", thread: nil)),
        ("slack:#dev-team", .slack(channel: "#dev-team", thread: nil)),
        ("slack:C0123/1700000000.000100", .slack(channel: "C0123", thread: "1700000000.000100")),
        ("jira:KEY-123", .jira(issue: "KEY-123")),
        ("jira:AB2_C-9", .jira(issue: "AB2_C-9")),
        ("zulip:general/release 1.2/notes", .zulip(stream: "general", topic: "release 1.2/notes")),
        ("matrix:!abc123:example.org", .matrix(room: "!abc123:example.org")),
        // Room version 12 (Synapse's default): the id has no server part.
        ("matrix:!qVDrxLA74sJbACiLR7US0ow_RyOeBU8HStjGczebOKY", .matrix(room: "!qVDrxLA74sJbACiLR7US0ow_RyOeBU8HStjGczebOKY")),
    ])
    func parsesAndWritesBack(text: String, target: PostTarget) throws {
        #expect(try PostTarget(parsing: text) == target)
        #expect(target.description == text)
    }

    @Test(arguments: [
        ("octo/atpad#12", "expected one of github:"),
        ("bitbucket:a/b#1", "unknown service \"bitbucket\""),
        ("github:octo#12", "expected github:OWNER/REPO#N"),
        ("github:octo/atpad", "expected github:OWNER/REPO#N"),
        ("github:octo/atpad#0", "expected github:OWNER/REPO#N"),
        ("github:octo/at pad#1", "expected github:OWNER/REPO#N"),
        ("github:a/b/c#1", "expected github:OWNER/REPO#N"),
        ("gitlab:project#1", "expected gitlab:GROUP/PROJECT#N"),
        ("gitlab:g/p!x", "expected gitlab:GROUP/PROJECT#N"),
        ("slack:", "expected slack:CHANNEL"),
        ("slack:general", "expected slack:CHANNEL"),
        ("slack:C1/abc", "expected slack:CHANNEL"),
        ("jira:key-1", "expected jira:KEY-123"),
        ("jira:KEY", "expected jira:KEY-123"),
        ("zulip:general", "expected zulip:STREAM/TOPIC"),
        ("zulip:general/", "expected zulip:STREAM/TOPIC"),
        ("matrix:#room:example.org", "a room id such as"),
        ("matrix:!", "a room id such as"),
        ("matrix:!:example.org", "a room id such as"),
        ("matrix:!abc:", "a room id such as"),
        ("matrix:!a b", "a room id such as"),
    ])
    func badTargetsSayWhatIsExpected(text: String, expected: String) {
        #expect {
            try PostTarget(parsing: text)
        } throws: { error in
            let error = error as! PostError
            return error.kind == .usage && error.message.hasPrefix("bad target \"\(text)\"") && error.message.contains(expected)
        }
    }

    @Test func eachServiceHasItsFormat() throws {
        let formats = try ["github:a/b#1", "gitlab:a/b!1", "slack:C1", "jira:K-1", "zulip:s/t", "matrix:!r:h"]
            .map { try PostTarget(parsing: $0).format }
        #expect(formats == [.github, .gitlab, .slack, .adf, .zulip, .matrix])
    }
}
