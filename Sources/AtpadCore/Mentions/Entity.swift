/// A person (or channel, or anything mentionable) as a directory describes it.
public struct Entity: Hashable, Sendable {
    public var id: String
    public var name: String
    public var handle: String?
    public var detail: String?
    public var url: String?

    @inlinable
    public init(id: String, name: String, handle: String? = nil, detail: String? = nil, url: String? = nil) {
        self.id = id
        self.name = name
        self.handle = handle
        self.detail = detail
        self.url = url
    }
}

/// One ranked answer to a query: the entity and the ranges of its name that matched.
///
/// `matches` are half-open ranges of Unicode-scalar offsets into `entity.name`, sorted and
/// disjoint; the chooser emphasises them.
public struct Candidate: Hashable, Sendable {
    public var entity: Entity
    public var matches: [Range<Int>]

    public init(entity: Entity, matches: [Range<Int>] = []) {
        self.entity = entity
        self.matches = matches
    }
}
