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
            return files.rank(search.query, matchRanges: false)
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

    /// A `CompletionList` of `ranked`, in their order, written by `writer`. It is complete
    /// when it holds every match (fewer than the limit) of a source that has answered in
    /// full, the conversation's people included: the client then narrows it as the query
    /// grows, matching `filterText`, the trigger with the name and handle. Otherwise it is
    /// incomplete and `filterText` is what was typed: the client asks again at the next
    /// character and keeps atpad's order.
    func write(_ ranked: [Candidate], for search: Search, to writer: inout JSONWriter) {
        let trigger = String(Character(search.trigger))
        let typed = trigger + search.query
        let complete = isComplete(ranked, search)
        // Every item's edit replaces the same range: written once, copied into each.
        let range = JSONWriter.utf8(self.range, layout: writer.layout)
        writer.object { writer in
            writer.key("isIncomplete")
            writer.bool(!complete)
            writer.key("items")
            writer.array { writer in
                for (rank, candidate) in ranked.enumerated() {
                    guard let text = written(candidate.entity, search) else { continue }
                    writer.object { writer in item(candidate, rank: rank, text: text, range: range, search: search,
                                                   filterText: complete ? nil : typed, to: &writer) }
                }
            }
        }
    }

    /// One `CompletionItem`'s members; `filterText` nil for the trigger with the name and handle.
    private func item(_ candidate: Candidate, rank: Int, text: String, range: [UInt8], search: Search,
                      filterText: String?, to writer: inout JSONWriter) {
        let entity = candidate.entity
        // An insert completion shows what it inserts and its name (`🙂 slightly_smiling_face`).
        writer.key("label")
        writer.string(entity.insert.map { "\($0) \(entity.handle ?? entity.name)" } ?? entity.name)
        // 12: Value, 18: Reference; a person is a reference to someone.
        writer.key("kind")
        writer.number(entity.insert == nil ? 18 : 12)
        writer.key("sortText")
        writer.string(Self.padded(rank))
        writer.key("filterText")
        writer.string(filterText ?? String(Character(search.trigger)) + entity.name + (entity.handle.map { " " + $0 } ?? ""))
        writer.key("textEdit")
        writer.object { writer in
            writer.key("range")
            writer.raw(range)
            writer.key("newText")
            writer.string(text)
        }
        if let detail = detail(candidate, search) {
            writer.key("detail")
            writer.string(detail)
        }
        let documentation = [entity.detail, entity.url].compactMap { $0 }
        if !documentation.isEmpty {
            writer.key("documentation")
            writer.object { writer in
                writer.key("kind")
                writer.string("markdown")
                writer.key("value")
                writer.string(documentation.joined(separator: "\n\n"))
            }
        }
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
