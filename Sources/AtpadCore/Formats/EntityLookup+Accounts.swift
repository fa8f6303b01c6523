/// What a format writes for a mention of a person: the one answer every format's writer
/// asks for (``EntityLookup/writtenID(of:in:)``).
public enum WrittenID: Hashable, Sendable {
    /// This id: a handle for the `@handle` formats (`jdoe`), else the service's id
    /// (`U0123`, a Jira account id, a Matrix user id).
    case id(String)
    /// The mention as shown (`@John Doe`), as the format always writes a person it has
    /// no handle for: nothing is missing.
    case shown
    /// The mention as shown, because the entity has accounts on other services but none
    /// on this format's: the person is not notified there, which a note says.
    case missing
}

extension DocumentFormat {
    /// The service whose ids this format writes and reads first (an entity's `accounts`);
    /// nil for the formats that have none of their own (Discord, Mattermost, Markdown,
    /// atpad's, plain, json).
    public var service: Service? {
        switch self {
        case .github: .github
        case .gitlab: .gitlab
        case .slack: .slack
        case .jira, .adf: .jira
        case .zulip: .zulip
        case .matrix: .matrix
        case .atpad, .mattermost, .discord, .markdown, .plain, .text, .json: nil
        }
    }

    /// Whether this format writes a person by handle (`@jdoe`, matched in any case), rather
    /// than by id.
    public var writesHandles: Bool {
        self == .github || self == .gitlab || self == .mattermost || self == .text
    }
}

extension EntityLookup {
    /// What `format` writes for the mention `m` — the one rule every format's writer
    /// follows (docs/people.md, "One person, many accounts"):
    ///
    /// 1. When the directory's entity has `accounts` (or, for a person the lookup does not
    ///    hold, the mention carries them), its account on the format's service
    ///    (`accounts.slack` for `slack`); without one, ``WrittenID/missing``.
    /// 2. Otherwise, as before accounts: the `@handle` formats write the directory's
    ///    handle, else the one the mention carries, else the mention as shown; the others
    ///    write the entity's id.
    ///
    /// A handle or a github/gitlab account that the mention carries in another case (read
    /// from a file as `@JDoe`) keeps that spelling, so a file read and written gives the
    /// same bytes. A format without a service of its own (Discord, Mattermost) ignores
    /// accounts.
    public func writtenID(of m: Mention, in format: DocumentFormat) -> WrittenID {
        let own = m.handle.flatMap { $0.isEmpty ? nil : $0 }
        if let service = format.service, let accounts = accounts(trigger: m.trigger, id: m.id)
            ?? (m.accounts.isEmpty ? nil : m.accounts) {
            guard let account = accounts[service] else { return .missing }
            return .id(format.writesHandles ? Self.keepingCase(own, of: account) : account)
        }
        guard format.writesHandles else { return .id(m.id) }
        if let handle = handle(trigger: m.trigger, id: m.id) { return .id(Self.keepingCase(own, of: handle)) }
        return own.map(WrittenID.id) ?? .shown
    }

    /// What `format` writes for a mention it writes as text rather than as its mention
    /// (docs/people.md, "Someone a service cannot notify"): a person with accounts but none
    /// on the format's service (``WrittenID/missing``) by name alone — a trigger would
    /// notify no one, or read back as someone else (`@Bob` of `@Bob Builder`) — and
    /// anything else as it shows.
    public func textWithoutAccount(_ m: Mention, in format: DocumentFormat) -> String {
        m.trigger == "@" && writtenID(of: m, in: format) == .missing ? m.name : m.text
    }

    /// Whether `format` writes `m` as its name alone (``textWithoutAccount(_:in:)``).
    public func writesNameAlone(_ m: Mention, in format: DocumentFormat) -> Bool {
        m.trigger == "@" && writtenID(of: m, in: format) == .missing
    }

    /// `own` when it is `handle` in another case, else `handle`.
    private static func keepingCase(_ own: String?, of handle: String) -> String {
        if let own, own != handle, own.lowercased() == handle.lowercased() { return own }
        return handle
    }

    /// The entity `format` means by `written` (a handle for the `@handle` formats, an id
    /// for the others) in the directory of `trigger` — the reading side of
    /// ``writtenID(of:in:)``: the entity whose account on the format's service it is,
    /// else the one whose handle (any case) or id it is, as before accounts.
    public func entity(trigger: Unicode.Scalar, written: String, in format: DocumentFormat) -> Entity? {
        if let service = format.service,
           let entity = entity(trigger: trigger, account: written, on: service, anyCase: format.writesHandles) {
            return entity
        }
        return format.writesHandles ? entity(trigger: trigger, handle: written) : entity(trigger: trigger, id: written)
    }

    /// The mentions of `doc` that `format` writes as shown because their entity has no
    /// account on the format's service (``WrittenID/missing``), in document order: the
    /// people a comment in that format would not notify. Tokens the format writes from
    /// their own source (read from that format) are written as they were, and not listed.
    public func mentionsWithoutAccount(in doc: MarkedText, format: DocumentFormat) -> [Mention] {
        guard format.service != nil, hasAccounts || doc.mentions.contains(where: { !$0.accounts.isEmpty }) else { return [] }
        return doc.listedMentions.filter { m in
            m.source(in: format) == nil && writtenID(of: m, in: format) == .missing
        }
    }

    /// One line naming the mentions ``mentionsWithoutAccount(in:format:)`` finds
    /// (`2 mentions have no slack account and will not be notified: @John Doe, @Ann Lee`),
    /// or nil when there are none.
    public func missingAccountNote(in doc: MarkedText, format: DocumentFormat) -> String? {
        let missing = mentionsWithoutAccount(in: doc, format: format)
        guard let service = format.service, !missing.isEmpty else { return nil }
        var names: [String] = []
        // As the format wrote them: by name where its readers see names.
        for m in missing {
            let shown = format.rendersNames ? String(Character(m.trigger)) + m.name : m.text
            if !names.contains(shown) { names.append(shown) }
        }
        var list = names.prefix(UnresolvedMentions.listed).joined(separator: ", ")
        if names.count > UnresolvedMentions.listed { list += " and \(names.count - UnresolvedMentions.listed) more" }
        let subject = missing.count == 1 ? "1 mention has" : "\(missing.count) mentions have"
        return "\(subject) no \(service.rawValue) account and will not be notified: \(list)"
    }
}
