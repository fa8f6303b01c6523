/// Why a format name or a document could not be read: one line naming the problem.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// An unknown format name, with the valid names.
    static func unknownFormat(_ name: String) -> FormatError {
        FormatError("unknown format '\(name)'; the formats are \(DocumentFormat.names)")
    }

    /// A format that is written only (`matrix`), asked to read.
    static func outputOnly(_ format: DocumentFormat) -> FormatError {
        FormatError("the \(format) format is output only; it cannot be read")
    }
}
