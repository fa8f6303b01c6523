import AtpadCore
import AtpadSystem

/// A source that could not be set up (a preset's missing tool or variable, an unset
/// header variable): every query ends with its one-line message, which the chooser shows
/// as an error row while editing goes on (docs/directories.md, "Presets").
public struct FailingSource: EntitySource {
    public let error: SourceError

    public init(_ message: String) {
        error = SourceError(message)
    }

    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
    }
}
