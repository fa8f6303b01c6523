import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

private let day: TimeInterval = 24 * 60 * 60
private let start = Date(timeIntervalSince1970: 1_700_000_000)

@Suite struct FrecencyScoreTests {
    @Test func aPickCountsOneAndHalvesEveryHalfLife() {
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        #expect(store.score(of: "u1", trigger: "@", now: start) == 1)
        #expect(abs(store.score(of: "u1", trigger: "@", now: start + 14 * day) - 0.5) < 1e-12)
        #expect(abs(store.score(of: "u1", trigger: "@", now: start + 28 * day) - 0.25) < 1e-12)
        #expect(abs(store.score(of: "u1", trigger: "@", now: start + 7 * day) - 0.5.squareRoot()) < 1e-12)
        #expect(store.score(of: "u2", trigger: "@", now: start) == 0)
    }

    @Test func scoresAreTheSumOfDecayedPicks() {
        var store = FrecencyStore(halfLife: 10 * day)
        let picks: [TimeInterval] = [0, 3, 3, 12.5, 20]
        for at in picks { store.recordPick(of: "u1", trigger: "@", now: start + at * day) }
        let now = start + 31 * day
        let expected = picks.map { pow(0.5, (31 - $0) / 10) }.reduce(0, +)
        #expect(abs(store.score(of: "u1", trigger: "@", now: now) - expected) < 1e-9)
        #expect(store.entries(for: "@")["u1"]?.updated == start + 20 * day)
    }

    @Test func triggersAreKeptApart() {
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        store.recordPick(of: "u1", trigger: "#", now: start)
        store.recordPick(of: "u1", trigger: "#", now: start)
        #expect(store.score(of: "u1", trigger: "@", now: start) == 1)
        #expect(store.score(of: "u1", trigger: "#", now: start) == 2)
        #expect(store.score(of: "u1", trigger: "+", now: start) == 0)
    }

    @Test func aClockSetBackNeitherGrowsNorLosesScores() {
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        #expect(store.score(of: "u1", trigger: "@", now: start - 30 * day) == 1)
        store.recordPick(of: "u1", trigger: "@", now: start - day)
        #expect(store.score(of: "u1", trigger: "@", now: start) == 2)
        #expect(store.entries(for: "@")["u1"]?.updated == start)
    }

    @Test func theScorerIsASnapshotForOneTrigger() {
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        let scorer = store.scorer(for: "@", now: start + 14 * day)
        store.recordPick(of: "u2", trigger: "@", now: start)
        #expect(abs(scorer("u1") - 0.5) < 1e-12)
        #expect(scorer("u2") == 0)
        #expect(store.scorer(for: "#", now: start)("u1") == 0)
    }
}

@Suite struct FrecencyFileTests {
    @Test func defaultLocationFollowsXDG() {
        #expect(FrecencyStore.defaultURL(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path == "/s/atpad/frecency.json")
        #expect(FrecencyStore.defaultURL(environment: ["HOME": "/h"])?.path == "/h/.local/state/atpad/frecency.json")
        // Empty or relative XDG paths are ignored, as the XDG rules say.
        #expect(FrecencyStore.defaultURL(environment: ["XDG_STATE_HOME": "", "HOME": "/h"])?.path == "/h/.local/state/atpad/frecency.json")
        #expect(FrecencyStore.defaultURL(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])?.path == "/h/.local/state/atpad/frecency.json")
        #expect(FrecencyStore.defaultURL(environment: [:]) == nil)
    }

    @Test func saveAndLoadRoundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("state/atpad/frecency.json")
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        store.recordPick(of: "u1", trigger: "@", now: start + 0.25)
        store.recordPick(of: "we\"ird\nid", trigger: "@", now: start + day)
        store.recordPick(of: "c1", trigger: "#", now: start + 2 * day)
        try store.save(to: url, now: start + 3 * day)

        let (loaded, warning) = FrecencyStore.load(from: url)
        #expect(warning == nil)
        #expect(loaded.entries == store.entries)
        #expect(loaded.score(of: "we\"ird\nid", trigger: "@", now: start + day) == 1)

        // Private state: the file is 0600 and no temporary file is left behind.
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names == ["frecency.json"])
    }

    @Test func theFileIsReadableJSON() throws {
        var store = FrecencyStore()
        store.recordPick(of: "u2", trigger: "@", now: start)
        store.recordPick(of: "u1", trigger: "@", now: start)
        let text = FrecencyFile.encode(store.entries)
        #expect(text == """
        {
          "version": 1,
          "triggers": {
            "@": {
              "u1": [1.0, 1700000000.0],
              "u2": [1.0, 1700000000.0]
            }
          }
        }

        """)
        #expect(FrecencyFile.encode([:]) == "{\n  \"version\": 1,\n  \"triggers\": {}\n}\n")
        #expect(try FrecencyFile.decode(Array(FrecencyFile.encode([:]).utf8), path: "f").isEmpty)
    }

    @Test func aMissingFileIsAnEmptyStoreWithoutWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, warning) = FrecencyStore.load(from: folder.url.appendingPathComponent("none/frecency.json"))
        #expect(store.entries.isEmpty)
        #expect(warning == nil)
    }

    @Test(arguments: [
        ("{\"version\": 1, \"triggers\": {\"@\": {\"u1\": [1, 2]}", "not valid JSON"),
        ("[]", "not an atpad frecency file"),
        ("{\"triggers\": {}}", "no \"version\""),
        ("{\"version\": 2, \"triggers\": {}}", "version the number 2 is not supported"),
        ("{\"version\": 1, \"triggers\": []}", "\"triggers\" must be an object"),
        ("{\"version\": 1, \"triggers\": {\"@\": 5}}", "trigger \"@\" must be an object"),
        ("{\"version\": 1,\n\"triggers\": {\"@\": {\"u1\": [1]}}}", "f.json:2: the entry of \"u1\" must be [score, seconds since 1970]"),
        ("{\"version\": 1, \"triggers\": {\"@\": {\"u1\": [-1, 5]}}}", "the entry of \"u1\""),
        ("{\"version\": 1, \"triggers\": {\"@\": {\"u1\": [\"1\", 5]}}}", "the entry of \"u1\""),
        ("\u{FF}", "not valid UTF-8"),
        ("", "not valid JSON"),
    ])
    func aCorruptFileIsIgnoredWithOneLineOfWarning(text: String, fragment: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes: [UInt8] = text == "\u{FF}" ? [0xFF] : Array(text.utf8)
        let path = try folder.write("f.json", bytes)
        let (store, warning) = FrecencyStore.load(from: URL(fileURLWithPath: path))
        #expect(store.entries.isEmpty)
        let line = try #require(warning)
        #expect(line.hasPrefix("ignoring the frecency file: \(path)"))
        #expect(line.contains(fragment), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test func anUnreadableFileIsIgnoredWithAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A folder where the file should be cannot be read, whoever runs the tests.
        let url = folder.url.appendingPathComponent("frecency.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let (store, warning) = FrecencyStore.load(from: url)
        #expect(store.entries.isEmpty)
        #expect(warning == "ignoring the frecency file: \(url.path): is a folder, not a directory file")
    }

    @Test func aCorruptFileIsReplacedOnSave() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("frecency.json", "garbage")
        let url = URL(fileURLWithPath: path)
        var (store, warning) = FrecencyStore.load(from: url)
        #expect(warning != nil)
        store.recordPick(of: "u1", trigger: "@", now: start)
        try store.save(to: url, now: start)
        let reloaded = FrecencyStore.load(from: url)
        #expect(reloaded.warning == nil)
        #expect(reloaded.store.score(of: "u1", trigger: "@", now: start) == 1)
    }

    @Test func savingReplaysPicksOverWhatAnotherAtpadSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("frecency.json")
        var first = FrecencyStore.load(from: url).store
        var second = FrecencyStore.load(from: url).store
        first.recordPick(of: "u1", trigger: "@", now: start)
        second.recordPick(of: "u2", trigger: "@", now: start)
        second.recordPick(of: "u1", trigger: "@", now: start)
        try first.save(to: url, now: start)
        try second.save(to: url, now: start)
        let merged = FrecencyStore.load(from: url).store
        #expect(merged.score(of: "u1", trigger: "@", now: start) == 2)
        #expect(merged.score(of: "u2", trigger: "@", now: start) == 1)
        #expect(second.entries == merged.entries)
        // Saving again adds nothing twice.
        try second.save(to: url, now: start)
        #expect(FrecencyStore.load(from: url).store.score(of: "u1", trigger: "@", now: start) == 2)
    }

    @Test func oldEntriesAreDroppedOnSave() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("frecency.json")
        var store = FrecencyStore()
        store.recordPick(of: "old", trigger: "@", now: start)
        store.recordPick(of: "new", trigger: "@", now: start + 200 * day)
        try store.save(to: url, now: start + 200 * day)
        #expect(Set(store.entries(for: "@").keys) == ["new"])
        #expect(Set(FrecencyStore.load(from: url).store.entries(for: "@").keys) == ["new"])
    }

    @Test func anUnwritableLocationIsAnErrorValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A file where the folder should be: mkdir fails for root too.
        try folder.write("state", "a file")
        let url = folder.url.appendingPathComponent("state/atpad/frecency.json")
        var store = FrecencyStore()
        store.recordPick(of: "u1", trigger: "@", now: start)
        let before = store
        let error = thrown(FrecencyStore.SaveError.self) { try store.save(to: url, now: start) }
        let message = try #require(error?.message)
        #expect(message.hasPrefix("cannot save frecency to \(url.path): cannot create the folder"))
        #expect(store == before)

        // A folder where the file should be: the rename fails, the temporary file goes.
        let blocked = folder.url.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("frecency.json/inside"), withIntermediateDirectories: true)
        let renameError = thrown(FrecencyStore.SaveError.self) {
            try store.save(to: blocked.appendingPathComponent("frecency.json"), now: start)
        }
        #expect(renameError?.message.contains("rename failed") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocked.path) == ["frecency.json"])

        // A read-only folder, when the tests do not run as root (root may write anywhere).
        if geteuid() != 0 {
            let readOnly = folder.url.appendingPathComponent("ro")
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnly.path)
            let denied = thrown(FrecencyStore.SaveError.self) {
                try store.save(to: readOnly.appendingPathComponent("frecency.json"), now: start)
            }
            #expect(denied?.message.contains("cannot create a temporary file") == true)
        }
    }
}

@Suite struct FrecencyRankingTests {
    let people = [
        Entity(id: "u1", name: "John Doe"),
        Entity(id: "u2", name: "Jo Ng"),
        Entity(id: "u3", name: "Johanna Schmidt"),
        Entity(id: "u4", name: "Major Tom"),
        Entity(id: "u5", name: "Benjamin Holt"),
    ]

    @Test func frecencyOrdersWithinAClassButNeverAcrossClasses() {
        var store = FrecencyStore()
        for _ in 0 ..< 5 { store.recordPick(of: "u3", trigger: "@", now: start) }
        store.recordPick(of: "u1", trigger: "@", now: start)
        // A substring match picked often still ranks after every prefix match.
        for _ in 0 ..< 50 { store.recordPick(of: "u4", trigger: "@", now: start) }
        let scores = store.scores(for: "@", now: start + day)
        let directory = FileDirectory(entities: people, frecency: { scores })
        let results = directory.index.rankedMatches("jo", frecency: { scores[$0] ?? 0 })
        // "Jo Ng" comes first: `jo` is the whole word "Jo", which ranks before frecency
        // within class 1 (docs/directories.md, "Ranking and frecency"); the other prefix
        // matches follow by frecency.
        #expect(results.map(\.candidate.entity.id) == ["u2", "u3", "u1", "u4", "u5"])
        #expect(results.map(\.matchClass) == [.prefix, .prefix, .prefix, .substring, .fuzzy])
    }

    @Test func recentPicksBeatOldFrequentOnes() {
        var store = FrecencyStore()
        for _ in 0 ..< 3 { store.recordPick(of: "u1", trigger: "@", now: start) }
        store.recordPick(of: "u3", trigger: "@", now: start + 60 * day)
        let later = store.scores(for: "@", now: start + 60 * day)
        let directory = FileDirectory(entities: people, frecency: { later })
        #expect(directory.rank("joh").map(\.entity.id) == ["u3", "u1"])
        // At the time of the old picks, the frequent one wins.
        let earlier = store.scores(for: "@", now: start)
        let then = FileDirectory(entities: people, frecency: { earlier })
        #expect(then.rank("joh").map(\.entity.id) == ["u1", "u3"])
    }

    @Test func theEmptyQueryListsByFrecencyThenDirectoryOrder() {
        var store = FrecencyStore()
        store.recordPick(of: "u5", trigger: "@", now: start)
        store.recordPick(of: "u5", trigger: "@", now: start)
        store.recordPick(of: "u2", trigger: "@", now: start)
        store.recordPick(of: "u1", trigger: "#", now: start)
        let scores = store.scores(for: "@", now: start)
        let directory = FileDirectory(entities: people, frecency: { scores })
        #expect(directory.rank("").map(\.entity.id) == ["u5", "u2", "u1", "u3", "u4"])
    }
}
