/// A mention token in a document: the trigger and name it shows, the entity id behind it,
/// and the range of text it covers. A token is either a mention of an entity or a kept
/// construct (`kind`), which the editor treats alike: atomic, never grown, bleached when an
/// edit cuts it.
///
/// `range` counts Unicode scalars from the start of the document. The text it covers is
/// always `String(trigger) + shown` (an invariant kept by the apply path): the name, or
/// its `label` where the document shows what its readers see instead (`@jdoe` in a
/// `github` comment, docs/formats.md "How a mention is shown").
///
/// `handle` and `url` are what the directory said about the entity when the mention was
/// made (picked, or read from a format that knows them). They are hints for the output
/// formats that need them (`github` writes the handle, `markdown` the url), not part of
/// the document: atpad markup does not store them, and equality and hashing ignore them,
/// so a document read back from markup equals the one that was written.
public struct Mention: Hashable, Sendable {
    /// What a token stands for.
    public enum Kind: Hashable, Sendable {
        /// A mention of the entity `id`.
        case mention
        /// A construct of a file's format that atpad keeps but does not turn into a mention
        /// (Slack's `<!here>` or `<https://example.com|docs>`, Discord's `<:party:4>`, an
        /// id the directory does not know;
        /// docs/formats.md, "Files come back as they were (kept constructs)"). It shows its
        /// own text (`trigger` is the text's first character, `name` the rest, `id` is
        /// empty), is written as it was by the format it came from (`source`) and as plain
        /// text by every other, and is in no list of mentions.
        case kept
        /// Bytes of a file that are not UTF-8 (`RawBytes`): shown as escapes (`\xE9`),
        /// written back as the bytes by every format that can carry them. A kept construct
        /// in everything else (atomic, drawn `verbatim`, in no list of mentions).
        case bytes
    }

    public var kind: Kind
    public var trigger: Unicode.Scalar
    public var id: String
    public var name: String
    /// What the mention shows after its trigger when that is not its name: the handle
    /// (`jdoe`, or `JDoe` as a file spelt it) in the formats whose readers see handles
    /// (docs/formats.md "How a mention is shown"). nil: the name.
    public var label: String?
    public var range: Range<Int>
    /// The entity's handle (`jdoe`), when known.
    public var handle: String?
    /// The entity's url, when known.
    public var url: String?
    /// The entity's accounts (docs/people.md, "One person, many accounts"), when known: a
    /// hint like `handle`, for a person picked from a directory the formats' lookup does
    /// not hold (a command's answer).
    public var accounts: [Service: String] = [:]
    /// The text this token was read from and the format that read it (`<@U1|ana>` from
    /// `slack`), so that writing that format again gives the same bytes; nil for a token
    /// made in the editor. A token never changes while it lives (an edit that cuts it
    /// turns it into text), so its source stays true. A hint like `handle`: equality
    /// ignores it.
    public var source: TokenSource?

    public init(trigger: Unicode.Scalar, id: String, name: String, start: Int, handle: String? = nil, url: String? = nil,
                source: TokenSource? = nil, label: String? = nil) {
        self.kind = .mention
        self.trigger = trigger
        self.id = id
        self.name = name
        self.label = label == name ? nil : label
        self.range = start ..< start + 1 + (label ?? name).unicodeScalars.count
        self.handle = handle
        self.url = url
        self.source = source
    }

    /// A mention whose name's length in scalars the caller already knows (a reader
    /// that counted it on the way), saving a second pass over the name.
    init(trigger: Unicode.Scalar, id: String, name: String, start: Int, nameScalars: Int) {
        self.kind = .mention
        self.trigger = trigger
        self.id = id
        self.name = name
        self.range = start ..< start + 1 + nameScalars
    }

    /// The mention of `entity` shown with `trigger`, starting at scalar offset `start`,
    /// carrying the entity's handle and url.
    public init(trigger: Unicode.Scalar, entity: Entity, start: Int) {
        self.init(trigger: trigger, id: entity.id, name: entity.name, start: start, handle: entity.handle, url: entity.url)
        accounts = entity.accounts
    }

    /// The kept construct `text` (at least one character) read by `format`, starting at
    /// scalar offset `start`.
    public init(kept text: String, format: DocumentFormat, start: Int) {
        var scalars = text.unicodeScalars[...]
        let first = scalars.popFirst() ?? " "
        self.kind = .kept
        self.trigger = first
        self.id = ""
        self.name = String(scalars)
        self.range = start ..< start + 1 + scalars.count
        self.source = TokenSource(format: format, text: text)
    }

    /// A kept construct shown as `display` (at least one character) and written back as
    /// `source` by `format`: an escape the format's writer would not write (markup's `\\`
    /// before a letter, shown as `\`).
    public init(kept display: String, source: String, format: DocumentFormat, start: Int) {
        self.init(kept: display, format: format, start: start)
        self.source = TokenSource(format: format, text: source)
    }

    /// Whether this token is a kept construct rather than a mention.
    public var isKept: Bool { kind != .mention }

    /// What `format` writes for this token when it is the format the token was read from:
    /// the text it was read from. Nil for other formats and for tokens made in the editor.
    public func source(in format: DocumentFormat) -> String? {
        guard let source, source.format == format else { return nil }
        return source.text
    }

    public static func == (a: Mention, b: Mention) -> Bool {
        a.kind == b.kind && a.trigger == b.trigger && a.id == b.id && a.name == b.name && a.label == b.label
            && a.range == b.range
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(trigger)
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(label)
        hasher.combine(range)
    }

    /// What the mention shows after its trigger: its label, else its name.
    public var shown: String { label ?? name }

    /// The text the mention shows: its trigger followed by its label or name.
    public var text: String { String(Character(trigger)) + shown }

    /// The same mention at the same start, showing `label` after its trigger (nil or the
    /// name: the name). A kept construct shows its own text and is returned as it is.
    public func labelled(_ label: String?) -> Mention {
        guard kind == .mention else { return self }
        var copy = self
        copy.label = label == name ? nil : label
        copy.range = range.lowerBound ..< range.lowerBound + 1 + copy.shown.unicodeScalars.count
        return copy
    }

    /// The same mention moved by `delta` scalars.
    public func shifted(by delta: Int) -> Mention {
        var copy = self
        copy.range = range.lowerBound + delta ..< range.upperBound + delta
        return copy
    }
}

/// Where a token came from: the format that read it and the exact text it was read from.
public struct TokenSource: Hashable, Sendable {
    public var format: DocumentFormat
    public var text: String

    public init(format: DocumentFormat, text: String) {
        self.format = format
        self.text = text
    }
}

/// A document as a plain value: its text and its tokens (sorted, non-overlapping): the
/// mentions and the kept constructs.
///
/// This is the interchange form between the editor's storage and the codecs.
public struct MarkedText: Hashable, Sendable {
    public var text: String
    /// Every token, mentions and kept constructs alike, in document order.
    public var mentions: [Mention]

    public init(text: String = "", mentions: [Mention] = []) {
        self.text = text
        self.mentions = mentions
    }

    /// This document without the scalars at `positions` (sorted, each outside every
    /// token): the text closes up and the tokens after each move back.
    public func removingScalars(at positions: [Int]) -> MarkedText {
        guard !positions.isEmpty else { return self }
        var scalars = String.UnicodeScalarView()
        var next = 0
        for (i, s) in text.unicodeScalars.enumerated() {
            if next < positions.count, positions[next] == i {
                next += 1
                continue
            }
            scalars.append(s)
        }
        var removed = 0
        var moved: [Mention] = []
        moved.reserveCapacity(mentions.count)
        for m in mentions {
            while removed < positions.count, positions[removed] < m.range.lowerBound { removed += 1 }
            moved.append(m.shifted(by: -removed))
        }
        return MarkedText(text: String(scalars), mentions: moved)
    }

    /// The mentions a list of mentions shows (`atpad mentions`, `json`, Matrix's
    /// `m.mentions`): every token but the kept constructs.
    public var listedMentions: [Mention] {
        mentions.contains(where: \.isKept) ? mentions.filter { !$0.isKept } : mentions
    }
}
