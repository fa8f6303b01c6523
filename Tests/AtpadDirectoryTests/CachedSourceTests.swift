import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

/// The cache of a list-only source (docs/directories.md, "Connect your directory"), around
/// a real command that counts its runs.
@Suite struct CachedSourceTests {
    /// A command printing the list in `list.ndjson`, or failing when `fail` exists; each
    /// run adds a line to `runs`.
    private func listCommand(_ folder: ScriptFolder) -> CommandSource {
        let command = "echo run >> '\(folder.file("runs"))'; [ -e '\(folder.file("fail"))' ] && { echo down >&2; exit 7; }; "
            + "cat '\(folder.file("list.ndjson"))'"
        return CommandSource(command: command, timeout: .seconds(5))
    }

    private func runs(_ folder: ScriptFolder) -> Int {
        (folder.read("runs") ?? "").split(separator: "\n").count
    }

    private func writeList(_ folder: ScriptFolder, _ names: [String]) throws {
        let lines = names.enumerated().map { "{\"id\": \"p\($0.offset)\", \"name\": \"\($0.element)\"}" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder.file("list.ndjson"), atomically: true, encoding: .utf8)
    }

    private func cached(_ folder: ScriptFolder, notes: SourceNotes, beforeAnswering: Bool = false) -> CachedSource {
        CachedSource(command: listCommand(folder), maxAge: .seconds(3600), cacheFolder: folder.file("cache"),
                     notes: notes, refreshesBeforeAnswering: beforeAnswering)
    }

    private func age(_ path: String, hours: Double) {
        let old = Date().addingTimeInterval(-hours * 3600)
        try? FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
    }

    @Test func firstUseFetchesThenTheListIsLocalAndRankedAndOwnerOnly() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["Zed Alpha", "Jo Ng", "John Doe"])
        let notes = SourceNotes()
        #expect(await answer(cached(folder, notes: notes), "jo").ids == ["p1", "p2"])
        #expect(runs(folder) == 1)
        // A new source (the next start of atpad) reads the file: the command does not run.
        #expect(await answer(cached(folder, notes: notes), "doe").ids == ["p2"])
        #expect(runs(folder) == 1)
        let path = cached(folder, notes: notes).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aStaleListAnswersAtOnceAndIsRefreshedInTheBackground() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["Ann Old"])
        let notes = SourceNotes()
        let first = cached(folder, notes: notes)
        #expect(await answer(first, "ann").ids == ["p0"])
        try writeList(folder, ["Ann Old", "Ann New"])
        age(first.path, hours: 2)
        let editor = cached(folder, notes: notes)
        #expect(await answer(editor, "ann").ids == ["p0"])  // the old list, without waiting
        #expect(await eventually { runs(folder) == 2 })
        #expect(await eventually(within: .seconds(5)) { (folder.read("cache/lists/" + (first.path as NSString).lastPathComponent) ?? "").contains("Ann New") })
        #expect(await answer(editor, "ann").ids.count == 2)
    }

    @Test func aFailingRefreshKeepsTheLastGoodListAndSaysSoOnce() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["Ann Kept"])
        let notes = SourceNotes()
        let source = cached(folder, notes: notes, beforeAnswering: true)
        #expect(await answer(source, "ann").ids == ["p0"])
        age(source.path, hours: 2)
        folder.touch("fail")
        let again = cached(folder, notes: notes, beforeAnswering: true)
        #expect(await answer(again, "ann").ids == ["p0"])
        #expect(await answer(again, "kept").ids == ["p0"])
        let said = notes.take()
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("could not refresh the cached list (directory command exited with status 7: down)") == true)
    }

    @Test func aFailingFirstFetchIsTheQuerysError() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["A"])
        folder.touch("fail")
        let result = await answer(cached(folder, notes: SourceNotes()), "a")
        #expect(result.message == "directory command exited with status 7: down")
    }

    @Test func theFileNameHidesTheKeyAndIsStable() {
        #expect(CachedSource.fileName("a") == CachedSource.fileName("a"))
        #expect(CachedSource.fileName("a") != CachedSource.fileName("b"))
        #expect(CachedSource.fileName("token-ish").hasPrefix("list-") && !CachedSource.fileName("token-ish").contains("token"))
    }

    @Test func aFetchOutOfTimeKeepsThePagesReadAndSaysItIsShort() async throws {
        let folder = try ScriptFolder()
        let server = try LocalHTTPServer { target in
            target.contains("cursor") ? .hang : .json(#"{"data": [{"id": "1", "name": "Ann Page"}], "next": "p2"}"#)
        }
        defer { server.stop() }
        let url = try URLSource(template: "http://127.0.0.1:\(server.port)/all", request: .init(next: "next"),
                                mapping: try EntityMapping(items: "data"))
        let notes = SourceNotes()
        let source = CachedSource(list: url, maxAge: .seconds(3600), cacheFolder: folder.file("cache"), limit: 50,
                                  frecency: { [:] }, notes: notes, refreshesBeforeAnswering: true, timeout: .milliseconds(400))
        #expect(await answer(source, "ann").ids == ["1"])
        let said = notes.take()
        #expect(said == ["the cached list is not complete: 1 people read, GET http://127.0.0.1:\(server.port)/all?cursor=p2: timed out after 0.4 s"])
    }

    // MARK: - Instant presets (issue 25)

    /// A command that prints the list when asked with an empty query, and for a query
    /// prints one entity named after it (`per-query <q>`), counting its runs.
    private func listOrQueryCommand(_ folder: ScriptFolder) -> CommandSource {
        let command = "echo \"run $1\" >> '\(folder.file("runs"))'; "
            + "if [ -z \"$1\" ]; then cat '\(folder.file("list.ndjson"))'; "
            + "else printf '{\"id\": \"q\", \"name\": \"per-query %s\"}\\n' \"$1\"; fi"
        return CommandSource(command: command, timeout: .seconds(5))
    }

    @Test func onceInMemoryTheListAnswersAtOnceOnTheCallersThread() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["Jo Ng", "John Doe"])
        let index = IndexCache(folder: folder.file("cache/index"), minimumSize: 0)
        let source = CachedSource(command: listCommand(folder), maxAge: .seconds(3600), cacheFolder: folder.file("cache"),
                                  indexCache: index)
        #expect(source.answerNow("jo") == nil)
        #expect(await answer(source, "jo").ids == ["p0", "p1"])
        #expect(source.answerNow("doe")?.map(\.entity.id) == ["p1"])
        // The list's index is written: the next start maps it.
        let next = CachedSource(command: listCommand(folder), maxAge: .seconds(3600), cacheFolder: folder.file("cache"),
                                indexCache: index)
        #expect(try DirectoryLoader.load(paths: [next.path], cache: index).indexStatus == .used)
        #expect(await answer(next, "john").ids == ["p1"])
        #expect(runs(folder) == 1)
    }

    @Test func preloadingReadsTheKeptListWithoutRunningTheSource() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["Jo Ng"])
        let fresh = cached(folder, notes: SourceNotes())
        fresh.preload()  // no list kept yet: nothing is fetched (the query does it, once)
        #expect(fresh.answerNow("jo") == nil)
        #expect(await answer(fresh, "jo").ids == ["p0"])
        let next = cached(folder, notes: SourceNotes())
        next.preload()
        #expect(await eventually { next.answerNow("jo")?.map(\.entity.id) == ["p0"] })
        #expect(runs(folder) == 1)
    }

    @Test func aListLongerThanTheLimitIsAskedPerQueryUntilItIsStale() async throws {
        let folder = try ScriptFolder()
        try writeList(folder, ["A One", "A Two", "A Three"])
        let notes = SourceNotes()
        func make() -> CachedSource {
            CachedSource(command: listOrQueryCommand(folder), maxAge: .seconds(3600), cacheFolder: folder.file("cache"),
                         notes: notes, listLimit: 2)
        }
        let source = make()
        #expect(await answer(source, "ab").ids == ["q"])
        #expect(source.answerNow("ab") == nil)
        #expect(notes.take() == ["the list has more than 2 people: asking the source at each keystroke instead"])
        #expect(FileManager.default.fileExists(atPath: source.tooLargePath))
        // A new start asks per query at once: no list fetch.
        #expect(await answer(make(), "cd").ids == ["q"])
        #expect((folder.read("runs") ?? "").split(separator: "\n") == ["run ", "run ab", "run cd"])
        // When the marker is stale the list is tried again (now short enough).
        try writeList(folder, ["A One"])
        age(source.tooLargePath, hours: 2)
        #expect(await answer(make(), "one").ids == ["p0"])
        #expect(!FileManager.default.fileExists(atPath: source.tooLargePath))
    }
}
