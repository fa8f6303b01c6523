/// A mention token in a document: the trigger and name it shows, the entity id behind it,
/// and the range of text it covers.
///
/// `range` counts Unicode scalars from the start of the document. The text it covers is
/// always `String(trigger) + name` (an invariant kept by the apply path).
public struct Mention: Hashable, Sendable {
    public var trigger: Unicode.Scalar
    public var id: String
    public var name: String
    public var range: Range<Int>

    public init(trigger: Unicode.Scalar, id: String, name: String, start: Int) {
        self.trigger = trigger
        self.id = id
        self.name = name
        self.range = start ..< start + 1 + name.unicodeScalars.count
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
