/// What the formats ask of the directory, per trigger: an entity by id (to write its handle
/// or url), by handle (`github`), by url (`markdown`), or by the first word of its name
/// (`github`, for entities that have no handle and were written by name).
///
/// Built once from the entities of each trigger's directory, insert completions left
/// out (they are text, never read back as mentions); of several entities with one
/// id only the first counts (as in a directory), and of several with one handle or url,
/// the first in directory order wins. Handles match without regard to case, as on
/// GitHub.
public struct EntityLookup: Sendable {
    /// The triggers that have a directory: `@` first, then in markup trigger order.
    public let triggers: [Unicode.Scalar]
    private let tables: [Unicode.Scalar: Table]

    /// No directory at all: every lookup misses.
    public static let empty = EntityLookup([:])

    /// A lookup over each trigger's entities.
    public init(_ directories: [Unicode.Scalar: [Entity]]) {
        var tables: [Unicode.Scalar: Table] = [:]
        for (trigger, entities) in directories {
            let table = Table(entities)
            // A directory of insert completions alone (emoji) gives nothing to read.
            if !table.byID.isEmpty || entities.isEmpty { tables[trigger] = table }
        }
        self.tables = tables
        let order = AtpadMarkup.triggers
        triggers = tables.keys.sorted { a, b in
            let ia = order.firstIndex(of: a) ?? order.count, ib = order.firstIndex(of: b) ?? order.count
            return ia != ib ? ia < ib : a.value < b.value
        }
    }

    /// Whether no trigger has a directory.
    public var isEmpty: Bool { tables.isEmpty }

    /// The entity with `id` in the directory of `trigger`.
    public func entity(trigger: Unicode.Scalar, id: String) -> Entity? {
        tables[trigger]?.byID[id]
    }

    /// The handle of the entity with `id` in the directory of `trigger`, if it has one
    /// (what the `github` writer asks, once per mention, without copying the entity).
    public func handle(trigger: Unicode.Scalar, id: String) -> String? {
        tables[trigger]?.handleByID[id]
    }

    /// The url of the entity with `id` in the directory of `trigger`, if it has one.
    public func url(trigger: Unicode.Scalar, id: String) -> String? {
        tables[trigger]?.urlByID[id]
    }

    /// The entity whose handle is `handle` (any case) in the directory of `trigger`.
    public func entity(trigger: Unicode.Scalar, handle: String) -> Entity? {
        tables[trigger]?.byHandle[handle.lowercased()]
    }

    /// The entity whose url is `url` in the directory of `trigger`.
    public func entity(trigger: Unicode.Scalar, url: String) -> Entity? {
        tables[trigger]?.byURL[url]
    }

    /// Whether any entity of any directory has `accounts` (most directories have none,
    /// and then no format needs to ask).
    public var hasAccounts: Bool { tables.values.contains { !$0.accountsByID.isEmpty } }

    /// The accounts of the entity with `id` in the directory of `trigger`; nil when it has
    /// none.
    public func accounts(trigger: Unicode.Scalar, id: String) -> [Service: String]? {
        tables[trigger]?.accountsByID[id]
    }

    /// The entity whose account on `service` is `account` in the directory of `trigger`;
    /// with `anyCase`, in any case (GitHub and GitLab usernames).
    public func entity(trigger: Unicode.Scalar, account: String, on service: Service, anyCase: Bool) -> Entity? {
        guard let table = tables[trigger], !table.accountsByID.isEmpty else { return nil }
        return table.byAccount[service]?[anyCase ? account.lowercased() : account]
    }

    /// The entities without a handle whose name starts with the word `word` (see
    /// `Table.leadingWord`), in directory order.
    func entitiesWithoutHandle(trigger: Unicode.Scalar, leadingWord word: String) -> [Entity] {
        tables[trigger]?.byLeadingWord[word] ?? []
    }

    /// One directory's entities, indexed by each key the formats look things up by.
    private struct Table: Sendable {
        var byID: [String: Entity] = [:]
        var handleByID: [String: String] = [:]
        var urlByID: [String: String] = [:]
        var byHandle: [String: Entity] = [:]
        var byURL: [String: Entity] = [:]
        var byLeadingWord: [String: [Entity]] = [:]
        /// Only the entities that have accounts.
        var accountsByID: [String: [Service: String]] = [:]
        /// Per service, the entity of each account (lower case for the `@handle` services).
        var byAccount: [Service: [String: Entity]] = [:]

        init(_ entities: [Entity]) {
            byID.reserveCapacity(entities.count)
            for entity in entities {
                // An insert completion (an emoji, an issue number) is text, not someone a
                // file can mention: `:tada:` stays text in every format (docs/formats.md).
                guard entity.insert == nil, byID[entity.id] == nil else { continue }
                byID[entity.id] = entity
                if !entity.accounts.isEmpty {
                    accountsByID[entity.id] = entity.accounts
                    for (service, account) in entity.accounts where !account.isEmpty {
                        let key = service == .github || service == .gitlab ? account.lowercased() : account
                        if byAccount[service]?[key] == nil { byAccount[service, default: [:]][key] = entity }
                    }
                }
                if let url = entity.url, !url.isEmpty {
                    urlByID[entity.id] = url
                    if byURL[url] == nil { byURL[url] = entity }
                }
                if let handle = entity.handle, !handle.isEmpty {
                    handleByID[entity.id] = handle
                    let key = handle.lowercased()
                    if byHandle[key] == nil { byHandle[key] = entity }
                } else if !entity.name.isEmpty {
                    byLeadingWord[Self.leadingWord(of: entity.name), default: []].append(entity)
                }
            }
        }

        /// The run of word characters a name starts with (empty when it starts with
        /// something else, such as an emoji).
        static func leadingWord(of name: String) -> String {
            var word = String.UnicodeScalarView()
            for scalar in name.unicodeScalars {
                guard CharacterClass.isWord(scalar) else { break }
                word.append(scalar)
            }
            return String(word)
        }
    }
}
