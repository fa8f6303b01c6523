/// What the service (or `gh`/`glab`) said to a post, as the transport got it.
public enum PostReply: Equatable, Sendable {
    /// An HTTP answer: its status, its `Retry-After` header if any, and its body.
    case http(status: Int, retryAfter: String?, body: [UInt8])
    /// The program ended: `status` (nil when killed by a signal), its stdout, and the
    /// last line it wrote to stderr.
    case program(status: Int32?, output: [UInt8], errorLine: String?)
    /// Nothing reached the service (no connection, no program): `reason` says why.
    case notSent(reason: String)
    /// The request left but no answer came (a timeout, a dropped connection): the comment
    /// may or may not have been posted.
    case noAnswer(reason: String)
    /// A lookup the post needed first (a Matrix alias's room) failed: nothing was sent;
    /// `line` is the whole message.
    case lookupFailed(String)
}

/// How a post ended, for the message line and `atpad post`.
public enum PostOutcome: Equatable, Sendable {
    /// Posted; `result` is what identifies the comment (its URL, Slack's channel and
    /// `ts`, Zulip's message id, Matrix's event id).
    case posted(result: String)
    /// Not posted; one line saying why.
    case failed(String)
    /// Unknown: no answer came. Never retried by atpad: the person checks first.
    case unknown(String)

    /// The line shown for a post that did not end in `.posted`.
    public var message: String? {
        switch self {
        case .posted: nil
        case let .failed(text), let .unknown(text): text
        }
    }
}

extension PostRequest {
    /// The token variables a 401 or 403 points at.
    var credentials: String { Self.credentials(of: target) }

    /// The token variables (or tool login) a 401 or 403 from `target` points at.
    static func credentials(of target: PostTarget) -> String {
        switch target {
        case .github: "gh's login (gh auth status; GH_TOKEN)"
        case .gitlab: "glab's login (glab auth status; GITLAB_TOKEN)"
        case .slack: "SLACK_TOKEN"
        case .jira: "JIRA_USER and JIRA_TOKEN"
        case .zulip: "ZULIP_EMAIL and ZULIP_API_KEY"
        case .matrix: "MATRIX_TOKEN"
        }
    }

    /// Reads the service's reply: the comment's identity on success, else one line
    /// naming the target, the HTTP status and the service's own error (a 401/403 names
    /// the token variable, a 429 the wait `Retry-After` asks for).
    public func outcome(of reply: PostReply) -> PostOutcome {
        let notPosted = "Not posted to \(target)"
        switch reply {
        case let .notSent(reason):
            return .failed("\(notPosted): \(reason)")
        case let .lookupFailed(line):
            return .failed(line)
        case let .noAnswer(reason):
            return .unknown("No answer from \(target.serviceName) (\(reason)): the comment may or may not have been posted to \(target); check there before posting again")
        case let .program(status, output, errorLine):
            let tool = program ?? "the program"
            guard status == 0 else {
                var line = errorLine.map(PostAnswer.visible) ?? (status.map { "\(tool) exited with status \($0)" } ?? "\(tool) was killed")
                if let status, errorLine != nil { line += " (\(tool) exited with status \(status))" }
                if line.contains("401") || line.contains("403") || line.lowercased().contains("auth") { line += "; check \(credentials)" }
                return .failed("\(notPosted): \(line)")
            }
            let answer = PostAnswer(output)
            switch target {
            case .github:
                if let url = answer.string("html_url") { return .posted(result: url) }
            default:
                let id = answer.string("id")
                let url = answer.string("web_url") ?? answer.string("url")
                if let id { return .posted(result: url.map { "\(id) \($0)" } ?? id) }
            }
            let field: String
            if case .github = target { field = "html_url" } else { field = "id" }
            return .unknown("\(tool) ended without error but its answer has no \(field): the comment may or may not have been posted to \(target)")
        case let .http(status, retryAfter, body):
            let answer = PostAnswer(body)
            if (200 ..< 300).contains(status) {
                switch target {
                case .slack:
                    if answer.bool("ok") == true, let channel = answer.string("channel"), let ts = answer.string("ts") {
                        return .posted(result: "\(channel) \(ts)")
                    }
                    if answer.bool("ok") == false {
                        let error = answer.string("error") ?? "an error"
                        let auth = ["invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "missing_scope"]
                        return .failed("\(notPosted): Slack says \(error)" + (auth.contains(error) ? "; check SLACK_TOKEN" : ""))
                    }
                case .jira:
                    if let id = answer.string("id") {
                        if case let .jira(issue) = target, let site { return .posted(result: "\(site)/browse/\(issue)?focusedCommentId=\(id)") }
                        return .posted(result: id)
                    }
                case .zulip:
                    if answer.string("result") == "success", let id = answer.string("id") { return .posted(result: id) }
                case .matrix:
                    if let id = answer.string("event_id") { return .posted(result: id) }
                default:
                    break
                }
                return .unknown("\(target.serviceName) answered HTTP \(status) without the expected fields: the comment may or may not have been posted to \(target)")
            }
            var line = "\(notPosted): HTTP \(status)"
            if let error = answer.serviceError ?? Self.textExcerpt(body) { line += " \(error)" }
            switch status {
            case 403 where isMatrix:
                // Matrix refuses a good token with 403 too: its words say which case it is.
                let error = (answer.serviceError ?? "").lowercased()
                if error.contains("m_unknown_token") || error.contains("m_missing_token") {
                    line += "; check \(credentials)"
                } else if error.contains("not in room") || error.contains("not in the room") || error.contains("not joined") {
                    line += "; the account of MATRIX_TOKEN is not in the room: join it first"
                } else {
                    line += "; the account of MATRIX_TOKEN may not post in this room"
                }
            case 401, 403:
                line += "; check \(credentials)"
            case 429:
                if let retryAfter = retryAfter?.trimmed, !retryAfter.isEmpty {
                    line += retryAfter.allSatisfy(\.isNumber) ? "; \(target.serviceName) asks to wait \(retryAfter) s (Retry-After)"
                        : "; \(target.serviceName) asks to wait until \(retryAfter) (Retry-After)"
                } else {
                    line += "; too many requests, wait before posting again"
                }
            default:
                break
            }
            return .failed(line)
        }
    }

    private var isMatrix: Bool {
        if case .matrix = target { return true }
        return false
    }

    /// The start of a body that is not JSON (an HTML error page, a proxy's text), as one
    /// short line.
    private static func textExcerpt(_ body: [UInt8]) -> String? {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmed ?? ""
        guard !line.isEmpty, !line.hasPrefix("{"), !line.hasPrefix("<") else { return nil }
        return line.unicodeScalars.contains { $0.properties.generalCategory == .control } ? nil : line
    }
}

/// A service's JSON answer, read for the few fields a post looks at.
struct PostAnswer {
    private let members: [(key: String, value: JSONValue)]

    init(_ bytes: [UInt8]) {
        let value = bytes.withUnsafeBufferPointer { try? JSONReader.value(of: $0) }
        if case let .object(members)? = value?.kind { self.members = members } else { members = [] }
    }

    private func value(_ key: String) -> JSONValue.Kind? {
        members.first { $0.key == key }?.value.kind
    }

    /// A string member, or a number's literal (ids are numbers in some answers).
    func string(_ key: String) -> String? {
        switch value(key) {
        case let .string(text)?: text
        case let .number(literal)?: literal
        default: nil
        }
    }

    /// The id of the channel called `name` in a Slack `conversations.list` answer.
    func slackChannelID(named name: String) -> String? {
        guard case let .array(channels)? = value("channels") else { return nil }
        for channel in channels {
            guard case let .object(fields) = channel.kind else { continue }
            let member = { (key: String) -> String? in
                if case let .string(text)? = fields.first(where: { $0.key == key })?.value.kind { return text }
                return nil
            }
            if member("name") == name, let id = member("id") { return id }
        }
        return nil
    }

    /// Slack's cursor of the next page (`response_metadata.next_cursor`), if there is one.
    var slackNextCursor: String? {
        guard case let .object(meta)? = value("response_metadata"),
              case let .string(cursor)? = meta.first(where: { $0.key == "next_cursor" })?.value.kind, !cursor.isEmpty else { return nil }
        return cursor
    }

    func bool(_ key: String) -> Bool? {
        if case let .bool(flag)? = value(key) { return flag }
        return nil
    }

    /// The service's own words for what went wrong: Slack's `error`, Zulip's `msg`,
    /// Matrix's `error` (and `errcode`), Jira's `errorMessages` and `errors`, GitHub's
    /// and GitLab's `message`.
    var serviceError: String? {
        var parts: [String] = []
        if let code = string("errcode") { parts.append(code) }
        for key in ["error", "msg", "message", "error_description"] {
            if let text = string(key), !text.isEmpty { parts.append(text) }
        }
        if case let .array(messages)? = value("errorMessages") {
            for case let .string(text) in messages.map(\.kind) { parts.append(text) }
        }
        if case let .object(errors)? = value("errors") {
            for (field, value) in errors { if case let .string(text) = value.kind { parts.append("\(field): \(text)") } }
        }
        guard !parts.isEmpty else { return nil }
        return Self.visible(parts.joined(separator: ": "))
    }

    /// Text from a server or a program as one short line: never raw control characters
    /// (they would reach the terminal), never a screenful.
    static func visible(_ line: String) -> String {
        let visible = String(String.UnicodeScalarView(line.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        return visible.count > 200 ? String(visible.prefix(200)) + "…" : visible
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
