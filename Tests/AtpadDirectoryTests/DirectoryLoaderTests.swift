import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory
import AtpadTestSupport

@Suite struct DirectoryFormatTests {
    @Test(arguments: [
        ("people.json", DirectoryFormat.json), ("dir/People.JSON", .json),
        ("a.ndjson", .ndjson), ("a.jsonl", .ndjson), ("a.JSONL", .ndjson),
        ("a.csv", .csv), ("x.y/a.Csv", .csv),
    ])
    func extensionsSayTheFormat(path: String, format: DirectoryFormat) {
        #expect(DirectoryFormat.forExtension(of: path) == format)
        // The extension wins over the contents.
        #expect(DirectoryFormat.of(path: path, bytes: Array("[]".utf8)) == format)
    }

    @Test(arguments: ["people", "people.txt", ".json", "dir.json/people", "people.json.bak", ""])
    func otherNamesSayNothing(path: String) {
        #expect(DirectoryFormat.forExtension(of: path) == nil)
    }

    @Test func sniffingLooksAtTheFirstByteThatIsNotWhitespace() {
        #expect(DirectoryFormat.sniff(Array("  \n[{}]".utf8)) == .json)
        #expect(DirectoryFormat.sniff(Array("\r\n\t{\"id\": 1}".utf8)) == .ndjson)
        #expect(DirectoryFormat.sniff(Array("id,name\n".utf8)) == .csv)
        #expect(DirectoryFormat.sniff([0xEF, 0xBB, 0xBF] + Array("[".utf8)) == .json)
        #expect(DirectoryFormat.sniff([0xEF, 0xBB, 0xBF] + Array("{".utf8)) == .ndjson)
        #expect(DirectoryFormat.sniff(Array("\"id\",name".utf8)) == .csv)
        #expect(DirectoryFormat.sniff([]) == .csv)
    }
}

@Suite struct DirectoryLoaderTests {
    @Test func everyFormatLoadsFromAFileByItsExtensionOrContents() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let json = try folder.write("a.json", #"[{"id": "u1", "name": "A"}]"#)
        let ndjson = try folder.write("b.jsonl", "{\"id\": \"u2\", \"name\": \"B\"}\n")
        let csv = try folder.write("c.csv", "id,name\nu3,C\n")
        let sniffedArray = try folder.write("d", " [{\"id\": \"u4\", \"name\": \"D\"}]")
        let sniffedLines = try folder.write("e.txt", "{\"id\": \"u5\", \"name\": \"E\"}")
        let sniffedCSV = try folder.write("f.people", "name,id\nF,u6\n")
        let merged = try DirectoryLoader.load(paths: [json, ndjson, csv, sniffedArray, sniffedLines, sniffedCSV])
        #expect(merged.entities.map(\.id) == ["u1", "u2", "u3", "u4", "u5", "u6"])
        #expect(merged.warnings.isEmpty)
        #expect(try DirectoryFile.load(path: csv) == [Entity(id: "u3", name: "C")])
    }

    @Test func duplicatesKeepTheFirstAndMakeOneWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try folder.write("a.json", """
        [
          {"id": "u1", "name": "John Doe"},
          {"id": "u42", "name": "Jane Roe"}
        ]
        """)
        let b = try folder.write("b.csv", "id,name\nu7,Seven\nu8,Eight\nu42,Other Jane\nu1,Other John\nu7,Again\n")
        let merged = try DirectoryLoader.load(paths: [a, b])
        #expect(merged.entities == [
            Entity(id: "u1", name: "John Doe"), Entity(id: "u42", name: "Jane Roe"),
            Entity(id: "u7", name: "Seven"), Entity(id: "u8", name: "Eight"),
        ])
        #expect(merged.warnings == [#"3 duplicate ids ignored (first: "u42" in \#(b):4)"#])
    }

    @Test func aSingleDuplicateIsSaidInTheSingular() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try folder.write("a.ndjson", "{\"id\": \"x\", \"name\": \"A\"}\n\n{\"id\": \"x\", \"name\": \"B\"}\n")
        let merged = try DirectoryLoader.load(paths: [a])
        #expect(merged.entities == [Entity(id: "x", name: "A")])
        #expect(merged.warnings == [#"1 duplicate id ignored ("x" in \#(a):3)"#])
    }

    @Test func theSameFileTwiceIsAllDuplicates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try folder.write("a.json", "[{\"id\": \"u1\", \"name\": \"A\"},\n {\"id\": \"u2\", \"name\": \"B\"}]")
        let merged = try DirectoryLoader.load(paths: [a, a])
        #expect(merged.entities.map(\.id) == ["u1", "u2"])
        #expect(merged.warnings == [#"2 duplicate ids ignored (first: "u1" in \#(a):1)"#])
    }

    @Test func idsAreComparedByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // "é" precomposed and decomposed are different ids; case differs too.
        let a = try folder.write("a.csv", "id,name\n\u{E9},A\ne\u{301},B\nU1,C\nu1,D\n")
        let merged = try DirectoryLoader.load(paths: [a])
        #expect(merged.entities.count == 4)
        #expect(merged.warnings.isEmpty)
    }

    @Test func theFirstBadFileStopsTheLoad() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = try folder.write("a.json", #"[{"id": "u1", "name": "A"}]"#)
        let bad = try folder.write("b.csv", "id,name\nu2,\n")
        let error = thrown(DirectoryError.self) { _ = try DirectoryLoader.load(paths: [good, bad, folder.path("missing.json")]) }
        #expect(error?.description == #"\#(bad):2: row has no "name""#)
        let missing = thrown(DirectoryError.self) { _ = try DirectoryLoader.load(paths: [folder.path("missing.json")]) }
        #expect(missing?.description == "\(folder.path("missing.json")): no such file")
        let isFolder = thrown(DirectoryError.self) { _ = try DirectoryLoader.load(paths: [folder.url.path]) }
        #expect(isFolder?.description == "\(folder.url.path): is a folder, not a directory file")
    }

    @Test func noFilesIsAnEmptyDirectory() throws {
        let merged = try DirectoryLoader.load(paths: [])
        #expect(merged.entities.isEmpty && merged.warnings.isEmpty)
    }

    @Test func aFileDirectoryOfMergedFilesRanksThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try folder.write("a.csv", "id,name,handle\nu1,John Doe,jdoe\n")
        let b = try folder.write("b.ndjson", "{\"id\": \"u2\", \"name\": \"Johanna Schmidt\"}\n")
        let directory = FileDirectory(try DirectoryLoader.load(paths: [a, b]), limit: 10)
        #expect(directory.rank("jo").map(\.entity.id) == ["u1", "u2"])
        #expect(try FileDirectory.load(path: b).entities.map(\.id) == ["u2"])
    }

    @Test func readsAFileLargerThanItsStatSize() throws {
        // /proc files report size 0; the reader must not trust the size.
        let bytes = try DirectoryFile.contents(of: "/proc/self/status")
        #expect(bytes.count > 0)
    }
}

@Suite struct IdSetTests {
    @Test func findsDuplicatesThroughGrowth() {
        var set = IdSet()
        var added = 0
        var refused = 0
        for number in 0 ..< 10_000 where set.insert("id\(number)") { added += 1 }
        for number in stride(from: 0, to: 10_000, by: 7) where !set.insert("id\(number)") { refused += 1 }
        #expect(added == 10_000)
        #expect(refused == 1_429)
        let new = set.insert("id10000")
        let empty = set.insert("")
        let emptyAgain = set.insert("")
        #expect(new && empty && !emptyAgain)
        #expect(set.count == 10_002)
    }
}
