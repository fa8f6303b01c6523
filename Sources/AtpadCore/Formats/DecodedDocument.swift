/// A document read from a file, with what the reader had to leave behind.
public struct DecodedDocument: Hashable, Sendable {
    /// The text and the mentions that were recognised.
    public var document: MarkedText
    /// One line each, for the person: mentions the directory did not know (left as text),
    /// mentions of a `json` file that were not valid (dropped, their text kept).
    public var notes: [String]

    public init(document: MarkedText, notes: [String] = []) {
        self.document = document
        self.notes = notes
    }
}
