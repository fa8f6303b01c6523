/// The formats a comment is written in and read from (SPEC §7), chosen by name with
/// `--format` / `--from` / `-f`.
///
/// `atpad` and `json` are lossless: decoding what was encoded gives the document back.
/// The others are what a target system understands; reading them back recovers the
/// mentions the directory knows (see each format's type for its rules).
public enum DocumentFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// atpad's own markup, `@[John Doe](u42)` (the default).
    case atpad
    /// `@handle`, or the mention as shown when the entity has no handle.
    case github
    /// `<@id>` and `<#id>`, with `&`, `<`, `>` escaped in the text.
    case slack
    /// `<@id>` and `<#id>`.
    case discord
    /// `[@John Doe](url)`, the entity's url or `mention:id`.
    case markdown
    /// The text as shown, without mentions.
    case plain
    /// `{"text": …, "mentions": [{"trigger", "id", "name", "start", "end", "utf16", "utf8"}]}`.
    case json

    /// The format called `name` (any case); an unknown name is an error listing the valid ones.
    public init(name: String) throws(FormatError) {
        guard let format = DocumentFormat(rawValue: name.lowercased()) else { throw .unknownFormat(name) }
        self = format
    }

    /// The format names, comma-separated, for help texts and errors.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public var description: String { rawValue }

    /// The format of a file when none is named: `json` for a `.json` file, else `atpad`.
    public static func implied(byPath path: String) -> DocumentFormat {
        path.lowercased().hasSuffix(".json") ? .json : .atpad
    }

    /// Whether writing this format asks the directory (for handles or urls); the others
    /// need only what the document holds.
    public var encodingUsesDirectory: Bool {
        self == .github || self == .markdown
    }

    /// Whether reading this format asks the directory (for handles, ids or urls).
    public var decodingUsesDirectory: Bool {
        self == .github || self == .slack || self == .discord || self == .markdown
    }

    /// `doc` written in this format. Never fails: a mention that breaks the document's
    /// invariants is written as the plain text it covers. `lookup` supplies handles and
    /// urls (it is asked first; the handle and url a mention carries are the fallback,
    /// then the name or `mention:id`).
    public func encode(_ doc: MarkedText, lookup: EntityLookup = .empty) -> String {
        switch self {
        case .atpad: AtpadMarkup.encode(doc)
        case .github: GitHubFormat.encode(doc, lookup: lookup)
        case .slack: SlackFormat.encode(doc)
        case .discord: DiscordFormat.encode(doc)
        case .markdown: MarkdownFormat.encode(doc, lookup: lookup)
        case .plain: doc.text
        case .json: MentionJSON.document(doc)
        }
    }

    /// The document `text` holds in this format, with notes on what could not be read as
    /// a mention. Only `json` can fail (text that is not the json format); every other
    /// format reads anything, leaving what is not a mention as text.
    public func decode(_ text: String, lookup: EntityLookup = .empty) throws(FormatError) -> DecodedDocument {
        switch self {
        case .atpad: DecodedDocument(document: AtpadMarkup.decode(text))
        case .github: GitHubFormat.decode(text, lookup: lookup)
        case .slack: SlackFormat.decode(text, lookup: lookup)
        case .discord: DiscordFormat.decode(text, lookup: lookup)
        case .markdown: MarkdownFormat.decode(text, lookup: lookup)
        case .plain: DecodedDocument(document: MarkedText(text: text))
        case .json: try MentionJSON.decode(text)
        }
    }
}
