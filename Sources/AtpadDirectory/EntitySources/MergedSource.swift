import AtpadCore

/// A trigger's directory files and its command or URL source answering together
/// (docs/directories.md, "Directory sources"): the files' ranked results first, then the
/// source's, without the ids already given.
public struct MergedSource: EntitySource {
    public let files: any EntitySource
    public let source: any EntitySource

    public init(files: any EntitySource, then source: any EntitySource) {
        self.files = files
        self.source = source
    }

    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let files = files
        let source = source
        return AsyncThrowingStream { continuation in
            let work = Task {
                var seen = Set<String>()
                func fresh(_ batch: [Candidate]) -> [Candidate] {
                    batch.filter { seen.insert($0.entity.id).inserted }
                }
                do {
                    for try await batch in files.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        continuation.yield(fresh(batch))
                    }
                    for try await batch in source.search(query, trigger: trigger) {
                        if Task.isCancelled { break }
                        let new = fresh(batch)
                        if !new.isEmpty { continuation.yield(new) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
