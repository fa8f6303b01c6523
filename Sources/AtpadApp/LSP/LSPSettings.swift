import AtpadCore
import AtpadDirectory

/// What `atpad lsp` serves with, set up once from the config file and the command line as
/// `atpad search` and the editor set theirs up (docs/editors.md): the triggers, their
/// sources, the lookup the formats and hover use, and the spelling checker when it is on.
struct LSPSettings: Sendable {
    /// The triggers with a directory, which are the completion trigger characters.
    var triggers: [Unicode.Scalar]
    /// Each trigger's source, asked as the editor asks it.
    var sources: [Unicode.Scalar: any EntitySource]
    /// The triggers served by directory files alone, ranked in place as `atpad search` ranks them.
    var files: [Unicode.Scalar: FileDirectory]
    /// The directory files' entities by id and handle, for hover and unknown `@word`s;
    /// empty for directories of more than ``lookupLimit`` people, whose lookup would
    /// take seconds and a gigabyte to build (``person(trigger:handle:)`` ranks instead).
    /// A picked mention carries its own handle, as in the editor.
    var lookup: EntityLookup
    /// The most results a completion answers.
    var limit: Int
    /// The config's `[git] person_trailers`, beside git's own.
    var personTrailers: [String]
    /// The spelling checker and the words it takes as right; nil when spelling is off.
    var spelling: (speller: any Speller, known: KnownWords)?

    /// Whose people rank first under `@` when no client says (`--to`, or the github
    /// preset's pull request of the workspace's branch), and how they are fetched.
    var conversation: ParticipantsSetup.Conversation?
    var commandTimeout: Duration
    var postEnvironment: [String: String]

    /// Puts the people of `target`'s conversation, else of ``conversation``, first under
    /// `@` (docs/editors.md, "The conversation"); the current pull request is the one of
    /// the branch checked out in `folder`. They arrive in the background; until then
    /// ranking is as usual.
    mutating func rankParticipantsFirst(of target: PostTarget?, folder: String?) {
        guard let conversation = target.map(ParticipantsSetup.Conversation.target) ?? conversation else { return }
        // Another conversation's people give way (a client's `to` changed).
        if let first = sources["@"] as? ParticipantsFirstSource { sources["@"] = first.source }
        participants = ParticipantsSetup.start(conversation, sources: &sources, limit: limit, timeout: commandTimeout,
                                               environment: postEnvironment, folder: folder)
    }

    /// The fetch of the conversation's people, while `@` ranks them first.
    var participants: ConversationPeople?

    /// The most people whose lookup is built (the 1,000,000-person benchmark, BENCHMARKS.md).
    static let lookupLimit = 100_000

    /// The entity whose handle is `handle` under `trigger`: from the lookup, or for a
    /// directory too big to have one, among the ranked results of the handle itself.
    func person(trigger: Unicode.Scalar, handle: String) -> Entity? {
        if let entity = lookup.entity(trigger: trigger, handle: handle) { return entity }
        guard !lookup.triggers.contains(trigger), let files = files[trigger] else { return nil }
        let wanted = handle.lowercased()
        return files.rank(handle, matchRanges: false).first { $0.entity.handle?.lowercased() == wanted }?.entity
    }
}
