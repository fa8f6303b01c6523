import AtpadCore
import Testing
@testable import AtpadDirectory
@testable import AtpadSystem

/// File results first (docs/directories.md, "Directory sources"), then the command's or
/// URL's, deduplicated by id.
@Suite struct MergedSourceTests {
    /// A source that answers with fixed batches, or fails after them.
    struct Scripted: EntitySource {
        var batches: [[Candidate]]
        var failure: String?
        func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
            AsyncThrowingStream { continuation in
                for batch in batches { continuation.yield(batch) }
                continuation.finish(throwing: failure.map(SourceError.init))
            }
        }
    }

    func person(_ id: String, _ name: String) -> Candidate { Candidate(entity: Entity(id: id, name: name)) }

    func answer(_ source: some EntitySource) async throws -> [[String]] {
        var out: [[String]] = []
        for try await batch in source.search("jo", trigger: "@") { out.append(batch.map(\.entity.id)) }
        return out
    }

    @Test func filesFirstThenTheSourceWithoutRepeatedIDs() async throws {
        let files = FileDirectory(entities: [Entity(id: "u1", name: "John Doe"), Entity(id: "u2", name: "Joan Roe")])
        let command = Scripted(batches: [[person("u2", "Joan R."), person("u9", "Jo Nine")], [person("u1", "J")], [person("u8", "Jo Eight")]])
        #expect(try await answer(MergedSource(files: files, then: command)) == [["u1", "u2"], ["u9"], ["u8"]])
    }

    @Test func aFailingSourceKeepsTheFileResultsAndReportsTheError() async throws {
        let files = FileDirectory(entities: [Entity(id: "u1", name: "John Doe")])
        let command = Scripted(batches: [[person("u5", "Jo Five")]], failure: "directory command exited with status 3")
        var got: [[String]] = []
        await #expect(throws: SourceError.self) {
            for try await batch in MergedSource(files: files, then: command).search("jo", trigger: "@") {
                got.append(batch.map(\.entity.id))
            }
        }
        #expect(got == [["u1"], ["u5"]])
    }
}
