import AtpadCore
import AtpadTestSupport
import Foundation
import Testing
@testable import AtpadDirectory
import Glibc

/// The on-disk index of big directories
/// (docs/directories.md, "Big directories: the index cache"): a mapped index ranks exactly
/// like the parsed file, and an index that is stale, cut short, damaged or of another
/// version is never used.
@Suite struct IndexCacheTests {
    /// A cache that indexes directories of any size.
    static func cache(_ folder: TemporaryFolder) -> IndexCache {
        IndexCache(folder: folder.path("cache/atpad/index"), minimumSize: 0)
    }

    /// One NDJSON line of `entity`.
    static func line(_ entity: Entity) -> String {
        var fields = ["\"id\": \(JSONText.quote(entity.id))", "\"name\": \(JSONText.quote(entity.name))"]
        if let handle = entity.handle { fields.append("\"handle\": \(JSONText.quote(handle))") }
        if let detail = entity.detail { fields.append("\"detail\": \(JSONText.quote(detail))") }
        if let url = entity.url { fields.append("\"url\": \(JSONText.quote(url))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func write(_ entities: [Entity], to name: String, in folder: TemporaryFolder) throws -> String {
        try folder.write(name, entities.map(line).joined(separator: "\n") + "\n")
    }

    /// Random people: names from an alphabet that collides a lot (accents, ß, CJK,
    /// separators), some handles with `@`, details and urls now and then, a duplicate id
    /// now and then (the warning travels with the index).
    static func people(_ count: Int, wide: Bool = false, using rng: inout SeededRandom) -> [Entity] {
        let names = wide ? RankingPropertyTests.wideNameAlphabet : RankingPropertyTests.nameAlphabet
        let handles = ["a", "b", "s", "e", "@", "-", "é"] + (wide ? ["😀", "𠀋"] : [])
        return (0 ..< count).map { offset in
            var name = RankingPropertyTests.randomText(names, maxLength: 12, using: &rng)
            if Folding.folded(name).isEmpty { name = "b" + name }
            let handle: String? = rng.chance(0.6)
                ? RankingPropertyTests.randomText(handles, maxLength: 6, using: &rng) : nil
            let id = rng.chance(0.02) ? "p\(rng.int(0 ..< max(offset, 1)))" : "p\(offset)"
            return Entity(id: id, name: name, handle: handle?.isEmpty == true ? nil : handle,
                          detail: rng.chance(0.3) ? "détail \(offset)" : nil,
                          url: rng.chance(0.2) ? "https://example.com/\(offset)" : nil)
        }
    }

    /// Loads `paths` through the cache, writing the index when one was missing.
    @discardableResult
    static func load(_ paths: [String], _ cache: IndexCache) throws -> MergedDirectory {
        let merged = try DirectoryLoader.load(paths: paths, cache: cache)
        merged.writeIndex()
        return merged
    }

    static func isDamaged(_ status: IndexStatus?) -> Bool {
        if case let .pending(why) = status { return why.hasPrefix("damaged") }
        return false
    }

    @Test func mappedResultsEqualParsedResultsForRandomQueries() throws {
        try Self.mappedResultsEqualParsedResults(seed: 14_016, trials: 25, wide: false)
    }

    /// Names and handles with scalars past U+FFFF (emoji, CJK extension B), which the
    /// index stores three bytes a scalar, mixed with one- and two-byte ones (the plain
    /// alphabet already mixes those: `王` takes two).
    @Test func mappedResultsEqualParsedResultsWithScalarsPastU_FFFF() throws {
        try Self.mappedResultsEqualParsedResults(seed: 16_016, trials: 15, wide: true)
    }

    /// Each entry's folded text takes the fewest bytes a scalar its largest scalar needs,
    /// and reads back as the scalars it folded to, from the arrays and from the file.
    @Test func foldedTextTakesOneTwoOrThreeBytesAScalar() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = Self.cache(folder)
        let people = [
            Entity(id: "1", name: "Zoë Ørsted", handle: "@zoe"),
            Entity(id: "2", name: "王伟 Wang", handle: "ßwang"),
            Entity(id: "3", name: "𠀋 Cat 🐈", handle: "@😀x"),
            Entity(id: "4", name: "Ana", handle: "王"),
        ]
        let path = try Self.write(people, to: "a.ndjson", in: folder)
        let parsed = try Self.load([path], cache)
        let mapped = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(mapped.index.isMapped)
        for index in [parsed.index, mapped.index] {
            index.withBuffers { buffers in
                #expect((0 ..< 4).map { buffers.name($0).width } == [1, 2, 3, 1])
                #expect((0 ..< 4).map { buffers.handle($0).width } == [1, 1, 3, 2])
                for position in 0 ..< 4 {
                    let name = buffers.name(position)
                    #expect((0 ..< name.count).map { name[$0] } == Folding.folded(people[position].name).unicodeScalars.map(\.value))
                }
                let handle = buffers.handle(2)
                #expect((0 ..< handle.count).map { handle[$0] } == [0x1F600, 0x78])
            }
            #expect(index.rank("🐈").map(\.entity.id) == ["3"])
            #expect(index.rank("😀").map(\.entity.id) == ["3"])
            #expect(Set(index.rank("王").map(\.entity.id)) == ["2", "4"])
            #expect(index.rank("cat").first?.matches == [2 ..< 5])
        }
    }

    static func mappedResultsEqualParsedResults(seed: UInt64, trials: Int, wide: Bool) throws {
        var rng = SeededRandom(seed: seed)
        let queryAlphabet = wide ? RankingPropertyTests.wideQueryAlphabet : RankingPropertyTests.queryAlphabet
        for trial in 0 ..< trials {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let cache = Self.cache(folder)
            // One or two files, merged in order.
            var paths = [try Self.write(Self.people(rng.int(1 ..< 300), wide: wide, using: &rng), to: "a.ndjson", in: folder)]
            if rng.chance(0.3) {
                paths.append(try Self.write(Self.people(rng.int(1 ..< 50), wide: wide, using: &rng), to: "b.ndjson", in: folder))
            }
            let parsed = try Self.load(paths, cache)
            #expect(parsed.indexStatus == .pending("none yet"))
            #expect(!parsed.index.isMapped)
            let mapped = try DirectoryLoader.load(paths: paths, cache: cache)
            #expect(mapped.indexStatus == .used, "trial \(trial)")
            #expect(mapped.index.isMapped)
            #expect(mapped.entities == parsed.entities)
            #expect(mapped.warnings == parsed.warnings)

            // Frecency goes through the id table of the mapped index.
            var scores: [String: Double] = [:]
            for entity in parsed.entities where rng.chance(0.1) {
                scores[entity.id] = [-1, 0.5, 3, .nan].randomElement(using: &rng)!
            }
            scores["nobody"] = 5
            let frozen = scores
            let limit = [1, 5, 50].randomElement(using: &rng)!
            let fromFile = FileDirectory(parsed, limit: limit, frecency: { frozen })
            let fromIndex = FileDirectory(mapped, limit: limit, frecency: { frozen })
            for _ in 0 ..< 6 {
                let typed = RankingPropertyTests.randomText(queryAlphabet, maxLength: 6, using: &rng)
                var query = ""
                for character in [""] + typed.map(String.init) {
                    query += character
                    let expected = parsed.index.rankedMatches(query, limit: limit, frecency: { frozen[$0] ?? 0 })
                    let actual = mapped.index.rankedMatches(query, limit: limit, frecency: { frozen[$0] ?? 0 })
                    #expect(actual == expected, "trial \(trial), query \(query.debugDescription)")
                    #expect(fromIndex.rank(query) == fromFile.rank(query), "trial \(trial), query \(query.debugDescription)")
                    if actual != expected { return }
                }
            }
        }
    }

    @Test func anIndexIsRebuiltWhenTheFileIsRewrittenWithTheSameSizeAndTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = Self.cache(folder)
        let path = try folder.write("people.ndjson", Self.line(Entity(id: "u1", name: "John Doe")) + "\n")
        try Self.load([path], cache)
        #expect(try DirectoryLoader.load(paths: [path], cache: cache).indexStatus == .used)
        var before = stat()
        stat(path, &before)

        // Rewritten in place (the same inode), the same size, the modification time put back.
        let fd = open(path, O_WRONLY | O_TRUNC)
        let text = Array((Self.line(Entity(id: "u1", name: "Jane Roe")) + "\n").utf8)
        #expect(Glibc.write(fd, text, text.count) == text.count)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        stat(path, &after)
        #expect(after.st_size == before.st_size && after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)

        let reloaded = try Self.load([path], cache)
        #expect(reloaded.indexStatus == .pending("stale"))
        #expect(FileDirectory(reloaded).rank("ja").map(\.entity.name) == ["Jane Roe"])
        let mapped = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(mapped.indexStatus == .used)
        #expect(FileDirectory(mapped).rank("ja").map(\.entity.name) == ["Jane Roe"])

        // Replaced by another file (a new inode) of the same size and times.
        let other = try folder.write("other.ndjson", Self.line(Entity(id: "u1", name: "Jack Roe")) + "\n")
        #expect(utimensat(AT_FDCWD, other, &times, 0) == 0)
        #expect(rename(other, path) == 0)
        let replaced = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(replaced.indexStatus == .pending("stale"))
        #expect(FileDirectory(replaced).rank("ja").map(\.entity.name) == ["Jack Roe"])
    }

    /// Damages the one index file in the cache with `damage` (given its descriptor and
    /// size), then expects the next load to parse the file, and the one after to map a
    /// good index again.
    func expectRebuilt(after damage: (Int32, Int) -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = Self.cache(folder)
        var rng = SeededRandom(seed: 99)
        let people = Self.people(2000, using: &rng)
        let path = try Self.write(people, to: "people.ndjson", in: folder)
        let parsed = try Self.load([path], cache)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder)
        #expect(files.count == 1)
        let index = cache.folder + "/" + files[0]
        var info = stat()
        stat(index, &info)
        let fd = open(index, O_RDWR)
        damage(fd, Int(info.st_size))
        close(fd)

        let reloaded = try Self.load([path], cache)
        #expect(Self.isDamaged(reloaded.indexStatus), "\(String(describing: reloaded.indexStatus))")
        #expect(!reloaded.index.isMapped)
        #expect(reloaded.entities == parsed.entities)
        let mapped = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(mapped.indexStatus == .used)
        #expect(FileDirectory(mapped).rank("a") == FileDirectory(parsed).rank("a"))
    }

    @Test func aTruncatedIndexIsRebuilt() throws {
        try expectRebuilt { fd, size in #expect(ftruncate(fd, off_t(size / 2)) == 0) }
        try expectRebuilt { fd, size in #expect(ftruncate(fd, off_t(size - 8)) == 0) }
    }

    @Test func anIndexWithFlippedBytesIsRebuilt() throws {
        // Anywhere after the magic: the header, the middle, the last byte.
        for offset in [20, 200, -1, -2] {
            try expectRebuilt { fd, size in
                let at = offset >= 0 ? (offset < 200 ? offset : size / 2) : size + offset
                var byte: UInt8 = 0
                pread(fd, &byte, 1, off_t(at))
                byte ^= 0x10
                pwrite(fd, &byte, 1, off_t(at))
            }
        }
    }

    @Test func anIndexOfAnotherVersionIsRebuilt() throws {
        try expectRebuilt { fd, _ in
            var version = (IndexFormat.version + 1).littleEndian
            pwrite(fd, &version, 8, 16)
        }
        try expectRebuilt { fd, _ in
            let magic = Array("notatpad".utf8)
            pwrite(fd, magic, 8, 0)
        }
    }

    @Test func otherLoadOptionsUseAnotherIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("people.ndjson", Self.line(Entity(id: "u1", name: "John Doe")) + "\n")
        try Self.load([path], Self.cache(folder))
        var other = Self.cache(folder)
        other.options = "items=people"
        #expect(try DirectoryLoader.load(paths: [path], cache: other).indexStatus == .pending("none yet"))
        #expect(try DirectoryLoader.load(paths: [path], cache: Self.cache(folder)).indexStatus == .used)
    }

    @Test func aCacheFolderThatCannotBeWrittenMeansNoIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("people.ndjson", Self.line(Entity(id: "u1", name: "John Doe")) + "\n")
        // A file where the folder should be, and a folder of /proc: mkdir fails for root too.
        try folder.write("cache", "in the way")
        for cache in [IndexCache(folder: folder.path("cache/atpad/index"), minimumSize: 0),
                      IndexCache(folder: "/proc/atpad-index-test/index", minimumSize: 0)] {
            let merged = try DirectoryLoader.load(paths: [path], cache: cache)
            guard case let .unavailable(why) = merged.writeIndex() else {
                Issue.record("expected no index")
                continue
            }
            #expect(why.contains("cannot create the folder"))
            #expect(FileDirectory(merged).rank("jo").map(\.entity.id) == ["u1"])
        }
    }

    @Test func smallDirectoriesAreNotIndexed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("people.ndjson", Self.line(Entity(id: "u1", name: "John Doe")) + "\n")
        let cache = IndexCache(folder: folder.path("cache"))
        let merged = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(!merged.needsIndexWrite)
        guard case .unavailable = merged.indexStatus else {
            Issue.record("expected no index")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("cache")))
    }

    @Test func indexesWrittenAtOnceLeaveOneGoodFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = Self.cache(folder)
        var rng = SeededRandom(seed: 7)
        let path = try Self.write(Self.people(3000, using: &rng), to: "people.ndjson", in: folder)
        let loads = try (0 ..< 4).map { _ in try DirectoryLoader.load(paths: [path], cache: cache) }
        DispatchQueue.concurrentPerform(iterations: loads.count) { i in
            #expect(loads[i].writeIndex() == .written("none yet"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).count == 1)
        let mapped = try DirectoryLoader.load(paths: [path], cache: cache)
        #expect(mapped.indexStatus == .used)
        #expect(mapped.entities == loads[0].entities)
    }
}
