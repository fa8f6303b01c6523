/// A person (or channel, or anything mentionable) as a directory describes it.
public struct Entity: Hashable, Sendable {
    public var id: String
    public var name: String
    public var handle: String?
    public var detail: String?
    public var url: String?
    /// Text that picking this entity inserts instead of a mention (an insert completion,
    /// SPEC §3: an emoji, an issue number).
    public var insert: String?

    @inlinable
    public init(id: String, name: String, handle: String? = nil, detail: String? = nil, url: String? = nil,
                insert: String? = nil) {
        self.id = id
        self.name = name
        self.handle = handle
        self.detail = detail
        self.url = url
        self.insert = insert
    }
}

/// One ranked answer to a query: the entity and the ranges of its name that matched.
///
/// `matches` are half-open ranges of Unicode-scalar offsets into `entity.name`, sorted and
/// disjoint; the chooser emphasises them.
public struct Candidate: Hashable, Sendable {
    public var entity: Entity
    public var matches: [Range<Int>]
    /// Whether the entity matched strongly (SPEC §4 classes 1 and 2: a word or the handle
    /// starts with the query, or the query is its initials); nil when the source did not
    /// rank it (commands and URLs keep their own order). Implicit searches show only
    /// strong matches.
    public var isStrong: Bool?
    /// What the entity is in the conversation the comment is posted to (`author`,
    /// `reviewer`…; `--to`); empty for anyone who is not in it. The chooser marks a
    /// participant and shows these in the detail column.
    public var roles: [String]

    public init(entity: Entity, matches: [Range<Int>] = [], isStrong: Bool? = nil, roles: [String] = []) {
        self.entity = entity
        self.matches = matches
        self.isStrong = isStrong
        self.roles = roles
    }

    /// Whether the entity is in the conversation the comment is posted to.
    public var isParticipant: Bool { !roles.isEmpty }
}
