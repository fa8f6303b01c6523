import AtpadCore
import AtpadDirectory

/// One `textDocument/completion` (docs/editors.md, "Completion"): the search the editor
/// would have open at the position, its results ranked as `atpad search` ranks them, and
/// each as an item whose `textEdit` writes the mention as the editor's pick would.
struct LSPCompletion: Sendable {
    /// The search at the position, nil where the editor would start none (code, URLs,
    /// git's comment lines, no trigger before the cursor).
    let search: Search?
    /// The `Range` from the trigger to the position, in the client's encoding.
    private let range: JSONValue
    private let settings: LSPSettings
    private let readers: DocumentFormat

    init(document: LSPDocument, offset: Int, settings: LSPSettings, encoding: LSPPositionEncoding) {
        let search = document.editor.explicitSearch(before: offset)
        self.search = search
        self.settings = settings
        readers = document.mentionFormat
        range = encoding.range((search?.start ?? offset)..<offset, in: document.editor.storage)
    }

    /// The results when they can be had at once: a trigger served by directory files alone
    /// (ranked here, as `atpad search` ranks them) or a cached list in memory.
    func rankedNow(_ search: Search) -> [Candidate]? {
        if let files = settings.files[search.trigger], settings.sources[search.trigger] is FileDirectory {
            return files.rank(search.query)
        }
        guard let source = settings.sources[search.trigger] else { return [] }
        if let instant = source as? any InstantSource, let now = instant.answerNow(search.query) {
            return Array(now.prefix(settings.limit))
        }
        return nil
    }

    /// The results as the source answers them, asked as `atpad search` asks it.
    func asked(_ search: Search) async -> [Candidate] {
        guard let source = settings.sources[search.trigger] else { return [] }
        return await SearchCommand.answer(source, search.query, trigger: search.trigger, limit: settings.limit).results
    }

    /// A `CompletionList` of `ranked`, in their order. It is complete when it holds every
    /// match (fewer than the limit) of a source that has answered in full, the
    /// conversation's people included: the client then narrows it as the query grows,
    /// matching `filterText`, the trigger with the name and handle. Otherwise it is
    /// incomplete and `filterText` is what was typed: the client asks again at the next
    /// character and keeps atpad's order.
    func list(_ ranked: [Candidate], for search: Search) -> JSONValue {
        let trigger = String(Character(search.trigger))
        let typed = trigger + search.query
        let complete = isComplete(ranked, search)
        var items: [JSONValue] = []
        for (rank, candidate) in ranked.enumerated() {
            guard let text = written(candidate.entity, search) else { continue }
            var item: [(key: String, value: JSONValue)] = [
                // An insert completion shows what it inserts and its name (`🙂 slightly_smiling_face`).
                ("label", .string(candidate.entity.insert.map { "\($0) \(candidate.entity.handle ?? candidate.entity.name)" }
                                  ?? candidate.entity.name)),
                // 12: Value, 18: Reference; a person is a reference to someone.
                ("kind", .number(candidate.entity.insert == nil ? 18 : 12)),
                ("sortText", .string(Self.padded(rank))),
                ("filterText", .string(complete
                    ? trigger + ([candidate.entity.name] + [candidate.entity.handle].compactMap { $0 }).joined(separator: " ")
                    : typed)),
                ("textEdit", ["range": range, "newText": .string(text)]),
            ]
            if let detail = detail(candidate, search) { item.append(("detail", .string(detail))) }
            let documentation = [candidate.entity.detail, candidate.entity.url].compactMap { $0 }
            if !documentation.isEmpty {
                item.append(("documentation", ["kind": "markdown", "value": .string(documentation.joined(separator: "\n\n"))]))
            }
            items.append(.object(item))
        }
        return ["isIncomplete": .bool(!complete), "items": .array(items)]
    }

    /// Whether `ranked` is every match of the query, so that the matches of a longer
    /// query are among them: fewer than the limit, not after a person trailer (whose
    /// range holds no trigger to filter by), and not while the conversation's people are
    /// still on their way.
    private func isComplete(_ ranked: [Candidate], _ search: Search) -> Bool {
        guard ranked.count < settings.limit, !search.personTrailer else { return false }
        guard search.trigger == "@", let participants = settings.participants else { return true }
        return participants.current != .fetching
    }

    /// What picking `entity` writes, as the editor's pick writes it: the trailer's
    /// `Name <email>` after a person trailer (nil without an email: it credits no one),
    /// an insert completion's text, else the mention as its readers see it (`@jdoe`), or
    /// the name alone for someone the readers' service cannot notify.
    private func written(_ entity: Entity, _ search: Search) -> String? {
        if search.personTrailer { return PersonTrailers.trailerValue(entity) }
        if let insert = entity.insert { return insert }
        let mention = settings.lookup.shown(Mention(trigger: search.trigger, entity: entity, start: 0), in: readers)
        return settings.lookup.writesNameAlone(mention, in: readers) ? entity.name : mention.text
    }

    /// `detail`: the handle and, for a participant, the role; the email after a trailer.
    private func detail(_ candidate: Candidate, _ search: Search) -> String? {
        if search.personTrailer { return candidate.entity.email }
        let parts = [candidate.entity.handle.map { String(Character(search.trigger)) + $0 }, candidate.participantRole]
            .compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `rank` as a sort key that sorts as text in rank order.
    static func padded(_ rank: Int) -> String {
        let digits = String(rank)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
