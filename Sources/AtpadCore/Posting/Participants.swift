/// A person in the conversation a comment is posted to, as the service describes them
/// (its id, name and login where it gives them), with what they are there: the author, a
/// reviewer, a commenter… Participants rank first in the `@` chooser (`--to`).
public struct ConversationMember: Hashable, Sendable {
    /// The person, with the id the service's format writes (a GitHub login, a Slack user
    /// id, a Jira account id, a Zulip user id, a Matrix user id).
    public var entity: Entity
    /// What they are in the conversation, each once, in the order first seen.
    public var roles: [String]

    public init(entity: Entity, roles: [String]) {
        self.entity = entity
        self.roles = roles
    }

    /// `people` with each id once: the first entity seen for an id is kept (with a name
    /// from a later one when the first had none better than its id), its roles gathered.
    public static func merged(_ people: [ConversationMember]) -> [ConversationMember] {
        var order: [String] = []
        var byID: [String: ConversationMember] = [:]
        for person in people where !person.entity.id.isEmpty {
            if var known = byID[person.entity.id] {
                for role in person.roles where !known.roles.contains(role) { known.roles.append(role) }
                if known.entity.name == known.entity.id, person.entity.name != person.entity.id { known.entity.name = person.entity.name }
                if known.entity.handle == nil { known.entity.handle = person.entity.handle }
                byID[person.entity.id] = known
            } else {
                order.append(person.entity.id)
                byID[person.entity.id] = person
            }
        }
        return order.compactMap { byID[$0] }
    }
}

/// How the participants of a target are asked for: one or more calls, each an exact
/// `gh`/`glab` argument list or an HTTP GET (made from the target and the environment and
/// nothing else, so each is unit-tested), and how each answer is read. The runtime only
/// performs them (``PostRequest/Action``s, the posting transport) and hands the answers
/// back to ``read(_:of:)``.
public struct ParticipantsRequest: Equatable, Sendable {
    /// One call: what it sends and what it asks for.
    public struct Call: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// GitHub's GraphQL: the issue's or pull request's author, assignees,
            /// requested reviewers, reviewers and commenters in one answer.
            case githubConversation
            /// GitLab's `participants` of an issue or merge request.
            case gitlabParticipants
            /// Slack's `conversations.replies` of the thread (`ts`: the thread's start).
            case slackReplies(thread: String)
            /// Slack's `conversations.members` of the channel.
            case slackMembers
            /// Slack's `conversations.list`, page by page, for the id of a channel given by
            /// name; the members (or the thread's replies) are asked for next.
            case slackChannel(name: String, thread: String?)
            /// Jira's issue: the reporter, the assignee and the commenters.
            case jiraIssue
            /// Jira's watchers of the issue.
            case jiraWatchers
            /// Zulip's recent messages of the topic: their senders.
            case zulipMessages
            /// Matrix's joined members of the room.
            case matrixMembers
            /// Slack's `users.info` of one person the conversation named by id alone
            /// (``ParticipantsRequest/namingCalls(for:)``).
            case slackUser
        }

        public let kind: Kind
        public let action: PostRequest.Action
    }

    public let target: PostTarget
    /// The calls, in order; each may have more pages (``read(_:of:)``'s `next`).
    public let calls: [Call]
    /// Slack's API and the token's header, for ``namingCalls(for:)``; nil for the other services.
    private let slackAPI: (url: String, authorization: PostHeader)?
    /// The most people of one conversation named one call each (Slack's `users.info`):
    /// the chooser needs the people who spoke or were asked, not every member of a big channel.
    public static let maximumNamed = 50

    public static func == (a: ParticipantsRequest, b: ParticipantsRequest) -> Bool {
        a.target == b.target && a.calls == b.calls && a.slackAPI?.url == b.slackAPI?.url
            && a.slackAPI?.authorization == b.slackAPI?.authorization
    }
    /// The most participants read from one answer page.
    public static let pageSize = 100

    /// The GraphQL query of a GitHub conversation: everyone on an issue or pull request.
    public static let githubQuery = """
        query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { \
        issueOrPullRequest(number: $number) { \
        ... on Issue { author { login ... on User { name } } assignees(first: 100) { nodes { login name } } \
        comments(last: 100) { nodes { author { login ... on User { name } } } } } \
        ... on PullRequest { author { login ... on User { name } } assignees(first: 100) { nodes { login name } } \
        reviewRequests(first: 100) { nodes { requestedReviewer { ... on User { login name } ... on Team { combinedSlug name } } } } \
        reviews(last: 100) { nodes { author { login ... on User { name } } } } \
        comments(last: 100) { nodes { author { login ... on User { name } } } } } } } }
        """

    /// The calls that ask `target` for its participants; a missing variable is an error
    /// of kind `.usage` naming it.
    public init(target: PostTarget, environment: [String: String]) throws(PostError) {
        self.target = target
        var slackAPI: (url: String, authorization: PostHeader)?
        let variables = ServiceVariables(environment: environment, purpose: "for the participants of \(target)")
        func variable(_ name: String) throws(PostError) -> String { try variables.value(name) }
        func base(_ name: String) throws(PostError) -> String { try variables.base(name) }
        func get(_ url: String, _ authorization: PostHeader) -> PostRequest.Action {
            .http(method: "GET", url: url, headers: [authorization], body: [])
        }
        switch target {
        case let .github(owner, repository, number):
            calls = [Call(kind: .githubConversation, action: .program(arguments: [
                "gh", "api", "graphql", "-f", "owner=\(owner)", "-f", "name=\(repository)", "-F", "number=\(number)",
                "-f", "query=\(Self.githubQuery)",
            ], stdin: []))]
        case let .gitlab(project, item, number):
            let path = "projects/\(PostEncoding.percentEncoded(project))/\(item == .issue ? "issues" : "merge_requests")/\(number)/participants?per_page=\(Self.pageSize)"
            calls = [Call(kind: .gitlabParticipants, action: .program(arguments: ["glab", "api", path], stdin: []))]
        case let .slack(channel, thread):
            let token = try variable("SLACK_TOKEN")
            var api = environment["ATPAD_SLACK_API"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://slack.com/api"
            while api.hasSuffix("/") { api.removeLast() }
            let auth = PostHeader(name: "Authorization", scheme: "Bearer", secret: token)
            slackAPI = (api, auth)
            let query = "channel=\(PostEncoding.percentEncoded(channel))&limit=200"
            if channel.hasPrefix("#") {
                calls = [Call(kind: .slackChannel(name: String(channel.dropFirst()), thread: thread),
                              action: get(PostRequest.slackChannelList(api: api), auth))]
            } else if let thread {
                calls = [Call(kind: .slackReplies(thread: thread),
                              action: get("\(api)/conversations.replies?\(query)&ts=\(PostEncoding.percentEncoded(thread))", auth))]
            } else {
                calls = [Call(kind: .slackMembers, action: get("\(api)/conversations.members?\(query)", auth))]
            }
        case let .jira(issue):
            let url = try base("JIRA_URL")
            let user = try variable("JIRA_USER"), token = try variable("JIRA_TOKEN")
            let auth = PostHeader(name: "Authorization", scheme: "Basic", secret: PostEncoding.base64(Array("\(user):\(token)".utf8)))
            calls = [Call(kind: .jiraIssue, action: get("\(url)/rest/api/3/issue/\(issue)?fields=reporter,assignee,comment", auth)),
                     Call(kind: .jiraWatchers, action: get("\(url)/rest/api/3/issue/\(issue)/watchers", auth))]
        case let .zulip(stream, topic):
            let url = try base("ZULIP_SITE")
            let email = try variable("ZULIP_EMAIL"), key = try variable("ZULIP_API_KEY")
            let auth = PostHeader(name: "Authorization", scheme: "Basic", secret: PostEncoding.base64(Array("\(email):\(key)".utf8)))
            let narrow = JSONWriter.text([["operator": "stream", "operand": .string(stream)],
                                          ["operator": "topic", "operand": .string(topic)]])
            calls = [Call(kind: .zulipMessages, action: get(
                "\(url)/api/v1/messages?anchor=newest&num_before=\(Self.pageSize)&num_after=0&apply_markdown=false&narrow="
                    + PostEncoding.percentEncoded(narrow), auth))]
        case let .matrix(room):
            let url = try base("MATRIX_HOMESERVER")
            let token = try variable("MATRIX_TOKEN")
            calls = [Call(kind: .matrixMembers, action: get(
                "\(url)/_matrix/client/v3/rooms/\(PostEncoding.percentEncoded(room))/joined_members",
                PostHeader(name: "Authorization", scheme: "Bearer", secret: token)))]
        }
        self.slackAPI = slackAPI
    }

    /// The calls that name people the conversation gave by id alone — Slack's members and
    /// repliers are user ids (`U0123`) — one `users.info` each, for the first
    /// ``maximumNamed``; none for the other services, which name their people.
    public func namingCalls(for ids: [String]) -> [Call] {
        guard let slackAPI else { return [] }
        return ids.prefix(Self.maximumNamed).map { id in
            Call(kind: .slackUser, action: .http(method: "GET", url: "\(slackAPI.url)/users.info?user=\(PostEncoding.percentEncoded(id))",
                                                 headers: [slackAPI.authorization], body: []))
        }
    }

    /// What one answer says: the participants it names, and the call for its next page
    /// (Slack's cursor), if any.
    public struct Page: Equatable, Sendable {
        public var participants: [ConversationMember]
        public var next: Call?
    }

    /// Reads the answer `reply` got for `call`: its participants, or one line saying why
    /// there are none (the status, the service's own error, the token to check).
    public func read(_ reply: PostReply, of call: Call) -> Result<Page, PostError> {
        let failed = "participants of \(target) " + (call.kind == .slackUser ? "not named" : "not loaded")
        let body: [UInt8]
        switch reply {
        case let .notSent(reason), let .noAnswer(reason), let .lookupFailed(reason):
            return .failure(PostError(.failed, "\(failed): \(reason)"))
        case let .program(status, output, errorLine):
            guard status == 0 else {
                let tool = call.action.program ?? "the program"
                var line = errorLine.map(PostAnswer.visible) ?? (status.map { "\(tool) exited with status \($0)" } ?? "\(tool) was killed")
                if line.contains("401") || line.contains("403") || line.lowercased().contains("auth") {
                    line += "; check \(PostRequest.credentials(of: target))"
                }
                return .failure(PostError(.failed, "\(failed): \(line)"))
            }
            body = output
        case let .http(status, _, answer):
            guard (200 ..< 300).contains(status) else {
                var line = "\(failed): HTTP \(status)"
                if let error = PostAnswer(answer).serviceError { line += " \(error)" }
                if status == 401 || status == 403 { line += "; check \(PostRequest.credentials(of: target))" }
                return .failure(PostError(.failed, line))
            }
            body = answer
        }
        guard let root = body.withUnsafeBufferPointer({ try? JSONReader.value(of: $0) }) else {
            return .failure(PostError(.failed, "\(failed): the answer is not JSON"))
        }
        let json = JSONPathValue(root.kind)
        if case .slackReplies = call.kind, json["ok"].bool == false || json["ok"].bool == nil {
            return .failure(PostError(.failed, "\(failed): Slack says \(json["error"].string ?? "nothing useful")"))
        }
        if case .slackChannel = call.kind, json["ok"].bool != true {
            return .failure(PostError(.failed, "\(failed): Slack says \(json["error"].string ?? "nothing useful")"))
        }
        if case .slackUser = call.kind, json["ok"].bool != true {
            return .failure(PostError(.failed, "\(failed): Slack says \(json["error"].string ?? "nothing useful")"))
        }
        if case .slackMembers = call.kind, json["ok"].bool != true {
            return .failure(PostError(.failed, "\(failed): Slack says \(json["error"].string ?? "nothing useful")"))
        }
        if case .zulipMessages = call.kind, json["result"].string != "success" {
            return .failure(PostError(.failed, "\(failed): Zulip says \(json["msg"].string ?? "nothing useful")"))
        }
        var people: [ConversationMember] = []
        var next: Call?
        switch call.kind {
        case .githubConversation:
            if let errors = json["errors"].array, let first = errors.first {
                return .failure(PostError(.failed, "\(failed): GitHub says \(PostAnswer.visible(first["message"].string ?? "an error"))"))
            }
            let item = json["data"]["repository"]["issueOrPullRequest"]
            guard item.exists else { return .failure(PostError(.failed, "\(failed): GitHub has no such issue or pull request")) }
            func user(_ value: JSONPathValue, _ role: String) {
                let login = value["login"].string ?? value["combinedSlug"].string
                guard let login, !login.isEmpty else { return }
                people.append(ConversationMember(entity: Entity(id: login, name: value["name"].string.flatMap { $0.isEmpty ? nil : $0 } ?? login,
                                                         handle: login, url: "https://github.com/\(login)"), roles: [role]))
            }
            user(item["author"], "author")
            for node in item["assignees"]["nodes"].array ?? [] { user(node, "assignee") }
            for node in item["reviewRequests"]["nodes"].array ?? [] { user(node["requestedReviewer"], "reviewer") }
            for node in item["reviews"]["nodes"].array ?? [] { user(node["author"], "reviewer") }
            for node in item["comments"]["nodes"].array ?? [] { user(node["author"], "commenter") }
        case .gitlabParticipants:
            guard let list = json.array else { return .failure(PostError(.failed, "\(failed): GitLab's answer is not a list")) }
            for person in list {
                guard let id = person["id"].string, let username = person["username"].string else { continue }
                people.append(ConversationMember(entity: Entity(id: id, name: person["name"].string ?? username, handle: username,
                                                         url: person["web_url"].string), roles: ["participant"]))
            }
        case let .slackReplies(thread):
            for message in json["messages"].array ?? [] {
                guard let user = message["user"].string, !user.isEmpty else { continue }
                let role = message["ts"].string == thread ? "author" : "replier"
                people.append(ConversationMember(entity: Entity(id: user, name: user), roles: [role]))
            }
            next = Self.slackNext(call, cursor: json["response_metadata"]["next_cursor"].string)
        case let .slackChannel(name, thread):
            let id = (json["channels"].array ?? []).first { $0["name"].string == name }?["id"].string
            guard let id, case let .http(_, url, headers, _) = call.action, let range = url.firstRange(of: "/conversations.list?") else {
                next = Self.slackNext(call, cursor: json["response_metadata"]["next_cursor"].string)
                if next == nil { return .failure(PostError(.failed, "\(failed): Slack has no channel #\(name) that SLACK_TOKEN can see")) }
                break
            }
            let api = String(url[..<range.lowerBound])
            let query = "channel=\(PostEncoding.percentEncoded(id))&limit=200"
            let auth = headers
            if let thread {
                next = Call(kind: .slackReplies(thread: thread),
                            action: .http(method: "GET", url: "\(api)/conversations.replies?\(query)&ts=\(PostEncoding.percentEncoded(thread))", headers: auth, body: []))
            } else {
                next = Call(kind: .slackMembers, action: .http(method: "GET", url: "\(api)/conversations.members?\(query)", headers: auth, body: []))
            }
        case .slackMembers:
            for member in json["members"].array ?? [] {
                guard let user = member.string, !user.isEmpty else { continue }
                people.append(ConversationMember(entity: Entity(id: user, name: user), roles: ["member"]))
            }
            next = Self.slackNext(call, cursor: json["response_metadata"]["next_cursor"].string)
        case .slackUser:
            // The full name, as a directory gives it, else the name the person shows in
            // Slack, else the account's name (which `@` searches match as a handle).
            let user = json["user"], profile = user["profile"]
            guard let id = user["id"].string, !id.isEmpty else { break }
            let names = [user["real_name"].string, profile["real_name"].string, profile["display_name"].string, user["name"].string]
            let name = names.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? id
            let handle = user["name"].string.flatMap { $0.isEmpty ? nil : $0 }
            people.append(ConversationMember(entity: Entity(id: id, name: name, handle: handle), roles: []))
        case .jiraIssue:
            let fields = json["fields"]
            func account(_ value: JSONPathValue, _ role: String) {
                guard let id = value["accountId"].string, !id.isEmpty else { return }
                people.append(ConversationMember(entity: Entity(id: id, name: value["displayName"].string ?? id), roles: [role]))
            }
            account(fields["reporter"], "reporter")
            account(fields["assignee"], "assignee")
            for comment in fields["comment"]["comments"].array ?? [] { account(comment["author"], "commenter") }
        case .jiraWatchers:
            for watcher in json["watchers"].array ?? [] {
                guard let id = watcher["accountId"].string, !id.isEmpty else { continue }
                people.append(ConversationMember(entity: Entity(id: id, name: watcher["displayName"].string ?? id), roles: ["watcher"]))
            }
        case .zulipMessages:
            // Newest first: who spoke last is most likely to be answered.
            for message in (json["messages"].array ?? []).reversed() {
                guard let id = message["sender_id"].string else { continue }
                people.append(ConversationMember(entity: Entity(id: id, name: message["sender_full_name"].string ?? id), roles: ["sender"]))
            }
        case .matrixMembers:
            guard case let .object(members) = json["joined"].kind else {
                return .failure(PostError(.failed, "\(failed): Matrix's answer has no joined members"))
            }
            for (user, profile) in members {
                let name = JSONPathValue(profile.kind)["display_name"].string.flatMap { $0.isEmpty ? nil : $0 } ?? user
                people.append(ConversationMember(entity: Entity(id: user, name: name), roles: ["member"]))
            }
        }
        return .success(Page(participants: people, next: next))
    }

    /// The same Slack call with `cursor`, when there is a next page.
    private static func slackNext(_ call: Call, cursor: String?) -> Call? {
        call.action.slackPage(cursor: cursor).map { Call(kind: call.kind, action: $0) }
    }
}

extension PostRequest.Action {
    /// The program run, for a program action.
    public var program: String? {
        if case let .program(arguments, _) = self { return arguments.first }
        return nil
    }
}

/// A JSON value walked by member and kind; a missing member is `.null`, so a path through
/// an answer reads in one expression.
struct JSONPathValue {
    let kind: JSONValue.Kind

    init(_ kind: JSONValue.Kind) {
        self.kind = kind
    }

    subscript(_ key: String) -> JSONPathValue {
        guard case let .object(members) = kind, let member = members.first(where: { $0.key == key }) else { return JSONPathValue(.null) }
        return JSONPathValue(member.value.kind)
    }

    var exists: Bool {
        if case .null = kind { return false }
        return true
    }

    /// A string, or a number's literal (ids are numbers in some answers).
    var string: String? {
        switch kind {
        case let .string(text): text
        case let .number(literal): literal
        default: nil
        }
    }

    var bool: Bool? {
        if case let .bool(flag) = kind { return flag }
        return nil
    }

    var array: [JSONPathValue]? {
        if case let .array(items) = kind { return items.map { JSONPathValue($0.kind) } }
        return nil
    }
}
