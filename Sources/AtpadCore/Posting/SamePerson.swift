/// The one rule that says a directory's entry and someone a service names are one person
/// (docs/people.md, "One person on every service"): the entry's `accounts` entry for the
/// service is the service's id for them (or, on GitHub and GitLab, their login, in any
/// case); else the entry's id is that id; else their handles are the same, in any case.
///
/// Built from the people one service named (a conversation's participants); each
/// directory entry is asked in turn, so a directory of any size is read once.
public struct SamePerson: Sendable {
    /// How an entry matched: an account is the surest, a shared handle the least.
    public enum Strength: Int, Comparable, Sendable {
        case handle, id, account

        public static func < (a: Strength, b: Strength) -> Bool { a.rawValue < b.rawValue }
    }

    /// The service that named the people.
    public let service: Service
    private var byID: [String: [Int]] = [:]
    /// Lower-cased handles (GitHub logins, GitLab usernames, Slack account names).
    private var byHandle: [String: [Int]] = [:]

    /// The rule for `named`, the people `service` described (their ids are its ids).
    public init(_ named: [Entity], on service: Service) {
        self.service = service
        for (index, entity) in named.enumerated() {
            if !entity.id.isEmpty { byID[entity.id, default: []].append(index) }
            if let handle = entity.handle, !handle.isEmpty { byHandle[handle.lowercased(), default: []].append(index) }
        }
    }

    /// The named people `entry` is, each with how it matched (the strongest way, once).
    public func matches(_ entry: Entity) -> [(index: Int, strength: Strength)] {
        var found: [(index: Int, strength: Strength)] = []
        func add(_ indexes: [Int]?, _ strength: Strength) {
            for index in indexes ?? [] where !found.contains(where: { $0.index == index }) {
                found.append((index, strength))
            }
        }
        if let account = entry.accounts[service], !account.isEmpty {
            add(byID[account], .account)
            // A login is matched in any case, as the service does.
            if service == .github || service == .gitlab { add(byHandle[account.lowercased()], .account) }
        }
        add(byID[entry.id], .id)
        if let handle = entry.handle, !handle.isEmpty { add(byHandle[handle.lowercased()], .handle) }
        return found
    }

    /// Whether some entry might still match anyone: false when there is no one to match.
    public var isEmpty: Bool { byID.isEmpty && byHandle.isEmpty }

    /// For each named person, the first entry of `entries` (in their order) that is them
    /// the strongest way, or nil.
    public func resolve(_ entries: some Sequence<Entity>, count: Int) -> [Entity?] {
        var best = [(entity: Entity, strength: Strength)?](repeating: nil, count: count)
        for entry in entries {
            for (index, strength) in matches(entry) where index < count {
                if let known = best[index], known.strength >= strength { continue }
                best[index] = (entry, strength)
            }
        }
        return best.map { $0?.entity }
    }
}
