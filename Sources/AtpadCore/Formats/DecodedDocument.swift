/// A document read from a file, with what the reader had to leave behind.
public struct DecodedDocument: Hashable, Sendable {
    /// The text and the mentions that were recognised.
    public var document: MarkedText
    /// One line each, for the person: mentions the directory did not know (left as text),
    /// mentions of a `json` file that were not valid (dropped, their text kept).
    public var notes: [String]
    /// What follows the part of the file the format reads, to be written back after what
    /// the format writes (`DocumentFormat.encodeBytes(_:lookup:from:ending:)`): for `json`
    /// the blanks after the object — the file's final newline, or none (docs/formats.md).
    /// Empty for every other format, whose text holds all of the file.
    public var ending: [UInt8]
    /// The Markdown parse the reader made, kept when the document is to be written for a
    /// chat or tracker (`DocumentFormat.decode(bytes:lookup:git:writingTo:)`); nil otherwise.
    /// Equal only to itself.
    public var markdown: ParsedMarkdown?

    public init(document: MarkedText, notes: [String] = [], ending: [UInt8] = [], markdown: ParsedMarkdown? = nil) {
        self.document = document
        self.notes = notes
        self.ending = ending
        self.markdown = markdown
    }
}
