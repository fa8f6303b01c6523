@testable import AtpadApp
import AtpadDirectory
import Foundation
import Testing

/// Reading comment files strictly and writing them atomically (docs/editor.md).
@Suite struct DocumentFileTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func missingFileIsANewComment() throws {
        #expect(try DocumentFile.read(try folder().appendingPathComponent("none.txt").path) == nil)
    }

    @Test func invalidUTF8IsRefusedNamingTheByte() throws {
        let path = try folder().appendingPathComponent("bad.txt").path
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x6F, 0x6B, 0x20, 0xC3, 0x28]))
        #expect {
            _ = try DocumentFile.read(path)
        } throws: { error in
            "\(error)".contains("not valid UTF-8 (byte 4 of 5)") && "\(error)".contains(path)
        }
    }

    @Test(arguments: [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func surrogatesOverlongAndTruncatedSequencesAreInvalid(_ bytes: [UInt8]) {
        #expect(DocumentFile.firstInvalidUTF8([0x61] + bytes) == 1)
    }

    @Test func validUTF8IsRead() throws {
        let path = try folder().appendingPathComponent("ok.txt").path
        try "héllo 王 👩‍💻\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try DocumentFile.read(path) == "héllo 王 👩‍💻\n")
        #expect(DocumentFile.firstInvalidUTF8(Array("héllo 王 👩‍💻".utf8)) == nil)
    }

    @Test func folderIsRefused() throws {
        #expect(throws: DocumentFile.Failure.self) { _ = try DocumentFile.read(try folder().path) }
    }

    @Test func atomicWriteReplacesContentAndKeepsPermissions() throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("c.txt").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        try DocumentFile.writeAtomically("new @[A](1)", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new @[A](1)")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["c.txt"])
    }

    @Test func writeThroughSymlinkKeepsTheLink() throws {
        let dir = try folder()
        let target = dir.appendingPathComponent("real.txt").path
        let link = dir.appendingPathComponent("link.txt").path
        try "a".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try DocumentFile.writeAtomically("b", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "b")
    }

    @Test func failedWriteLeavesNothingAndSaysWhy() throws {
        let path = try folder().appendingPathComponent("missing/c.txt").path
        #expect {
            try DocumentFile.writeAtomically("x", to: path)
        } throws: { error in
            "\(error)".hasPrefix("cannot save \(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// `-d`, `-t CHAR=SOURCE`, `--directory-command`, `--directory-url` routing
/// (docs/directories.md, "Directory sources").
@Suite struct TriggerRoutingTests {
    @Test func filesMergePerTrigger() throws {
        let options = try DirectoryOptions.parse(["-d", "a.json", "-t", "#=c.json", "-t", "@=b.json", "-t", "#=d.json"])
        let triggers = try options.commandLineConfig().triggers
        #expect(triggers["@"]?.files == ["a.json", "b.json"])
        #expect(triggers["#"]?.files == ["c.json", "d.json"])
    }

    @Test func commandsAndURLs() throws {
        let options = try DirectoryOptions.parse([
            "-d", "a.json", "--directory-command", "grep -- \"$1\" people", "-t", "#=https://x.test/c?q={query}",
            "--command-timeout", "0.5",
        ])
        let config = try options.commandLineConfig()
        #expect(config.triggers["@"] == .init(files: ["a.json"], command: "grep -- \"$1\" people"))
        #expect(config.triggers["#"] == .init(url: "https://x.test/c?q={query}"))
        #expect(config.commandTimeout == .milliseconds(500))
    }

    @Test(arguments: [
        ["-t", "x=a.json"], ["-t", "@"], ["-t", "@="], ["-t", "@@=a.json"],
        ["--directory-command", "a", "--directory-url", "http://x/{query}"], ["--command-timeout", "0"],
    ])
    func badRoutesAreUsageErrors(_ arguments: [String]) throws {
        let options = try DirectoryOptions.parse(arguments)
        #expect(throws: UsageError.self) { _ = try options.commandLineConfig() }
    }

    @Test func theBundledDirectoryServesAtWhenNothingElseDoes() throws {
        let setup = try DirectoryOptions.parse(["-t", "#=" + (try BundledDirectory.path())]).load()
        #expect(setup.triggers == ["#", ":", "@"], "`:` is the bundled emoji directory's")
        #expect(setup.files["@"] != nil)
        let commandOnly = try DirectoryOptions.parse(["--directory-command", "true"]).load()
        #expect(commandOnly.sources["@"] is CommandSource)
        #expect(commandOnly.files["@"] == nil)
    }

    @Test func aMissingDirectoryFileIsAUsageError() throws {
        #expect(throws: UsageError.self) { _ = try DirectoryOptions.parse(["-d", "/nonexistent/people.json"]).load() }
    }
}
