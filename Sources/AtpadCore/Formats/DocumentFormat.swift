/// The formats a comment is written in and read from (docs/formats.md), chosen by name with
/// `--format` / `--from` / `-f`.
///
/// `atpad` and `json` are lossless: decoding what was encoded gives the document back.
/// The others are what a target system understands; reading them back recovers the
/// mentions the directory knows (see each format's type for its rules). `matrix` is
/// output only: it has no reader.
public enum DocumentFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// atpad's own markup, `@[John Doe](u42)`, for `.atpad` files and drafts.
    case atpad
    /// `@handle`, or the mention as shown when the entity has no handle; the format of
    /// every file whose name implies no other (`FormatRule`).
    case github
    /// As `github`: `@handle`, or the mention as shown.
    case gitlab
    /// As `github`: `@handle`, or the mention as shown.
    case mattermost
    /// `<@id>` and `<#id>`, with `&`, `<`, `>` escaped in the text.
    case slack
    /// `<@id>` and `<#id>`.
    case discord
    /// Jira Cloud wiki markup: `[~accountid:id]`.
    case jira
    /// `@**John Doe|u42**`.
    case zulip
    /// One Matrix event, `{"msgtype": "m.text", "body": …, "format": …, "formatted_body":
    /// …, "m.mentions": {"user_ids": […]}}`; output only.
    case matrix
    /// Jira's Atlassian Document Format: one JSON document whose mentions are `mention`
    /// nodes (the body of a Jira Cloud comment); output only.
    case adf
    /// `[@John Doe](url)`, the entity's url or `mention:id`.
    case markdown
    /// The text as shown, without mentions.
    case plain
    /// A file that is not a comment (source code, data, a patch, git's rebase list): its
    /// bytes as they are — nothing is decoded, and no trigger starts a search by itself;
    /// a mention inserted with Ctrl-Space is written `@handle`, as `github` writes it.
    case text
    /// `{"text": …, "mentions": [{"trigger", "id", "name", "start", "end", "utf16", "utf8"}]}`.
    case json

    /// The format called `name` (any case); an unknown name is an error listing the valid ones.
    public init(name: String) throws(FormatError) {
        guard let format = DocumentFormat(rawValue: name.lowercased()) else { throw .unknownFormat(name) }
        self = format
    }

    /// The format names, comma-separated, for help texts and errors.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The names of the formats a file can be read in (all but the output-only ones),
    /// comma-separated, for help texts.
    public static var readableNames: String {
        allCases.filter { !$0.isOutputOnly }.map(\.rawValue).joined(separator: ", ")
    }

    public var description: String { rawValue }

    /// Whether documents in this format are Markdown as GitHub reads it: the editor
    /// follows GitHub's rule for where a mention may start and draws Markdown in roles.
    public var isMarkdown: Bool {
        switch self {
        case .github, .gitlab, .mattermost, .markdown: true
        default: false
        }
    }

    /// Whether a mention in a document of this format shows the handle its readers see
    /// (`@jdoe`, as GitHub renders it) rather than the person's name (docs/formats.md,
    /// "How a mention is shown").
    public var showsHandles: Bool {
        switch self {
        case .github, .gitlab, .mattermost, .text: true
        default: false
        }
    }

    /// Whether this format's readers see a mention as a name, so that a mention showing a
    /// handle is written as its name where it is written as shown (the chat and wiki
    /// formats, Markdown links, and `json`, whose mentions hold their names); `plain` is
    /// the text as shown, and atpad markup writes names anyway.
    var rendersNames: Bool {
        switch self {
        case .slack, .discord, .jira, .zulip, .matrix, .adf, .markdown, .json: true
        default: false
        }
    }

    /// Whether a comment read in this format is Markdown to the writers of what each
    /// service's composer sends (docs/formats.md, "What each service receives"): every
    /// format but Slack's and Jira's own markup, `text` (code and data) and the output-only
    /// ones. A `slack` comment written as `slack`, or a `jira` one as `adf`, is sent as written.
    public var isMarkdownSource: Bool {
        switch self {
        case .slack, .jira, .text, .matrix, .adf: false
        default: true
        }
    }

    /// Whether a document in this format is a comment, whose triggers start searches as
    /// they are typed; in `text` (code, data) only Ctrl-Space does.
    public var searchesAsTyped: Bool { self != .text }

    /// Whether writing this format asks the directory (for handles, urls, or the ids of
    /// its service in an entity's `accounts`); the others need only what the document holds.
    public var encodingUsesDirectory: Bool {
        switch self {
        case .github, .gitlab, .mattermost, .markdown, .slack, .jira, .zulip, .matrix, .adf, .text: true
        default: false
        }
    }

    /// Whether reading this format asks the directory (for handles, ids or urls).
    public var decodingUsesDirectory: Bool {
        switch self {
        case .github, .gitlab, .mattermost, .slack, .discord, .jira, .zulip, .markdown: true
        default: false
        }
    }

    /// Whether this format is written only, never read (`matrix`, `adf`): a file cannot be
    /// opened, rendered or listed `--from` it.
    public var isOutputOnly: Bool {
        self == .matrix || self == .adf
    }

    /// `doc` written in this format. Never fails: a mention that breaks the document's
    /// invariants is written as the plain text it covers. `lookup` supplies handles and
    /// urls (it is asked first; the handle and url a mention carries are the fallback,
    /// then the name or `mention:id`).
    public func encode(_ doc: MarkedText, lookup: EntityLookup = .empty) -> String {
        self == .plain ? doc.text : String(decoding: encodeUTF8(doc, lookup: lookup), as: UTF8.self)
    }

    /// `encode`, as UTF-8 bytes: what a file or stdout receives, without making a String
    /// of a large document first. `source` is the format `doc` was read in, when it is
    /// converted: Discord then keeps code as it was (`DiscordFormat`). `parse` is the parse
    /// kept when `doc` was read (`DecodedDocument.markdown`): the chats' and trackers'
    /// writers use it instead of parsing again when it still holds `doc`'s text.
    public func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup = .empty, from source: DocumentFormat? = nil,
                           reusing parse: ParsedMarkdown? = nil) -> [UInt8] {
        // A mention showing a handle (`@jdoe`, read from a GitHub comment) is its name
        // where the readers see names: what such a format writes as shown is the name.
        if rendersNames, doc.mentions.contains(where: { $0.label != nil }) {
            return encodeUTF8(EntityLookup.empty.showing(doc, in: self), lookup: lookup, from: source, reusing: parse)
        }
        return switch self {
        case .atpad: AtpadMarkup.encodeUTF8(doc)
        case .github, .gitlab, .mattermost, .text: GitHubFormat.encodeUTF8(doc, format: self, lookup: lookup)
        case .slack: SlackFormat.encodeUTF8(doc, lookup: lookup, markdown: source.map { composesMarkdown(from: $0) } ?? false,
                                            reusing: parse)
        case .discord: DiscordFormat.encodeUTF8(doc, lookup: lookup, keepingCode: source.map { $0 != .discord } ?? false)
        case .jira: JiraFormat.encodeUTF8(doc, lookup: lookup)
        case .zulip: ZulipFormat.encodeUTF8(doc, lookup: lookup)
        case .matrix: MatrixFormat.encodeUTF8(doc, lookup: lookup, markdown: source?.isMarkdownSource ?? true, reusing: parse)
        case .adf: ADFFormat.encodeUTF8(doc, lookup: lookup, markdown: source?.isMarkdownSource ?? true, reusing: parse)
        case .markdown: MarkdownFormat.encodeUTF8(doc, lookup: lookup)
        case .plain: Array(doc.text.utf8)
        case .json: MentionJSON.documentUTF8(doc)
        }
    }

    /// The file's bytes for `doc` in this format: `encodeUTF8`, with the bytes that are not
    /// UTF-8 (`.bytes` tokens, docs/editor.md) written back as they were. `json`, `matrix` and
    /// `adf` hold Unicode text only: a document with such bytes is an error there (a
    /// character of the stand-ins' range, typed or read from json, is written as itself).
    /// `ending` is what followed a `json` file's object when it was read
    /// (`DecodedDocument.ending`, its final newline or none), written after the object;
    /// the other formats hold the whole file in their text and write no ending. `parse`:
    /// as for `encodeUTF8`.
    public func encodeBytes(_ doc: MarkedText, lookup: EntityLookup = .empty,
                            from source: DocumentFormat? = nil, ending: [UInt8] = [],
                            reusing parse: ParsedMarkdown? = nil) throws(FormatError) -> [UInt8] {
        guard RawBytes.holdsBytes(doc) else {
            let written = encodeUTF8(doc, lookup: lookup, from: source, reusing: parse)
            return self == .json ? written + ending : written
        }
        if self == .json || self == .matrix || self == .adf {
            guard !RawBytes.holdsNonUTF8Bytes(doc) else {
                throw FormatError("the \(self) format cannot carry bytes that are not UTF-8 (shown as \\xNN)")
            }
            return encodeUTF8(doc, lookup: lookup, from: source) + (self == .json ? ending : [])
        }
        return RawBytes.withoutStandIns(encodeUTF8(RawBytes.withStandIns(doc), lookup: lookup, from: source))
    }

    /// The document a file's `bytes` hold in this format, whatever the bytes (docs/editor.md): a
    /// byte that is not part of valid UTF-8 becomes a `.bytes` token, written back as it was
    /// by `encodeBytes`, and one note says so. `json` must be UTF-8: other bytes are an error.
    /// With `git`, the bytes are that git file: its comment lines and what follows its
    /// scissors line are text that nothing decodes (docs/git.md). With `target`, the format
    /// the document will be written in, a Markdown comment read for a chat or tracker keeps
    /// its parse (`DecodedDocument.markdown`), so writing it does not parse it again.
    public func decode(bytes: [UInt8], lookup: EntityLookup = .empty, git: GitFile? = nil,
                       writingTo target: DocumentFormat? = nil) throws(FormatError) -> DecodedDocument {
        guard RawBytes.needStandIns(bytes) else { return try decode(utf8: bytes, lookup: lookup, git: git, writingTo: target) }
        if self == .json {
            if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
                throw FormatError("not valid UTF-8 (byte \(bad + 1) of \(bytes.count)); json is Unicode text")
            }
            // Valid UTF-8 holding scalars of the stand-ins' range (U+10FF80…): in json's
            // Unicode text they are characters like any other, read and written as themselves.
            return try decode(utf8: bytes, lookup: lookup)
        }
        if isOutputOnly { throw .outputOnly(self) }
        let (utf8, replaced) = RawBytes.withStandIns(bytes)
        var decoded = try decode(utf8: utf8, lookup: lookup, git: git)
        decoded.document = RawBytes.tokens(in: decoded.document)
        let what = replaced == 1 ? "1 byte that is not UTF-8" : "\(replaced) bytes that are not UTF-8"
        decoded.notes.insert("\(what) kept as \(replaced == 1 ? "it was" : "they were") (shown as \\xNN)", at: 0)
        return decoded
    }

    /// The document `text` holds in this format, with notes on what could not be read as
    /// a mention. Only `json` can fail (text that is not the json format), and `matrix`,
    /// which is output only, always does; every other format reads anything, leaving what
    /// is not a mention as text.
    public func decode(_ text: String, lookup: EntityLookup = .empty) throws(FormatError) -> DecodedDocument {
        if self == .plain || self == .text { return DecodedDocument(document: MarkedText(text: text)) }
        var text = text
        let result = text.withUTF8 { bytes in Result { () throws(FormatError) in try decode(bytes, lookup: lookup) } }
        return try result.get()
    }

    /// `decode` of UTF-8 bytes, such as a file's, without making a String of them first.
    /// The bytes must be valid UTF-8 (`UTF8Validation` checks); invalid sequences would be
    /// read as U+FFFD.
    public func decode(utf8 bytes: [UInt8], lookup: EntityLookup = .empty, git: GitFile? = nil,
                       writingTo target: DocumentFormat? = nil) throws(FormatError) -> DecodedDocument {
        if let git, self != .json, self != .text, self != .plain, !isOutputOnly {
            return try git.decode(utf8: bytes, format: self, lookup: lookup)
        }
        let keepingParse = target.map { $0.composesMarkdown(from: self) } ?? false
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FormatError) in try decode(buffer, lookup: lookup, keepingParse: keepingParse) }
        }
        return try result.get()
    }

    /// Whether this format writes a comment read in `source` from its Markdown as
    /// cmark-gfm parses it (``ComposedMarkdown``): Matrix's HTML, Jira's ADF, Slack's mrkdwn.
    func composesMarkdown(from source: DocumentFormat) -> Bool {
        switch self {
        case .matrix, .adf: source.isMarkdownSource
        case .slack: source != .slack && source.isMarkdownSource
        default: false
        }
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, lookup: EntityLookup,
                        keepingParse: Bool = false) throws(FormatError) -> DecodedDocument {
        switch self {
        case .atpad: DecodedDocument(document: AtpadMarkup.decode(bytes, keepingSpelling: true))
        case .github, .gitlab, .mattermost: GitHubFormat.decode(bytes, format: self, lookup: lookup, keepingParse: keepingParse)
        case .slack: SlackFormat.decode(bytes, lookup: lookup)
        case .discord: DiscordFormat.decode(bytes, lookup: lookup)
        case .jira: JiraFormat.decode(bytes, lookup: lookup)
        case .zulip: ZulipFormat.decode(bytes, lookup: lookup)
        case .matrix, .adf: throw .outputOnly(self)
        case .markdown: MarkdownFormat.decode(bytes, lookup: lookup)
        case .plain, .text: DecodedDocument(document: MarkedText(text: String(decoding: bytes, as: UTF8.self)))
        case .json: try MentionJSON.decode(bytes)
        }
    }
}
