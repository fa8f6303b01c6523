import AtpadCore

/// Anything that answers a query with people: a directory file, a command, a URL.
///
/// The answer is a stream of batches in the order they should be shown; the end of the
/// stream is the final marker (an answer with nothing in it is one empty batch, then the
/// end). Throwing ends the answer with a failure the chooser shows as an error row.
/// Cancelling the consuming task cancels the work behind it.
public protocol EntitySource: Sendable {
    func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error>
}
