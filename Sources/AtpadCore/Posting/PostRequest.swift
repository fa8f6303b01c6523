/// The one request a post makes, worked out from the target, the comment and the
/// environment and nothing else (so every service's request is unit-tested byte for byte):
/// an HTTP request for the chat services and Jira, or the `gh`/`glab` command line with
/// the body for its stdin. The runtime only performs it (`PostTransport`) and hands the
/// reply back to ``outcome(of:)``.
public struct PostRequest: Equatable, Sendable {
    /// What is sent.
    public enum Action: Equatable, Sendable {
        /// An HTTP request; the body is sent as it is.
        case http(method: String, url: String, headers: [PostHeader], body: [UInt8])
        /// A program run with exactly these arguments (no shell), the body on its stdin
        /// (never on the command line, where a long comment would not fit).
        case program(arguments: [String], stdin: [UInt8])
    }

    public let target: PostTarget
    public let action: Action
    /// For a target given by name — a Matrix alias, a Slack `#channel` — the request that
    /// finds its id, made before ``action`` (which names the target by name until
    /// ``resolving(_:of:)`` puts the id there).
    public let lookup: Action?

    /// Slack's list of the channels a token sees (`conversations.list`), where a channel
    /// given by `#name` is looked up, for posting and for the participants alike.
    static func slackChannelList(api: String) -> String {
        api + "/conversations.list?types=public_channel%2Cprivate_channel&exclude_archived=true&limit=1000"
    }

    /// What a lookup's answer leads to.
    public enum LookupStep: Equatable, Sendable {
        /// The post, now naming the id.
        case post(PostRequest)
        /// The next page of the list to look in (Slack's channels come in pages).
        case next(Action)
        /// Not found, or the lookup failed: nothing is posted; one line says why.
        case failed(PostError)
    }
    /// Where a Jira comment can be seen (`$JIRA_URL/browse/KEY-1`), to make its URL.
    let site: String?

    /// The request that posts `document` to `target`, in the target's format (`lookup`
    /// gives handles), as the service's own composer sends it when `source` — the format
    /// the comment was read in, nil for one made in the editor — is Markdown
    /// (`DocumentFormat.encodeUTF8(_:lookup:from:)`). `environment` supplies the service's address and token;
    /// `transactionID` makes a Matrix post unique (a fresh one per post: Matrix treats a
    /// repeated one as the same message). A missing variable, or a comment the format
    /// cannot carry, is an error of kind `.usage` — unless `placeholders` (`--dry-run`),
    /// where a missing variable is written `${NAME}`. `parse` is the Markdown parse kept
    /// when the comment was read (`DecodedDocument.markdown`).
    public init(target: PostTarget, document: MarkedText, lookup: EntityLookup = .empty, from source: DocumentFormat? = nil,
                reusing parse: ParsedMarkdown? = nil,
                environment: [String: String], transactionID: String, placeholders: Bool = false) throws(PostError) {
        self.target = target
        var variables = ServiceVariables(environment: environment, purpose: "to post to \(target.serviceName)")
        variables.placeholders = placeholders
        func variable(_ name: String) throws(PostError) -> String { try variables.value(name) }
        func base(_ name: String) throws(PostError) -> String { try variables.base(name) }
        let body: [UInt8]
        do {
            body = try target.format.encodeBytes(document, lookup: lookup, from: source, reusing: parse)
        } catch {
            throw PostError(.usage, "cannot post to \(target): \(error.message)")
        }
        var site: String?
        var lookup: Action?
        switch target {
        case let .github(owner, repository, number):
            action = .program(arguments: ["gh", "api", "--method", "POST",
                                          "repos/\(owner)/\(repository)/issues/\(number)/comments", "-F", "body=@-"],
                              stdin: body)
        case let .gitlab(project, item, number):
            let path = "projects/\(PostEncoding.percentEncoded(project))/\(item == .issue ? "issues" : "merge_requests")/\(number)/notes"
            action = .program(arguments: ["glab", "api", "--method", "POST", path, "-F", "body=@-"], stdin: body)
        case let .slack(channel, thread):
            let token = try variable("SLACK_TOKEN")
            var api = environment["ATPAD_SLACK_API"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://slack.com/api"
            while api.hasSuffix("/") { api.removeLast() }
            guard let text = String(validating: body, as: UTF8.self) else { throw PostError(.usage, "cannot post to \(target): the text is not UTF-8") }
            if channel.hasPrefix("#") {
                // Slack wants the channel's id: found by name in the channels the token sees.
                lookup = .http(method: "GET", url: Self.slackChannelList(api: api),
                               headers: [PostHeader(name: "Authorization", scheme: "Bearer", secret: token)], body: [])
            }
            var message: [(key: String, value: JSONValue)] = [("channel", .string(channel)), ("text", .string(text))]
            if let thread { message.append(("thread_ts", .string(thread))) }
            action = .http(method: "POST", url: api + "/chat.postMessage",
                           headers: [PostHeader(name: "Authorization", scheme: "Bearer", secret: token),
                                     PostHeader(name: "Content-Type", value: "application/json; charset=utf-8")],
                           body: JSONWriter.utf8(.object(message)))
        case let .jira(issue):
            let url = try base("JIRA_URL")
            let user = try variable("JIRA_USER"), token = try variable("JIRA_TOKEN")
            site = url
            action = .http(method: "POST", url: url + "/rest/api/3/issue/\(issue)/comment",
                           headers: [PostHeader(name: "Authorization", scheme: "Basic", secret: PostEncoding.base64(Array("\(user):\(token)".utf8))),
                                     PostHeader(name: "Content-Type", value: "application/json; charset=utf-8")],
                           body: Self.jiraComment(adf: body))
        case let .zulip(stream, topic):
            let url = try base("ZULIP_SITE")
            let email = try variable("ZULIP_EMAIL"), key = try variable("ZULIP_API_KEY")
            let form = [("type", Array("stream".utf8)), ("to", Array(stream.utf8)), ("topic", Array(topic.utf8)), ("content", body)]
                .map { name, value in name + "=" + PostEncoding.formEncoded(value) }.joined(separator: "&")
            action = .http(method: "POST", url: url + "/api/v1/messages",
                           headers: [PostHeader(name: "Authorization", scheme: "Basic", secret: PostEncoding.base64(Array("\(email):\(key)".utf8))),
                                     PostHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                           body: Array(form.utf8))
        case let .matrix(room):
            let url = try base("MATRIX_HOMESERVER")
            let token = try variable("MATRIX_TOKEN")
            if let alias = target.matrixAlias {
                lookup = .http(method: "GET", url: url + "/_matrix/client/v3/directory/room/\(PostEncoding.percentEncoded(alias))",
                               headers: [PostHeader(name: "Authorization", scheme: "Bearer", secret: token)], body: [])
            }
            action = .http(method: "PUT",
                           url: url + "/_matrix/client/v3/rooms/\(PostEncoding.percentEncoded(room))/send/m.room.message/\(PostEncoding.percentEncoded(transactionID))",
                           headers: [PostHeader(name: "Authorization", scheme: "Bearer", secret: token),
                                     PostHeader(name: "Content-Type", value: "application/json; charset=utf-8")],
                           body: body)
        }
        self.site = site
        self.lookup = lookup
    }

    /// A request whose action is given as it is (a local server's URL, say) rather than made
    /// from a target.
    init(target: PostTarget, action: Action, site: String? = nil, lookup: Action? = nil) {
        self.target = target
        self.action = action
        self.site = site
        self.lookup = lookup
    }

    /// What the answer `reply` to `lookup` (``lookup``, or a later page of it) leads to: the
    /// post naming the id the service gave, the next page to look in, or why nothing is
    /// posted (no room has that alias, no channel has that name, the token was refused, the
    /// server could not be reached).
    public func resolving(_ reply: PostReply, of lookup: Action) -> LookupStep {
        let notPosted = "Not posted to \(target)"
        let name: String
        switch target {
        case let .matrix(room): name = room
        case let .slack(channel, _): name = channel
        default: return .post(self)
        }
        let answer: PostAnswer, status: Int
        switch reply {
        case let .http(code, _, body):
            answer = PostAnswer(body)
            status = code
        case let .notSent(reason), let .noAnswer(reason), let .lookupFailed(reason):
            return .failed(PostError(.failed, "\(notPosted): looking up \(name): \(reason)"))
        case .program:
            return .failed(PostError(.failed, "\(notPosted): looking up \(name) gave no answer"))
        }
        switch target {
        case .matrix:
            if (200 ..< 300).contains(status), let room = answer.string("room_id"), room.hasPrefix("!") {
                return .post(naming(name, as: room))
            }
            var line = "\(notPosted): the homeserver found no room for \(name) (HTTP \(status)"
            if let error = answer.serviceError { line += " \(error)" }
            line += ")"
            if status == 401 { line += "; check MATRIX_TOKEN" }
            return .failed(PostError(.failed, line))
        default:
            guard (200 ..< 300).contains(status), answer.bool("ok") == true else {
                let error = answer.string("error") ?? "HTTP \(status)"
                let auth = ["invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "missing_scope"]
                return .failed(PostError(.failed, "\(notPosted): looking up \(name): Slack says \(error)"
                                         + (auth.contains(error) ? "; check SLACK_TOKEN" : "")))
            }
            let wanted = String(name.dropFirst())
            if let id = answer.slackChannelID(named: wanted) { return .post(naming(name, as: id)) }
            if let page = lookup.slackPage(cursor: answer.slackNextCursor) { return .next(page) }
            return .failed(PostError(.failed, "\(notPosted): Slack has no channel \(name) that SLACK_TOKEN can see; give its id (slack:C0123)"))
        }
    }

    /// This request with the target's name replaced by `id` where the service reads it: a
    /// Matrix room's URL, a Slack message's `channel`.
    private func naming(_ name: String, as id: String) -> PostRequest {
        guard case let .http(method, url, headers, body) = action else { return self }
        switch target {
        case .matrix:
            let resolved = url.replacingFirst("/rooms/\(PostEncoding.percentEncoded(name))/", with: "/rooms/\(PostEncoding.percentEncoded(id))/")
            return PostRequest(target: target, action: .http(method: method, url: resolved, headers: headers, body: body), site: site)
        default:
            // `channel` is the message's first member, as this request wrote it.
            let named = JSONWriter.utf8(.object([("channel", .string(name))])).dropLast()
            let replacement = JSONWriter.utf8(.object([("channel", .string(id))])).dropLast()
            guard body.starts(with: named) else { return self }
            return PostRequest(target: target, action: .http(method: method, url: url, headers: headers,
                                                             body: Array(replacement) + body[named.count...]), site: site)
        }
    }

    /// The program the request runs (`gh`, `glab`), if it runs one.
    public var program: String? {
        if case let .program(arguments, _) = action { return arguments.first }
        return nil
    }

    /// The request as `--dry-run` prints it: the method and URL (or the argument list),
    /// the headers with every secret as `***`, a blank line, and the exact body.
    public var dryRun: [UInt8] {
        var head: [String] = []
        if case let .http(method, url, _, _)? = lookup {
            head.append("\(method) \(url)   (the id of \(target.namedPlace ?? "the target"), which the post then names)")
        }
        let body: [UInt8]
        switch action {
        case let .http(method, url, headers, sent):
            head += ["\(method) \(url)"] + headers.map(\.description)
            body = sent
        case let .program(arguments, stdin):
            head += [arguments.map(PostEncoding.shellWord).joined(separator: " ")]
            body = stdin
        }
        return Array((head.joined(separator: "\n") + "\n\n").utf8) + body
    }

    /// Jira's comment object around its `adf` body, which the same writer wrote.
    private static func jiraComment(adf: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(capacity: adf.count + 16)
        writer.object { writer in
            writer.key("body")
            writer.raw(adf)
        }
        return writer.bytes
    }
}

extension PostRequest.Action {
    /// The same Slack request asking for the page after `cursor`, when there is one.
    func slackPage(cursor: String?) -> PostRequest.Action? {
        guard let cursor, !cursor.isEmpty, case let .http(method, url, headers, body) = self else { return nil }
        // The query's values are percent-encoded: `&` only separates them.
        let base = url.split(separator: "&", omittingEmptySubsequences: false).filter { !$0.hasPrefix("cursor=") }
            .joined(separator: "&")
        return .http(method: method, url: base + "&cursor=" + PostEncoding.percentEncoded(cursor), headers: headers, body: body)
    }
}

/// A header of a post. A secret part (a token, a password) prints as `***`: the header
/// may end up in a message or `--dry-run`'s output and still leaks nothing.
public struct PostHeader: Equatable, Sendable, CustomStringConvertible {
    public let name: String
    /// Shown before the secret (`Bearer`), or nil when the whole value is public.
    public let scheme: String?
    /// The value sent.
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.scheme = nil
        self.value = value
        isSecret = false
    }

    public init(name: String, scheme: String, secret: String) {
        self.name = name
        self.scheme = scheme
        self.value = scheme + " " + secret
        isSecret = true
    }

    private let isSecret: Bool

    public var description: String {
        isSecret ? "\(name): \(scheme ?? "") ***" : "\(name): \(value)"
    }
}

/// The encodings a request needs: Base64 for Basic auth, percent-encoding for paths and
/// forms, and shell quoting for showing an argument list.
enum PostEncoding {
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for k in 0 ..< 4 {
                out.append(k <= n ? alphabet[Int((chunk >> (18 - 6 * UInt32(k))) & 63)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every byte but the unreserved ones (letters, digits, `-._~`) as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        encoded(Array(text.utf8))
    }

    /// A form value (`application/x-www-form-urlencoded`): as a path part, a space as `%20`.
    static func formEncoded(_ bytes: [UInt8]) -> String {
        encoded(bytes)
    }

    private static func encoded(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for b in bytes {
            switch b {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                 UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `word` as a POSIX shell would need it to read it back as one word.
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || ("0" ... "9").contains(s) || "-_./=@%:+,".unicodeScalars.contains(s))
        }
        return plain ? word : "'" + word.replacingAll("'", with: #"'\''"#) + "'"
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var replaced = self
        replaced.replaceSubrange(range, with: replacement)
        return replaced
    }

    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
