/// A mention token in a document: the trigger and name it shows, the entity id behind it,
/// and the range of text it covers.
///
/// `range` counts Unicode scalars from the start of the document. The text it covers is
/// always `String(trigger) + name` (an invariant kept by the apply path).
///
/// `handle` and `url` are what the directory said about the entity when the mention was
/// made (picked, or read from a format that knows them). They are hints for the output
/// formats that need them (`github` writes the handle, `markdown` the url), not part of
/// the document: atpad markup does not store them, and equality and hashing ignore them,
/// so a document read back from markup equals the one that was written.
public struct Mention: Hashable, Sendable {
    public var trigger: Unicode.Scalar
    public var id: String
    public var name: String
    public var range: Range<Int>
    /// The entity's handle (`jdoe`), when known.
    public var handle: String?
    /// The entity's url, when known.
    public var url: String?

    public init(trigger: Unicode.Scalar, id: String, name: String, start: Int, handle: String? = nil, url: String? = nil) {
        self.trigger = trigger
        self.id = id
        self.name = name
        self.range = start ..< start + 1 + name.unicodeScalars.count
        self.handle = handle
        self.url = url
    }

    /// A mention whose name's length in scalars the caller already knows (a reader
    /// that counted it on the way), saving a second pass over the name.
    init(trigger: Unicode.Scalar, id: String, name: String, start: Int, nameScalars: Int) {
        self.trigger = trigger
        self.id = id
        self.name = name
        self.range = start ..< start + 1 + nameScalars
    }

    /// The mention of `entity` shown with `trigger`, starting at scalar offset `start`,
    /// carrying the entity's handle and url.
    public init(trigger: Unicode.Scalar, entity: Entity, start: Int) {
        self.init(trigger: trigger, id: entity.id, name: entity.name, start: start, handle: entity.handle, url: entity.url)
    }

    public static func == (a: Mention, b: Mention) -> Bool {
        a.trigger == b.trigger && a.id == b.id && a.name == b.name && a.range == b.range
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(trigger)
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(range)
    }

    /// The text the mention shows: its trigger followed by its name.
    public var text: String { String(Character(trigger)) + name }

    /// The same mention moved by `delta` scalars.
    public func shifted(by delta: Int) -> Mention {
        var copy = self
        copy.range = range.lowerBound + delta ..< range.upperBound + delta
        return copy
    }
}

/// A document as a plain value: its text and its mentions (sorted, non-overlapping).
///
/// This is the interchange form between the editor's storage and the codecs.
public struct MarkedText: Hashable, Sendable {
    public var text: String
    public var mentions: [Mention]

    public init(text: String = "", mentions: [Mention] = []) {
        self.text = text
        self.mentions = mentions
    }
}
