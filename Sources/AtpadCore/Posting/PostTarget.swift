/// Where a comment is posted: an issue or merge request, a channel or thread, a Jira
/// issue, a Zulip topic or a Matrix room, written as `service:place` on the command line
/// (`--to`, `atpad post`). Parsing checks the shape only; whether the place exists is the
/// service's answer.
public enum PostTarget: Hashable, Sendable, CustomStringConvertible {
    /// `github:OWNER/REPO#N`: a comment on issue or pull request N.
    case github(owner: String, repository: String, number: Int)
    /// `gitlab:GROUP/PROJECT#N` (an issue) or `gitlab:GROUP/PROJECT!N` (a merge request);
    /// `project` is the whole path, subgroups included.
    case gitlab(project: String, item: GitLabItem, number: Int)
    /// `slack:CHANNEL` or `slack:CHANNEL/THREAD_TS`.
    case slack(channel: String, thread: String?)
    /// `jira:KEY-123`.
    case jira(issue: String)
    /// `zulip:STREAM/TOPIC`.
    case zulip(stream: String, topic: String)
    /// `matrix:ROOM`: a room id (`!opaque`, or `!opaque:server` in rooms made before room
    /// version 12) or an alias (`#team:server`), which the homeserver's directory resolves.
    case matrix(room: String)

    /// What a GitLab target comments on.
    public enum GitLabItem: Hashable, Sendable {
        case issue
        case mergeRequest
    }

    /// The shapes, for help texts and errors.
    public static let shapes = "github:OWNER/REPO#N, gitlab:GROUP/PROJECT#N or !N, slack:CHANNEL[/THREAD_TS], jira:KEY-123, zulip:STREAM/TOPIC, matrix:ROOM_ID or matrix:#ALIAS:SERVER"

    /// Reads `text` (`github:octo/atpad#12`); an error names what is wrong and the shape
    /// expected.
    public init(parsing text: String) throws(PostError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw PostError(.usage, "bad target \"\(text)\": expected one of \(Self.shapes)")
        }
        let service = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        func bad(_ shape: String) -> PostError {
            PostError(.usage, "bad target \"\(text)\": expected \(shape)")
        }
        switch service {
        case "github":
            let shape = "github:OWNER/REPO#N"
            guard let hash = rest.lastIndex(of: "#"), let number = Self.number(rest[rest.index(after: hash)...]) else { throw bad(shape) }
            let parts = rest[..<hash].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy(Self.isPathSegment) else { throw bad(shape) }
            self = .github(owner: String(parts[0]), repository: String(parts[1]), number: number)
        case "gitlab":
            let shape = "gitlab:GROUP/PROJECT#N (an issue) or gitlab:GROUP/PROJECT!N (a merge request)"
            guard let mark = rest.lastIndex(where: { $0 == "#" || $0 == "!" }),
                  let number = Self.number(rest[rest.index(after: mark)...]) else { throw bad(shape) }
            let parts = rest[..<mark].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts.allSatisfy(Self.isPathSegment) else { throw bad(shape) }
            self = .gitlab(project: String(rest[..<mark]), item: rest[mark] == "#" ? .issue : .mergeRequest, number: number)
        case "slack":
            let shape = "slack:CHANNEL or slack:CHANNEL/THREAD_TS (CHANNEL an id such as C0123 or #name, THREAD_TS such as 1700000000.000100)"
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let channel = parts[0]
            let isName = channel.first == "#" && channel.count > 1
                && channel.dropFirst().allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
            let isID = !channel.isEmpty && channel.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            guard isName || isID else { throw bad(shape) }
            var thread: String?
            if parts.count == 2 {
                let ts = parts[1].split(separator: ".", omittingEmptySubsequences: false)
                guard ts.count == 2, ts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { throw bad(shape) }
                thread = String(parts[1])
            }
            self = .slack(channel: String(channel), thread: thread)
        case "jira":
            let shape = "jira:KEY-123"
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let first = parts[0].first, first.isASCII, first.isUppercase,
                  parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }),
                  Self.number(parts[1]) != nil else { throw bad(shape) }
            self = .jira(issue: rest)
        case "zulip":
            let shape = "zulip:STREAM/TOPIC"
            guard let slash = rest.firstIndex(of: "/") else { throw bad(shape) }
            let stream = String(rest[..<slash]), topic = String(rest[rest.index(after: slash)...])
            guard !stream.isEmpty, !topic.isEmpty, !(stream + topic).unicodeScalars.contains(where: Self.isControl) else {
                throw bad(shape)
            }
            self = .zulip(stream: stream, topic: topic)
        case "matrix":
            let shape = "matrix:ROOM_ID (a room id such as !abc123 or !abc123:example.org) or matrix:#ALIAS:SERVER"
            guard !rest.unicodeScalars.contains(where: { Self.isControl($0) || $0 == " " || $0 == "/" }) else { throw bad(shape) }
            switch rest.first {
            case "!":
                // Any opaque id: room version 12 ids have no server part.
                guard rest.count > 1, !rest.hasSuffix(":") else { throw bad(shape) }
            case "#":
                guard let colon = rest.firstIndex(of: ":"), colon > rest.index(after: rest.startIndex),
                      rest.index(after: colon) < rest.endIndex else { throw bad(shape) }
            default:
                throw bad(shape)
            }
            self = .matrix(room: rest)
        default:
            throw PostError(.usage, "bad target \"\(text)\": unknown service \"\(text[..<colon])\"; expected one of \(Self.shapes)")
        }
    }

    /// The target as written on the command line.
    public var description: String {
        switch self {
        case let .github(owner, repository, number): "github:\(owner)/\(repository)#\(number)"
        case let .gitlab(project, item, number): "gitlab:\(project)\(item == .issue ? "#" : "!")\(number)"
        case let .slack(channel, thread): "slack:\(channel)" + (thread.map { "/\($0)" } ?? "")
        case let .jira(issue): "jira:\(issue)"
        case let .zulip(stream, topic): "zulip:\(stream)/\(topic)"
        case let .matrix(room): "matrix:\(room)"
        }
    }

    /// The format the comment is written in for this service.
    public var format: DocumentFormat {
        switch self {
        case .github: .github
        case .gitlab: .gitlab
        case .slack: .slack
        case .jira: .adf
        case .zulip: .zulip
        case .matrix: .matrix
        }
    }

    /// The service's name as people call it.
    public var serviceName: String {
        switch self {
        case .github: "GitHub"
        case .gitlab: "GitLab"
        case .slack: "Slack"
        case .jira: "Jira"
        case .zulip: "Zulip"
        case .matrix: "Matrix"
        }
    }

    /// The room alias (`#team:example.org`) of a Matrix target given by alias, which the
    /// homeserver resolves to a room id before the post; nil for any other target.
    public var matrixAlias: String? {
        if case let .matrix(room) = self, room.hasPrefix("#") { return room }
        return nil
    }

    /// The place as named rather than by id — a Matrix alias, a Slack `#channel` — which
    /// a lookup turns into its id before a post; nil when the target is an id.
    public var namedPlace: String? {
        if let alias = matrixAlias { return alias }
        if case let .slack(channel, _) = self, channel.hasPrefix("#") { return channel }
        return nil
    }

    /// Whether plain `@login` text notifies on this service (GitHub and GitLab read
    /// mentions from the text, so an `@word` that is not a mention may still ping someone;
    /// the chat services and Jira notify only the mentions atpad writes as such).
    public var readsMentionsFromText: Bool {
        switch self {
        case .github, .gitlab: true
        default: false
        }
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy(\.isASCIIDigit), let n = Int(text), n > 0 else { return nil }
        return n
    }

    /// A part of an owner, repository, group or project name: letters, digits, `.`, `-`, `_`.
    private static func isPathSegment(_ part: Substring) -> Bool {
        !part.isEmpty && part != "." && part != ".."
            && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Why a post could not be made or set up, in one line. `kind` decides the exit status of
/// `atpad post`: a usage problem (a bad target, a missing variable or tool) is 2, a post
/// that failed is 1.
public struct PostError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Nothing was sent: the command line, the environment or the machine is not ready.
        case usage
        /// The post was tried and failed (or its fate is unknown).
        case failed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
