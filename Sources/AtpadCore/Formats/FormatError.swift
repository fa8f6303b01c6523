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
}
