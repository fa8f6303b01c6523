import Testing
@testable import AtpadCore

private let env = [
    "SLACK_TOKEN": "xoxb-secret", "JIRA_URL": "https://acme.atlassian.net/", "JIRA_USER": "me@acme.io",
    "JIRA_TOKEN": "jira-secret", "ZULIP_SITE": "https://chat.acme.io", "ZULIP_EMAIL": "bot@acme.io",
    "ZULIP_API_KEY": "zulip-secret", "MATRIX_HOMESERVER": "https://matrix.acme.io", "MATRIX_TOKEN": "syt_secret",
]
private let people = EntityLookup(["@": [Entity(id: "u1", name: "John Doe", handle: "jdoe")]])
private let comment = markup("hi @[John Doe](u1) & <you>\nbye")

private func request(_ target: String, _ doc: MarkedText = comment, environment: [String: String] = env) throws -> PostRequest {
    try PostRequest(target: PostTarget(parsing: target), document: doc, lookup: people, environment: environment,
                    transactionID: "atpad-1")
}

private func http(_ r: PostRequest) -> (method: String, url: String, headers: [String], body: String)? {
    guard case let .http(method, url, headers, body) = r.action else { return nil }
    return (method, url, headers.map { "\($0.name): \($0.value)" }, String(decoding: body, as: UTF8.self))
}

@Suite("post requests")
struct PostRequestTests {
    @Test func githubRunsGhWithTheBodyOnStdin() throws {
        let r = try request("github:octo/atpad#12")
        #expect(r.action == .program(arguments: ["gh", "api", "--method", "POST", "repos/octo/atpad/issues/12/comments", "-F", "body=@-"],
                                     stdin: Array("hi @jdoe & <you>\nbye".utf8)))
    }

    @Test func gitlabRunsGlabOnTheEncodedProjectPath() throws {
        #expect(try request("gitlab:grp/sub/proj#3").action == .program(
            arguments: ["glab", "api", "--method", "POST", "projects/grp%2Fsub%2Fproj/issues/3/notes", "-F", "body=@-"],
            stdin: Array("hi @jdoe & <you>\nbye".utf8)))
        guard case let .program(arguments, _) = try request("gitlab:grp/proj!9").action else { Issue.record(); return }
        #expect(arguments[4] == "projects/grp%2Fproj/merge_requests/9/notes")
    }

    @Test func slackPostsJSONWithTheBearerToken() throws {
        let r = try #require(http(try request("slack:C0123/1700000000.000100")))
        #expect(r.method == "POST")
        #expect(r.url == "https://slack.com/api/chat.postMessage")
        #expect(r.headers == ["Authorization: Bearer xoxb-secret", "Content-Type: application/json; charset=utf-8"])
        #expect(r.body == #"{"channel": "C0123", "text": "hi <@u1> &amp; &lt;you&gt;\nbye", "thread_ts": "1700000000.000100"}"#)
        var other = env
        other["ATPAD_SLACK_API"] = "http://127.0.0.1:9/api/"
        let local = try #require(http(try request("slack:#dev", environment: other)))
        #expect(local.url == "http://127.0.0.1:9/api/chat.postMessage")
        #expect(local.body == ##"{"channel": "#dev", "text": "hi <@u1> &amp; &lt;you&gt;\nbye"}"##)
    }

    @Test func jiraPostsAnADFDocumentWithBasicAuth() throws {
        let r = try #require(http(try request("jira:KEY-123")))
        #expect(r.method == "POST")
        #expect(r.url == "https://acme.atlassian.net/rest/api/3/issue/KEY-123/comment")
        // base64("me@acme.io:jira-secret")
        #expect(r.headers == ["Authorization: Basic bWVAYWNtZS5pbzpqaXJhLXNlY3JldA==", "Content-Type: application/json; charset=utf-8"])
        #expect(r.body == #"{"body": "# + DocumentFormat.adf.encode(comment) + "}")
    }

    @Test func zulipPostsAForm() throws {
        let r = try #require(http(try request("zulip:dev team/release 1.0")))
        #expect(r.url == "https://chat.acme.io/api/v1/messages")
        #expect(r.headers == ["Authorization: Basic Ym90QGFjbWUuaW86enVsaXAtc2VjcmV0", "Content-Type: application/x-www-form-urlencoded"])
        #expect(r.body == "type=stream&to=dev%20team&topic=release%201.0&content=hi%20%40%2A%2AJohn%20Doe%7Cu1%2A%2A%20%26%20%3Cyou%3E%0Abye")
    }

    @Test func matrixPutsTheEventUnderAFreshTransaction() throws {
        let r = try #require(http(try request("matrix:!room:acme.io")))
        #expect(r.method == "PUT")
        #expect(r.url == "https://matrix.acme.io/_matrix/client/v3/rooms/%21room%3Aacme.io/send/m.room.message/atpad-1")
        #expect(r.headers == ["Authorization: Bearer syt_secret", "Content-Type: application/json; charset=utf-8"])
        #expect(r.body == DocumentFormat.matrix.encode(comment))
    }

    @Test func aMatrixAliasIsLookedUpFirst() throws {
        let r = try request("matrix:#team:acme.io")
        let lookup = try #require(r.lookup)
        guard case let .http(method, url, headers, body) = lookup else {
            Issue.record("not http")
            return
        }
        #expect(method == "GET" && body.isEmpty)
        #expect(url == "https://matrix.acme.io/_matrix/client/v3/directory/room/%23team%3Aacme.io")
        #expect(headers.map(\.description) == ["Authorization: Bearer ***"])
        // The homeserver's answer names the room the post goes to.
        guard case let .post(found) = r.resolving(.http(status: 200, retryAfter: nil, body: Array(#"{"room_id": "!abc:acme.io", "servers": ["acme.io"]}"#.utf8)), of: lookup) else {
            Issue.record("not resolved")
            return
        }
        #expect(http(found)?.url == "https://matrix.acme.io/_matrix/client/v3/rooms/%21abc%3Aacme.io/send/m.room.message/atpad-1")
        #expect(found.lookup == nil)
        // No such alias, or no server: nothing is posted, and one line says why.
        let missing = r.resolving(.http(status: 404, retryAfter: nil, body: Array(#"{"errcode": "M_NOT_FOUND", "error": "Room alias #team:acme.io not found"}"#.utf8)), of: lookup)
        #expect(missing == .failed(PostError(.failed, "Not posted to matrix:#team:acme.io: the homeserver found no room for #team:acme.io (HTTP 404 M_NOT_FOUND: Room alias #team:acme.io not found)")))
        let down = r.resolving(.notSent(reason: "connection refused"), of: lookup)
        #expect(down == .failed(PostError(.failed, "Not posted to matrix:#team:acme.io: looking up #team:acme.io: connection refused")))
        // A room id needs no lookup.
        #expect(try request("matrix:!abc").lookup == nil)
        #expect(String(decoding: r.dryRun, as: UTF8.self).hasPrefix(
            "GET https://matrix.acme.io/_matrix/client/v3/directory/room/%23team%3Aacme.io   (the id of #team:acme.io, which the post then names)\nPUT "))
    }

    @Test func aSlackChannelNameIsLookedUpPageByPage() throws {
        let r = try request("slack:#dev-team/1700000000.000100")
        let lookup = try #require(r.lookup)
        guard case let .http(_, url, _, _) = lookup else { return }
        #expect(url == "https://slack.com/api/conversations.list?types=public_channel%2Cprivate_channel&exclude_archived=true&limit=1000")
        // Not on the first page: the next one is asked for with Slack's cursor.
        let first = r.resolving(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channels": [{"id": "C1", "name": "general"}], "response_metadata": {"next_cursor": "dGVhbTpD"}}"#.utf8)), of: lookup)
        guard case let .next(page) = first, case let .http(_, pageURL, _, _) = page else {
            Issue.record("no next page: \(first)")
            return
        }
        #expect(pageURL.hasSuffix("&limit=1000&cursor=dGVhbTpD"))
        guard case let .post(found) = r.resolving(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channels": [{"id": "C0DEV", "name": "dev-team"}]}"#.utf8)), of: page) else {
            Issue.record("not resolved")
            return
        }
        #expect(http(found)?.body.hasPrefix(#"{"channel": "C0DEV", "text": "#) == true)
        #expect(http(found)?.body.hasSuffix(#""thread_ts": "1700000000.000100"}"#) == true)
        // The last page without it: one line, nothing posted.
        #expect(r.resolving(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channels": []}"#.utf8)), of: page)
            == .failed(PostError(.failed, "Not posted to slack:#dev-team/1700000000.000100: Slack has no channel #dev-team that SLACK_TOKEN can see; give its id (slack:C0123)")))
        #expect(r.resolving(.http(status: 200, retryAfter: nil, body: Array(#"{"ok": false, "error": "invalid_auth"}"#.utf8)), of: lookup)
            == .failed(PostError(.failed, "Not posted to slack:#dev-team/1700000000.000100: looking up #dev-team: Slack says invalid_auth; check SLACK_TOKEN")))
        #expect(try request("slack:C0123").lookup == nil)
    }

    @Test func aMatrix403SaysWhichRefusalItIs() throws {
        let r = try request("matrix:!r")
        func answer(_ json: String) -> PostOutcome { r.outcome(of: .http(status: 403, retryAfter: nil, body: Array(json.utf8))) }
        #expect(answer(#"{"errcode": "M_FORBIDDEN", "error": "User @alice:localhost not in room !r"}"#)
            == .failed("Not posted to matrix:!r: HTTP 403 M_FORBIDDEN: User @alice:localhost not in room !r; the account of MATRIX_TOKEN is not in the room: join it first"))
        #expect(answer(#"{"errcode": "M_FORBIDDEN", "error": "You don't have permission to post that to the room."}"#)
            == .failed("Not posted to matrix:!r: HTTP 403 M_FORBIDDEN: You don't have permission to post that to the room.; the account of MATRIX_TOKEN may not post in this room"))
        #expect(answer(#"{"errcode": "M_UNKNOWN_TOKEN", "error": "Unknown token"}"#)
            == .failed("Not posted to matrix:!r: HTTP 403 M_UNKNOWN_TOKEN: Unknown token; check MATRIX_TOKEN"))
    }

    @Test(arguments: [
        ("slack:C1", "SLACK_TOKEN"), ("jira:K-1", "JIRA_URL"), ("zulip:s/t", "ZULIP_SITE"), ("matrix:!r:h", "MATRIX_HOMESERVER"),
    ])
    func aMissingVariableIsNamed(target: String, variable: String) {
        #expect(throws: PostError(.usage, "\(variable) is not set (needed to post to \(try! PostTarget(parsing: target).serviceName))")) {
            try request(target, environment: [:])
        }
        var partial = env
        partial["JIRA_TOKEN"] = ""
        #expect(throws: PostError(.usage, "JIRA_TOKEN is not set (needed to post to Jira)")) { try request("jira:K-1", environment: partial) }
    }

    @Test func dryRunHidesEverySecret() throws {
        for target in ["slack:C1", "jira:K-1", "zulip:s/t", "matrix:!r:h"] {
            let text = String(decoding: try request(target).dryRun, as: UTF8.self)
            for secret in ["xoxb-secret", "jira-secret", "zulip-secret", "syt_secret", "bWVAYWNtZS5pbzpqaXJhLXNlY3JldA", "Ym90QGFjbWUuaW86enVsaXAtc2VjcmV0"] {
                #expect(!text.contains(secret), "\(target) shows a secret")
            }
            #expect(text.contains(": Bearer ***") || text.contains(": Basic ***"))
        }
        #expect(String(decoding: try request("slack:C1").dryRun, as: UTF8.self) == """
            POST https://slack.com/api/chat.postMessage
            Authorization: Bearer ***
            Content-Type: application/json; charset=utf-8

            {"channel": "C1", "text": "hi <@u1> &amp; &lt;you&gt;\\nbye"}
            """)
        #expect(String(decoding: try request("github:o/r#1").dryRun, as: UTF8.self)
            == "gh api --method POST repos/o/r/issues/1/comments -F body=@-\n\nhi @jdoe & <you>\nbye")
        // A header's description never holds the secret either.
        #expect(PostHeader(name: "Authorization", scheme: "Bearer", secret: "t0k").description == "Authorization: Bearer ***")
    }

    @Test func base64() {
        #expect(PostEncoding.base64(Array("".utf8)) == "")
        #expect(PostEncoding.base64(Array("f".utf8)) == "Zg==")
        #expect(PostEncoding.base64(Array("fo".utf8)) == "Zm8=")
        #expect(PostEncoding.base64(Array("foo".utf8)) == "Zm9v")
        #expect(PostEncoding.base64(Array("foob".utf8)) == "Zm9vYg==")
    }
}

@Suite("post outcomes")
struct PostOutcomeTests {
    @Test func successesGiveTheCommentsIdentity() throws {
        let gh = try request("github:o/r#1")
        #expect(gh.outcome(of: .program(status: 0, output: Array(#"{"id": 5, "html_url": "https://github.com/o/r/issues/1#issuecomment-5"}"#.utf8), errorLine: nil))
            == .posted(result: "https://github.com/o/r/issues/1#issuecomment-5"))
        #expect(try request("gitlab:g/p#1").outcome(of: .program(status: 0, output: Array(#"{"id": 77, "body": "x"}"#.utf8), errorLine: nil))
            == .posted(result: "77"))
        #expect(try request("slack:C1").outcome(of: .http(status: 200, retryAfter: nil, body: Array(#"{"ok": true, "channel": "C1", "ts": "1.2"}"#.utf8)))
            == .posted(result: "C1 1.2"))
        #expect(try request("jira:KEY-1").outcome(of: .http(status: 201, retryAfter: nil, body: Array(#"{"id": "10000"}"#.utf8)))
            == .posted(result: "https://acme.atlassian.net/browse/KEY-1?focusedCommentId=10000"))
        #expect(try request("zulip:s/t").outcome(of: .http(status: 200, retryAfter: nil, body: Array(#"{"result": "success", "msg": "", "id": 42}"#.utf8)))
            == .posted(result: "42"))
        #expect(try request("matrix:!r:h").outcome(of: .http(status: 200, retryAfter: nil, body: Array(#"{"event_id": "$ev1"}"#.utf8)))
            == .posted(result: "$ev1"))
    }

    @Test func failuresNameTheTargetTheStatusAndTheServicesError() throws {
        #expect(try request("slack:C1").outcome(of: .http(status: 200, retryAfter: nil, body: Array(#"{"ok": false, "error": "channel_not_found"}"#.utf8)))
            == .failed("Not posted to slack:C1: Slack says channel_not_found"))
        #expect(try request("slack:C1").outcome(of: .http(status: 200, retryAfter: nil, body: Array(#"{"ok": false, "error": "invalid_auth"}"#.utf8)))
            == .failed("Not posted to slack:C1: Slack says invalid_auth; check SLACK_TOKEN"))
        #expect(try request("matrix:!r:h").outcome(of: .http(status: 401, retryAfter: nil, body: Array(#"{"errcode": "M_UNKNOWN_TOKEN", "error": "Invalid token"}"#.utf8)))
            == .failed("Not posted to matrix:!r:h: HTTP 401 M_UNKNOWN_TOKEN: Invalid token; check MATRIX_TOKEN"))
        #expect(try request("jira:K-1").outcome(of: .http(status: 403, retryAfter: nil, body: Array(#"{"errorMessages": ["No permission"], "errors": {}}"#.utf8)))
            == .failed("Not posted to jira:K-1: HTTP 403 No permission; check JIRA_USER and JIRA_TOKEN"))
        #expect(try request("zulip:s/t").outcome(of: .http(status: 429, retryAfter: "30", body: Array(#"{"result": "error", "msg": "API usage exceeded rate limit"}"#.utf8)))
            == .failed("Not posted to zulip:s/t: HTTP 429 API usage exceeded rate limit; Zulip asks to wait 30 s (Retry-After)"))
        #expect(try request("slack:C1").outcome(of: .http(status: 500, retryAfter: nil, body: Array("Internal error\n<html>".utf8)))
            == .failed("Not posted to slack:C1: HTTP 500 Internal error"))
        #expect(try request("slack:C1").outcome(of: .http(status: 502, retryAfter: nil, body: Array("\u{1B}[2J".utf8)))
            == .failed("Not posted to slack:C1: HTTP 502"))
        #expect(try request("github:o/r#1").outcome(of: .program(status: 1, output: [], errorLine: "gh: Not Found (HTTP 404)"))
            == .failed("Not posted to github:o/r#1: gh: Not Found (HTTP 404) (gh exited with status 1)"))
        #expect(try request("github:o/r#1").outcome(of: .program(status: 1, output: [], errorLine: "gh: Bad credentials (HTTP 401)"))
            == .failed("Not posted to github:o/r#1: gh: Bad credentials (HTTP 401) (gh exited with status 1); check gh's login (gh auth status; GH_TOKEN)"))
        #expect(try request("slack:C1").outcome(of: .notSent(reason: "could not connect"))
            == .failed("Not posted to slack:C1: could not connect"))
    }

    @Test func noAnswerMayOrMayNotHaveBeenPosted() throws {
        let outcome = try request("slack:C1").outcome(of: .noAnswer(reason: "timed out after 10 s"))
        #expect(outcome == .unknown("No answer from Slack (timed out after 10 s): the comment may or may not have been posted to slack:C1; check there before posting again"))
        // A success status without the fields is not called a success either.
        guard case .unknown = try request("matrix:!r:h").outcome(of: .http(status: 200, retryAfter: nil, body: [])) else {
            Issue.record("expected unknown")
            return
        }
    }
}
