import Testing
@testable import AtpadCore

/// The calls that ask each service for a conversation's people, byte for byte, and the
/// people read from each service's answer (its own JSON shape).
@Suite struct ParticipantsRequestTests {
    let environment = [
        "SLACK_TOKEN": "xoxb-secret", "JIRA_URL": "https://acme.atlassian.net/", "JIRA_USER": "me@acme.io",
        "JIRA_TOKEN": "jt", "ZULIP_SITE": "https://z.example", "ZULIP_EMAIL": "bot@z", "ZULIP_API_KEY": "zk",
        "MATRIX_HOMESERVER": "https://m.example", "MATRIX_TOKEN": "mt",
    ]

    func request(_ target: String) throws -> ParticipantsRequest {
        try ParticipantsRequest(target: PostTarget(parsing: target), environment: environment)
    }

    func people(_ target: String, call index: Int = 0, _ json: String) throws -> [ConversationMember] {
        let request = try request(target)
        let reply: PostReply = request.calls[index].action.program != nil
            ? .program(status: 0, output: Array(json.utf8), errorLine: nil)
            : .http(status: 200, retryAfter: nil, body: Array(json.utf8))
        return try request.read(reply, of: request.calls[index]).get().participants
    }

    func summary(_ people: [ConversationMember]) -> [String] {
        people.map { "\($0.entity.id) \($0.entity.name) \($0.entity.handle ?? "-") \($0.roles.joined(separator: ","))" }
    }

    // MARK: - The calls

    @Test func githubIsOneGraphQLCallWithTheNumberTyped() throws {
        let calls = try request("github:octo/atpad#12").calls
        #expect(calls.count == 1)
        #expect(calls[0].action == .program(arguments: [
            "gh", "api", "graphql", "-f", "owner=octo", "-f", "name=atpad", "-F", "number=12",
            "-f", "query=\(ParticipantsRequest.githubQuery)",
        ], stdin: []))
    }

    @Test func gitlabAsksTheParticipantsOfTheIssueOrMergeRequest() throws {
        #expect(try request("gitlab:acme/sub/backend#7").calls.map(\.action) == [
            .program(arguments: ["glab", "api", "projects/acme%2Fsub%2Fbackend/issues/7/participants?per_page=100"], stdin: []),
        ])
        #expect(try request("gitlab:acme/backend!42").calls.map(\.action) == [
            .program(arguments: ["glab", "api", "projects/acme%2Fbackend/merge_requests/42/participants?per_page=100"], stdin: []),
        ])
    }

    @Test func slackAsksTheThreadElseTheChannel() throws {
        let thread = try request("slack:C0123/1700000000.000100").calls
        guard case let .http(method, url, headers, body) = thread[0].action else { Issue.record("not HTTP"); return }
        #expect(method == "GET")
        #expect(url == "https://slack.com/api/conversations.replies?channel=C0123&limit=200&ts=1700000000.000100")
        #expect(headers.map(\.description) == ["Authorization: Bearer ***"])
        #expect(headers[0].value == "Bearer xoxb-secret")
        #expect(body.isEmpty)
        guard case let .http(_, channelURL, _, _) = try request("slack:C0123").calls[0].action else { return }
        #expect(channelURL == "https://slack.com/api/conversations.members?channel=C0123&limit=200")
    }

    @Test func aSlackChannelNameIsLookedUpFirst() throws {
        let request = try request("slack:#dev")
        let lookup = request.calls[0]
        guard case let .http(_, url, _, _) = lookup.action else { Issue.record("not HTTP"); return }
        #expect(url == "https://slack.com/api/conversations.list?types=public_channel%2Cprivate_channel&exclude_archived=true&limit=1000")
        let page = try request.read(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channels": [{"id": "C9", "name": "dev"}]}"#.utf8)), of: lookup).get()
        #expect(page.participants.isEmpty)
        guard case let .http(_, membersURL, headers, _)? = page.next?.action else { Issue.record("no members call"); return }
        #expect(membersURL == "https://slack.com/api/conversations.members?channel=C9&limit=200")
        #expect(headers[0].value == "Bearer xoxb-secret")
        // No such channel: one line, not an empty list.
        #expect(throws: PostError.self) {
            try request.read(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channels": []}"#.utf8)), of: lookup).get()
        }
    }

    @Test func jiraAsksTheIssueAndItsWatchers() throws {
        let urls = try request("jira:KEY-12").calls.compactMap { call -> String? in
            if case let .http(_, url, _, _) = call.action { return url }
            return nil
        }
        #expect(urls == ["https://acme.atlassian.net/rest/api/3/issue/KEY-12?fields=reporter,assignee,comment",
                         "https://acme.atlassian.net/rest/api/3/issue/KEY-12/watchers"])
    }

    @Test func zulipAsksTheTopicsRecentMessages() throws {
        guard case let .http(_, url, _, _) = try request("zulip:backend/release 2.0").calls[0].action else { return }
        #expect(url == "https://z.example/api/v1/messages?anchor=newest&num_before=100&num_after=0&apply_markdown=false&narrow="
            + "%5B%7B%22operator%22%3A%20%22stream%22%2C%20%22operand%22%3A%20%22backend%22%7D%2C%20%7B%22operator%22%3A%20"
            + "%22topic%22%2C%20%22operand%22%3A%20%22release%202.0%22%7D%5D")
    }

    @Test func matrixAsksTheJoinedMembers() throws {
        guard case let .http(_, url, _, _) = try request("matrix:!abc:m.example").calls[0].action else { return }
        #expect(url == "https://m.example/_matrix/client/v3/rooms/%21abc%3Am.example/joined_members")
    }

    @Test func aMissingVariableIsNamed() {
        #expect(throws: PostError(.usage, "SLACK_TOKEN is not set (needed for the participants of slack:C0123)")) {
            try ParticipantsRequest(target: PostTarget(parsing: "slack:C0123"), environment: [:])
        }
    }

    // MARK: - The answers

    @Test func githubPullRequestPeopleWithTheirRoles() throws {
        let json = """
            {"data": {"repository": {"issueOrPullRequest": {
              "author": {"login": "jdoe", "name": "John Doe"},
              "assignees": {"nodes": [{"login": "mona", "name": ""}]},
              "reviewRequests": {"nodes": [{"requestedReviewer": {"login": "ada", "name": "Ada L"}},
                                           {"requestedReviewer": {"combinedSlug": "octo/core", "name": "Core"}}]},
              "reviews": {"nodes": [{"author": {"login": "jdoe"}}]},
              "comments": {"nodes": [{"author": {"login": "dependabot"}}, {"author": null}, {"author": {"login": "ada"}}]}
            }}}}
            """
        #expect(summary(ConversationMember.merged(try people("github:octo/atpad#12", json))) == [
            "jdoe John Doe jdoe author,reviewer", "mona mona mona assignee", "ada Ada L ada reviewer,commenter",
            "octo/core Core octo/core reviewer", "dependabot dependabot dependabot commenter",
        ])
    }

    @Test func githubErrorsAndAMissingItemAreFailures() throws {
        let request = try request("github:octo/atpad#99")
        let missing = request.read(.program(status: 0, output: Array(#"{"data": {"repository": {"issueOrPullRequest": null}}}"#.utf8),
                                            errorLine: nil), of: request.calls[0])
        #expect(missing == .failure(PostError(.failed, "participants of github:octo/atpad#99 not loaded: GitHub has no such issue or pull request")))
        let failed = request.read(.program(status: 1, output: [], errorLine: "HTTP 401: Bad credentials"), of: request.calls[0])
        #expect(failed == .failure(PostError(.failed,
            "participants of github:octo/atpad#99 not loaded: HTTP 401: Bad credentials; check gh's login (gh auth status; GH_TOKEN)")))
    }

    @Test func gitlabParticipants() throws {
        let json = #"[{"id": 5, "username": "jdoe", "name": "John Doe", "web_url": "https://gitlab.com/jdoe"}, {"id": 6, "username": "ada", "name": "Ada"}]"#
        #expect(summary(try people("gitlab:acme/backend!42", json)) == ["5 John Doe jdoe participant", "6 Ada ada participant"])
    }

    @Test func slackThreadAuthorAndRepliersAndTheNextPage() throws {
        let request = try request("slack:C0123/1700000000.000100")
        let json = """
            {"ok": true, "messages": [{"user": "U1", "ts": "1700000000.000100"}, {"user": "U2", "ts": "1700000001.000000"},
             {"bot_id": "B1", "ts": "1700000002.000000"}, {"user": "U1", "ts": "1700000003.000000"}],
             "has_more": true, "response_metadata": {"next_cursor": "bmV4dA=="}}
            """
        let page = try request.read(.http(status: 200, retryAfter: nil, body: Array(json.utf8)), of: request.calls[0]).get()
        #expect(summary(ConversationMember.merged(page.participants)) == ["U1 U1 - author,replier", "U2 U2 - replier"])
        guard case let .http(_, url, _, _)? = page.next?.action else { Issue.record("no next page"); return }
        #expect(url == "https://slack.com/api/conversations.replies?channel=C0123&limit=200&ts=1700000000.000100&cursor=bmV4dA%3D%3D")
        // The page after that replaces the cursor rather than adding a second one.
        let last = try request.read(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "messages": [], "response_metadata": {"next_cursor": "Mw=="}}"#.utf8)),
                                    of: page.next!).get()
        guard case let .http(_, third, _, _)? = last.next?.action else { Issue.record("no third page"); return }
        #expect(third.hasSuffix("&ts=1700000000.000100&cursor=Mw%3D%3D"))
    }

    @Test func slackChannelMembersAndSlacksOwnError() throws {
        #expect(summary(try people("slack:C0123", #"{"ok": true, "members": ["U1", "U2"], "response_metadata": {"next_cursor": ""}}"#))
            == ["U1 U1 - member", "U2 U2 - member"])
        let request = try request("slack:C0123")
        #expect(request.read(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": false, "error": "channel_not_found"}"#.utf8)),
                             of: request.calls[0])
            == .failure(PostError(.failed, "participants of slack:C0123 not loaded: Slack says channel_not_found")))
    }

    @Test func jiraReporterAssigneeCommentersAndWatchers() throws {
        let issue = """
            {"fields": {"reporter": {"accountId": "5b1", "displayName": "Rita"}, "assignee": null,
             "comment": {"comments": [{"author": {"accountId": "5b2", "displayName": "Carl"}}]}}}
            """
        #expect(summary(try people("jira:KEY-1", issue)) == ["5b1 Rita - reporter", "5b2 Carl - commenter"])
        #expect(summary(try people("jira:KEY-1", call: 1, #"{"watchCount": 1, "watchers": [{"accountId": "5b3", "displayName": "Wes"}]}"#))
            == ["5b3 Wes - watcher"])
    }

    @Test func zulipSendersNewestFirst() throws {
        let json = """
            {"result": "success", "messages": [{"sender_id": 8, "sender_full_name": "Old"}, {"sender_id": 9, "sender_full_name": "New"}]}
            """
        #expect(summary(try people("zulip:backend/release", json)) == ["9 New - sender", "8 Old - sender"])
    }

    @Test func matrixJoinedMembers() throws {
        let json = #"{"joined": {"@jdoe:m.example": {"display_name": "John Doe"}, "@bot:m.example": {"display_name": null}}}"#
        #expect(summary(try people("matrix:!abc:m.example", json)) == ["@jdoe:m.example John Doe - member", "@bot:m.example @bot:m.example - member"])
    }

    @Test func httpFailuresNameTheStatusTheServiceAndTheToken() throws {
        let request = try request("matrix:!abc:m.example")
        #expect(request.read(.http(status: 403, retryAfter: nil, body: Array(#"{"errcode": "M_FORBIDDEN", "error": "not in room"}"#.utf8)),
                             of: request.calls[0])
            == .failure(PostError(.failed, "participants of matrix:!abc:m.example not loaded: HTTP 403 M_FORBIDDEN: not in room; check MATRIX_TOKEN")))
        #expect(request.read(.http(status: 200, retryAfter: nil, body: Array("<html>".utf8)), of: request.calls[0])
            == .failure(PostError(.failed, "participants of matrix:!abc:m.example not loaded: the answer is not JSON")))
    }

    @Test func mergingKeepsTheFirstEntityAndGathersRoles() {
        let merged = ConversationMember.merged([
            ConversationMember(entity: Entity(id: "U1", name: "U1"), roles: ["author"]),
            ConversationMember(entity: Entity(id: "U1", name: "Una", handle: "una"), roles: ["replier", "author"]),
        ])
        #expect(merged == [ConversationMember(entity: Entity(id: "U1", name: "Una", handle: "una"), roles: ["author", "replier"])])
    }
}
