@testable import AtpadApp
import AtpadCore
import Foundation
import Testing

/// `atpad drafts` (docs/drafts.md, "`atpad drafts`"): what a listed line holds, the order,
/// and which names are looked up; and the 24-hour window of the unnamed draft offered at
/// start.
@Suite struct DraftsCommandTests {
    func store() throws -> DraftStore {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("atpad-drafts-cmd-\(UUID().uuidString)").path
        return DraftStore(folder: path + "/drafts", currentDirectory: "/w")
    }

    func touch(_ path: String, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func aLineShowsControlCharactersAsEscapes() throws {
        let store = try store()
        let path = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_750_000_000), pid: 2_000_000_001)
        try store.write(MarkedText(text: "tab\there \u{1B}[31mred\nsecond line"), originalPath: nil, to: path,
                        written: Date(timeIntervalSince1970: 1_750_000_005), pid: 2_000_000_001)
        let draft = try #require(store.read(draftAt: path))
        let fields = DraftsCommand.line(draft).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == 5)
        #expect(fields[0] == "unnamed-20250615T150640Z-2000000001.draft")
        #expect(fields[1] == "(unnamed)")
        #expect(fields[2] == "2025-06-15 15:06:45 UTC")
        #expect(fields[3] == "\(Array(AtpadMarkup.encode(draft.document).utf8).count) bytes")
        #expect(fields[4] == "tab^Ihere ^[[31mred")
    }

    @Test func listedNewestFirstAndLookedUpByBareName() throws {
        let store = try store()
        let named = store.draftPath(for: "/w/a.md")
        let unnamed = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_750_000_000), pid: 2_000_000_002)
        try store.write(MarkedText(text: "a"), originalPath: "/w/a.md", to: named)
        try store.write(MarkedText(text: "b"), originalPath: nil, to: unnamed)
        touch(named, 1_750_000_000)
        touch(unnamed, 1_750_000_100)
        #expect(store.allDrafts().map(\.path) == [unnamed, named])
        #expect(DraftsCommand.line(store.allDrafts()[1]).split(separator: "\t")[1] == "/w/a.md")

        let name = (named as NSString).lastPathComponent
        #expect(try store.draft(named: name).document.text == "a")
        for bad in ["", ".", "..", "../drafts/" + name, "missing.draft"] {
            #expect(throws: UsageError.self) { try store.draft(named: bad) }
        }
    }

    @Test func anUnnamedDraftOlderThanTheWindowIsNotOffered() throws {
        let store = try store()
        let path = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_750_000_000), pid: 2_000_000_003)
        try store.write(MarkedText(text: "old"), originalPath: nil, to: path, pid: 2_000_000_003)
        touch(path, 1_750_000_000)
        #expect(store.newestUnnamedDraft(since: Date(timeIntervalSince1970: 1_750_000_001)) == nil)
        #expect(store.newestUnnamedDraft(since: Date(timeIntervalSince1970: 1_750_000_000))?.document.text == "old")
    }
}
