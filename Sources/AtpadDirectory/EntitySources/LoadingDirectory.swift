import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc
import Synchronization

/// A directory that is still being read on a thread of its own: a large file must not
/// hold up the first screen. Queries asked before it is ready wait for it, then are
/// answered by the loaded directory; a load that fails answers every query with its error.
public final class LoadingDirectory: EntitySource, Sendable {
    private enum State {
        case loading([CheckedContinuation<Void, Never>])
        /// The source, and the same as an `InstantSource` when it is one: cast once here,
        /// since a cast to a protocol costs thousands of instructions and each keystroke
        /// of an implicit search asks.
        case ready(any EntitySource, instant: (any InstantSource)?)
        case failed(String)
    }

    private let state: Mutex<State>

    /// Starts `load` on a new thread at once.
    public init(load: @escaping @Sendable () throws -> any EntitySource) {
        state = Mutex(.loading([]))
        BackgroundThread.start(name: "atpad directory load") { [self] in
            let outcome: State
            do {
                let source = try load()
                outcome = .ready(source, instant: source as? any InstantSource)
            } catch {
                outcome = .failed("\(error)")
            }
            finish(outcome)
        }
    }

    /// A directory already loaded (for a uniform type in the app).
    public init(ready source: any EntitySource) {
        state = Mutex(.ready(source, instant: source as? any InstantSource))
    }

    /// Whether the directory is still being read.
    public var isLoading: Bool {
        state.withLock { state in
            if case .loading = state { return true }
            return false
        }
    }

    /// The load's error message, once it has failed.
    public var failure: String? {
        state.withLock { state in
            if case let .failed(message) = state { return message }
            return nil
        }
    }

    /// Waits (off any thread that matters) until the load has finished.
    public func waitUntilLoaded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let loaded = state.withLock { state in
                guard case var .loading(waiting) = state else { return true }
                waiting.append(continuation)
                state = .loading(waiting)
                return false
            }
            if loaded { continuation.resume() }
        }
    }

    private func finish(_ outcome: State) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case let .loading(waiting) = state else { return [] }
            state = outcome
            return waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The people of the loaded directory file, once loaded (nil before, or for a source
    /// that is no file): what the editor's spelling takes as known names.
    public var loadedEntities: [Entity]? {
        (instantNow as? FileDirectory)?.entities
    }

    /// The loaded source as an `InstantSource`, when it is loaded and is one.
    var instantNow: (any InstantSource)? {
        state.withLock { state in
            if case let .ready(_, instant) = state { return instant }
            return nil
        }
    }

    /// The loaded source, or why there is none (yet).
    private var loaded: Result<any EntitySource, LoadFailure> {
        state.withLock { state in
            switch state {
            case let .ready(source, _): .success(source)
            case let .failed(message): .failure(LoadFailure(message: message))
            case .loading: .failure(LoadFailure(message: "directory not loaded"))
            }
        }
    }

    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        AsyncThrowingStream { continuation in
            let work = Task {
                await self.waitUntilLoaded()
                do {
                    let source = try self.loaded.get()
                    for try await batch in source.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        continuation.yield(batch)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// Why a directory could not be loaded, shown as the chooser's error row.
    public struct LoadFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
