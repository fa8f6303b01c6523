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
        tables[trigger]?.entity(id: id)
    }

    /// The handle of the entity with `id` in the directory of `trigger`, if it has one
    /// (what the `github` writer asks, once per mention).
    public func handle(trigger: Unicode.Scalar, id: String) -> String? {
        guard let table = tables[trigger], let place = table.byID[id] else { return nil }
        // The field alone, not a copy of the whole entity: asked once per mention.
        return table.entities[Int(place)].handle.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The url of the entity with `id` in the directory of `trigger`, if it has one.
    public func url(trigger: Unicode.Scalar, id: String) -> String? {
        guard let table = tables[trigger], let place = table.byID[id] else { return nil }
        return table.entities[Int(place)].url.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The entity whose handle is `handle` (any case) in the directory of `trigger`.
    public func entity(trigger: Unicode.Scalar, handle: String) -> Entity? {
        guard let table = tables[trigger] else { return nil }
        return table.byHandle[handle.lowercased()].map { table.entities[Int($0)] }
    }

    /// The entity whose url is `url` in the directory of `trigger`.
    public func entity(trigger: Unicode.Scalar, url: String) -> Entity? {
        guard let table = tables[trigger] else { return nil }
        return table.byURL[url].map { table.entities[Int($0)] }
    }

    /// Whether any entity of any directory has `accounts` (most directories have none,
    /// and then no format needs to ask).
    public var hasAccounts: Bool { tables.values.contains { $0.hasAccounts } }

    /// The accounts of the entity with `id` in the directory of `trigger`; nil when it has
    /// none.
    public func accounts(trigger: Unicode.Scalar, id: String) -> [Service: String]? {
        guard let table = tables[trigger], table.hasAccounts,
              let place = table.byID[id] else { return nil }
        let accounts = table.entities[Int(place)].accounts
        return accounts.isEmpty ? nil : accounts
    }

    /// The entity whose account on `service` is `account` in the directory of `trigger`;
    /// with `anyCase`, in any case (GitHub and GitLab usernames).
    public func entity(trigger: Unicode.Scalar, account: String, on service: Service, anyCase: Bool) -> Entity? {
        guard let table = tables[trigger], let accounts = table.byAccount[service] else { return nil }
        return accounts[anyCase ? account.lowercased() : account].map { table.entities[Int($0)] }
    }

    /// The entities without a handle whose name starts with the word `word` (see
    /// `Table.leadingWord`), in directory order.
    func entitiesWithoutHandle(trigger: Unicode.Scalar, leadingWord word: String) -> [Entity] {
        guard let table = tables[trigger] else { return [] }
        return (table.byLeadingWord[word] ?? []).map { table.entities[Int($0)] }
    }

    /// Whether the directory of `trigger` has an entity without a handle (a reader need
    /// not look for names after that trigger when it has none).
    func hasEntitiesWithoutHandle(trigger: Unicode.Scalar) -> Bool {
        tables[trigger].map { !$0.byLeadingWord.isEmpty } ?? false
    }

    /// One directory's entities, each kept once, and indexed by their place there under
    /// each key the formats look things up by (a place, not a copy of the entity: the
    /// tables of a large directory are built in one pass and freed quickly).
    private struct Table: Sendable {
        /// The entities that count, in directory order: no insert completion, no repeated id.
        var entities: [Entity] = []
        var byID: [String: Int32] = [:]
        var byHandle: [String: Int32] = [:]
        var byURL: [String: Int32] = [:]
        var byLeadingWord: [String: [Int32]] = [:]
        /// Per service, the entity of each account (lower case for the `@handle` services).
        var byAccount: [Service: [String: Int32]] = [:]
        /// Whether any entity has accounts.
        var hasAccounts = false

        init(_ all: [Entity]) {
            entities.reserveCapacity(all.count)
            byID.reserveCapacity(all.count)
            byHandle.reserveCapacity(all.count)
            byURL.reserveCapacity(all.count)
            for entity in all {
                // An insert completion (an emoji, an issue number) is text, not someone a
                // file can mention: `:tada:` stays text in every format (docs/formats.md).
                guard entity.insert == nil else { continue }
                let place = Int32(entities.count)
                // The first entity of an id counts; one hash when the id is new.
                if let first = byID.updateValue(place, forKey: entity.id) {
                    byID[entity.id] = first
                    continue
                }
                entities.append(entity)
                if !entity.accounts.isEmpty { hasAccounts = true }
                for (service, account) in entity.accounts where !account.isEmpty {
                    let key = service == .github || service == .gitlab ? account.lowercased() : account
                    Self.keepFirst(place, for: key, in: &byAccount[service, default: [:]])
                }
                if let url = entity.url, !url.isEmpty {
                    Self.keepFirst(place, for: url, in: &byURL)
                }
                if let handle = entity.handle, !handle.isEmpty {
                    Self.keepFirst(place, for: handle.lowercased(), in: &byHandle)
                } else if !entity.name.isEmpty {
                    byLeadingWord[Self.leadingWord(of: entity.name), default: []].append(place)
                }
            }
        }

        func entity(id: String) -> Entity? {
            byID[id].map { entities[Int($0)] }
        }

        /// Puts `place` under `key` unless an earlier entity holds it (one hash when the
        /// key is new, the usual case).
        private static func keepFirst(_ place: Int32, for key: String, in table: inout [String: Int32]) {
            if let first = table.updateValue(place, forKey: key) { table[key] = first }
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
