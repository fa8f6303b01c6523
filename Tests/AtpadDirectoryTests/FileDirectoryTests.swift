import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory

/// Resources/people.json of this checkout, found from this file's own path.
private let bundledPeople = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Resources/people.json")

/// Every batch `source` answers `query` with, in order.
private func batches(_ source: some EntitySource, _ query: String) async throws -> [[Candidate]] {
    var result: [[Candidate]] = []
    for try await batch in source.search(query, trigger: "@") {
        result.append(batch)
    }
    return result
}

@Suite struct FileDirectoryTests {
    let people = [
        Entity(id: "u1", name: "John Doe", handle: "jdoe"),
        Entity(id: "u2", name: "Jane Doe", handle: "janedoe"),
        Entity(id: "u3", name: "Johanna Schmidt"),
    ]

    @Test func searchAnswersWithOneRankedBatch() async throws {
        let directory = FileDirectory(entities: people)
        let answer = try await batches(directory, "jo")
        #expect(answer.count == 1)
        #expect(answer[0].map(\.entity.id) == ["u1", "u3", "u2"])
        #expect(answer[0][0].matches == [0 ..< 2])
    }

    @Test func noMatchIsOneEmptyBatch() async throws {
        let answer = try await batches(FileDirectory(entities: people), "zzz")
        #expect(answer == [[]])
    }

    @Test func duplicateIdsKeepTheFirst() {
        let directory = FileDirectory(entities: people + [Entity(id: "u1", name: "Someone Else")])
        #expect(directory.entities == people)
        #expect(directory.rank("someone").isEmpty)
    }

    @Test func limitAndFrecencyAreUsed() async throws {
        var directory = FileDirectory(entities: people, limit: 1)
        #expect(try await batches(directory, "")[0].map(\.entity.id) == ["u1"])
        directory.frecency = { ["u3": 2] }
        #expect(try await batches(directory, "")[0].map(\.entity.id) == ["u3"])
        directory.limit = 50
        #expect(directory.rank("").map(\.entity.id) == ["u3", "u1", "u2"])
    }

    @Test func loadsFromAFile() throws {
        let directory = try FileDirectory.load(contentsOf: bundledPeople, limit: 5)
        #expect(directory.rank("").count == 5)
        #expect(throws: DirectoryError.self) { try FileDirectory.load(path: "/nonexistent/people.json") }
    }
}

@Suite struct BundledDirectoryTests {
    @Test func bundledPeopleLoads() throws {
        let entities = try DirectoryFile.load(contentsOf: bundledPeople)
        #expect(entities.count >= 200)
        let first = try #require(entities.first)
        #expect((first.id, first.name, first.handle) == ("u1", "John Doe", "jdoe"))
        #expect(Set(entities.map(\.id)).count == entities.count)
        #expect(entities.allSatisfy { $0.handle?.isEmpty == false })
    }

    @Test func bundledPeopleAnswersTheSpecExamples() throws {
        let directory = try FileDirectory.load(contentsOf: bundledPeople)
        #expect(directory.rank("jd").first?.entity.name == "John Doe")
        #expect(directory.rank("travis b").map(\.entity.name).prefix(2).sorted() == ["Travis Barker", "Travis Bickle"])
        #expect(directory.rank("bruce wayn").first?.entity.name == "Bruce Wayne")
        #expect(directory.rank("王").map(\.entity.name).contains("王伟"))
        #expect(directory.rank("伟").first?.entity.name == "王伟")
        #expect(directory.rank("soren").first?.entity.name == "Søren Kierkegaard")
        #expect(directory.rank("strauss").first?.entity.name == "Günther Strauß")
        #expect(directory.rank("lukasz").first?.entity.name == "Łukasz Wróbel")
    }
}
