import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// An answer computed by blocking code on a thread of its own.
///
/// Sources that wait on processes and sockets use `poll`, which may block for seconds: on
/// a thread of the cooperative pool that would hold up every task of the app. `work` runs
/// on a new thread with a ``Cancellation`` that is cancelled when the stream terminates
/// (the consumer stopped or was cancelled), and hands batches to `yield`; returning ends
/// the answer, throwing fails it.
func answerOnWorkerThread(
    named name: String,
    _ work: @escaping @Sendable (Cancellation, _ yield: ([Candidate]) -> Void) throws -> Void
) -> AsyncThrowingStream<[Candidate], any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: [Candidate].self)
    let cancellation: Cancellation
    do {
        cancellation = try Cancellation()
    } catch {
        continuation.finish(throwing: error)
        return stream
    }
    continuation.onTermination = { _ in cancellation.cancel() }
    BackgroundThread.start(name: name) {
        do {
            try work(cancellation) { continuation.yield($0) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
    return stream
}
