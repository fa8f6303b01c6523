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
    /// The directory files' entities: mentions' handles, hover, unknown `@word`s.
    var lookup: EntityLookup
    /// The most results a completion answers.
    var limit: Int
    /// The config's `[git] person_trailers`, beside git's own.
    var personTrailers: [String]
    /// The spelling checker and the words it takes as right; nil when spelling is off.
    var spelling: (speller: any Speller, known: KnownWords)?
}
