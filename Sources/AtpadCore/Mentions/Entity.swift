/// A person (or channel, or anything mentionable) as a directory describes it.
public struct Entity: Hashable, Sendable {
    public var id: String
    public var name: String
    public var handle: String?
    public var detail: String?
    public var url: String?
    /// Text that picking this entity inserts instead of a mention (an insert completion,
    /// docs/directories.md, "Directory files": an emoji, an issue number).
    public var insert: String?
    /// The address a git trailer credits (`Co-authored-by: Name <email>`).
    public var email: String?
    /// The person's id on each service (`accounts.slack = "U0123"`), which that service's
    /// format writes and reads (``EntityLookup/writtenID(of:in:)``). Empty for most
    /// entities: then `id` and `handle` serve every format, as they always have.
    public var accounts: [Service: String]

    @inlinable
    public init(id: String, name: String, handle: String? = nil, detail: String? = nil, url: String? = nil,
                insert: String? = nil, email: String? = nil, accounts: [Service: String] = [:]) {
        self.id = id
        self.name = name
        self.handle = handle
        self.detail = detail
        self.url = url
        self.insert = insert
        self.email = email
        self.accounts = accounts
    }
}

/// A service a person has an account on, whose id an entity's `accounts` may hold: the
/// services whose formats write a person by an id of their own.
public enum Service: String, CaseIterable, Hashable, Sendable, Comparable {
    case github, gitlab, slack, jira, zulip, matrix

    /// The service called `name` (exactly, lower case), as `accounts.NAME` spells it.
    public init?(name: String) {
        self.init(rawValue: name)
    }

    /// The service names, comma-separated, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public static func < (a: Service, b: Service) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One ranked answer to a query: the entity and the ranges of its name that matched.
///
/// `matches` are half-open ranges of Unicode-scalar offsets into `entity.name`, sorted and
/// disjoint; the chooser emphasises them.
public struct Candidate: Hashable, Sendable {
    public var entity: Entity
    public var matches: [Range<Int>]
    /// Whether the entity matched strongly (the first two classes of
    /// docs/directories.md, "Ranking and frecency": a word or the handle starts with the
    /// query, or the query is its initials); nil when the source did not rank it (commands
    /// and URLs keep their own order). Implicit searches show only strong matches.
    public var isStrong: Bool?
    /// For a person in the conversation being answered
    /// (docs/posting.md, "Participants: the conversation's people first"), their part in it
    /// (`author`, `reviewer`, `assignee`, `commenter`): the chooser marks them and shows
    /// it. Nil for everyone else.
    public var participantRole: String?

    public init(entity: Entity, matches: [Range<Int>] = [], isStrong: Bool? = nil, participantRole: String? = nil) {
        self.entity = entity
        self.matches = matches
        self.isStrong = isStrong
        self.participantRole = participantRole
    }
}
