import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory

/// A directory read on its own thread: queries wait for it; a failed load is an error row.
@Suite struct LoadingDirectoryTests {
    /// A gate the loader waits at, so the test decides when loading ends.
    final class Gate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
    }

    func answers(_ source: some EntitySource, _ query: String) async throws -> [[String]] {
        var batches: [[String]] = []
        for try await batch in source.search(query, trigger: "@") { batches.append(batch.map(\.entity.id)) }
        return batches
    }

    @Test func queriesWaitForTheLoadThenAreAnswered() async throws {
        let gate = Gate()
        let directory = LoadingDirectory {
            gate.semaphore.wait()
            return FileDirectory(entities: [Entity(id: "u1", name: "John Doe"), Entity(id: "u2", name: "Jane Roe")])
        }
        #expect(directory.isLoading)
        async let answer = answers(directory, "joh")
        try await Task.sleep(for: .milliseconds(50))
        #expect(directory.isLoading, "still waiting at the gate")
        gate.semaphore.signal()
        #expect(try await answer == [["u1"]])
        #expect(!directory.isLoading)
        #expect(try await answers(directory, "jan") == [["u2"]])
    }

    @Test func aFailedLoadAnswersWithItsError() async throws {
        let directory = LoadingDirectory {
            throw DirectoryError(path: "big.json", line: 7, message: "entry 3 has no \"name\"")
        }
        await directory.waitUntilLoaded()
        #expect(directory.failure == "big.json:7: entry 3 has no \"name\"")
        await #expect(throws: LoadingDirectory.LoadFailure.self) { _ = try await answers(directory, "x") }
    }
}
