import Foundation
import Testing
@testable import AtpadSystem
import AtpadTestSupport
import Glibc

/// The one file writer: what it keeps of the file it replaces, what it leaves when a write
/// fails, and the in-place write for a folder that allows no temporary file.
@Suite struct AtomicFileTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o7777
    }

    private func status(_ path: String) -> stat {
        var info = stat()
        stat(path, &info)
        return info
    }

    private func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in `folder`, sorted (a temporary file left behind shows here).
    private func names(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    /// This process's umask, read without changing it.
    private func umaskNow() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test func privateStateIsOwnerOnlyAndMakesItsFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("state/atpad/file.json")
        try AtomicFile.write(Array("one".utf8), to: path)
        #expect(contents(path) == "one")
        #expect(mode(path) == 0o600)
        #expect(mode(folder.path("state")) == 0o700 && mode(folder.path("state/atpad")) == 0o700)

        // A file others could read becomes owner-only when it is written again.
        chmod(path, 0o644)
        try AtomicFile.write(Array("two".utf8), to: path)
        #expect(contents(path) == "two")
        #expect(mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("state/atpad")) == ["file.json"])
    }

    @Test func aDocumentKeepsItsModeAndANewOneFollowsTheUmask() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("c.md", "old")
        chmod(path, 0o640)
        try AtomicFile.write(Array("new".utf8), to: path, .document)
        #expect(contents(path) == "new")
        #expect(mode(path) == 0o640)

        let fresh = folder.path("fresh.md")
        try AtomicFile.write(Array("x".utf8), to: fresh, .document)
        #expect(mode(fresh) == 0o666 & ~(try umaskNow()))
        #expect(try names(folder) == ["c.md", "fresh.md"])
    }

    @Test func aDocumentKeepsItsOwnerAndGroupWhereTheSystemAllows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("c.md", "old")
        // Only root may give a file to someone else; anyone else keeps their own.
        let owner: uid_t = geteuid() == 0 ? 65534 : geteuid()
        let group: gid_t = geteuid() == 0 ? 65534 : getegid()
        #expect(chown(path, owner, group) == 0)
        try AtomicFile.write(Array("new".utf8), to: path, .document)
        #expect(contents(path) == "new")
        #expect(status(path).st_uid == owner && status(path).st_gid == group)
    }

    @Test func aDocumentIsWrittenThroughASymlinkAndPrivateStateReplacesIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = try folder.write("real.md", "a")
        let link = folder.path("link.md")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write(Array("b".utf8), to: link, .document)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(contents(target) == "b")

        try AtomicFile.write(Array("c".utf8), to: link)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect(contents(link) == "c" && contents(target) == "b")
    }

    /// Issue 32: as vim does, a write through a symlink whose target is missing creates
    /// the target and leaves the link a link — relative or absolute link text, and along a
    /// chain of links; a loop is a failure that changes nothing.
    @Test func aDanglingSymlinkIsWrittenThroughAndStaysALink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
        for (link, text, target) in [
            ("rel.md", "new.md", folder.path("new.md")),
            ("abs.md", folder.path("sub/abs-target.md"), folder.path("sub/abs-target.md")),
            ("up.md", "sub/../sub/up-target.md", folder.path("sub/up-target.md")),
        ] {
            try fm.createSymbolicLink(atPath: folder.path(link), withDestinationPath: text)
            try AtomicFile.write(Array("saved \(link)".utf8), to: folder.path(link), .document)
            #expect(try fm.destinationOfSymbolicLink(atPath: folder.path(link)) == text)
            #expect(contents(target) == "saved \(link)")
            // Written again, the target exists now: replaced, the link kept.
            try AtomicFile.write(Array("again".utf8), to: folder.path(link), .document)
            #expect(try fm.destinationOfSymbolicLink(atPath: folder.path(link)) == text)
            #expect(contents(target) == "again")
        }
        // A chain: a → sub/b → ../c (dangling), relative to each link's own folder.
        try fm.createSymbolicLink(atPath: folder.path("sub/b"), withDestinationPath: "../c.md")
        try fm.createSymbolicLink(atPath: folder.path("a.md"), withDestinationPath: "sub/b")
        try AtomicFile.write(Array("chained".utf8), to: folder.path("a.md"), .document)
        #expect(try fm.destinationOfSymbolicLink(atPath: folder.path("a.md")) == "sub/b")
        #expect(try fm.destinationOfSymbolicLink(atPath: folder.path("sub/b")) == "../c.md")
        #expect(contents(folder.path("c.md")) == "chained")
        #expect(try AtomicFile.resolvingSymlinks(folder.path("a.md")) == folder.path("sub/../c.md"))
        // A loop.
        try fm.createSymbolicLink(atPath: folder.path("x.md"), withDestinationPath: "y.md")
        try fm.createSymbolicLink(atPath: folder.path("y.md"), withDestinationPath: "x.md")
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Array("z".utf8), to: folder.path("x.md"), .document) }
        #expect(try fm.destinationOfSymbolicLink(atPath: folder.path("x.md")) == "y.md")
        // Private state still replaces a link, dangling or not.
        try fm.createSymbolicLink(atPath: folder.path("state"), withDestinationPath: "nowhere")
        try AtomicFile.write(Array("s".utf8), to: folder.path("state"))
        #expect((try? fm.destinationOfSymbolicLink(atPath: folder.path("state"))) == nil)
        #expect(!fm.fileExists(atPath: folder.path("nowhere")))
    }

    @Test func aWriteThatFailsHalfwayLeavesTheOldFileAndNoTemporary() throws {
        struct Interrupted: Error {}
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("c.md", "the old text")
        let before = status(path).st_ino
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: path, .document) { output in
                try output.write(Array("half of the new".utf8))
                throw Interrupted()
            }
        }
        #expect(contents(path) == "the old text")
        #expect(status(path).st_ino == before)
        #expect(try names(folder) == ["c.md"])
    }

    @Test func aStreamedWriteCanGoBackToFillInAHeader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("index")
        try AtomicFile.write(to: path) { output in
            try output.write(Array("....body".utf8))
            try Array("head".utf8).withUnsafeBytes { raw in try output.write(raw, at: 0) }
        }
        #expect(contents(path) == "headbody")
        #expect(mode(path) == 0o600)
    }

    @Test func aFileInTheWayOfAFolderIsOneLineFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("state", "a file")
        let failure = thrown(AtomicFile.Failure.self) {
            try AtomicFile.write(Array("x".utf8), to: folder.path("state/atpad/f.json"))
        }
        #expect(failure?.message == "cannot create the folder \(folder.path("state")): a file is in the way")
        // A document's folder is never made: it must exist.
        let missing = thrown(AtomicFile.Failure.self) {
            try AtomicFile.write(Array("x".utf8), to: folder.path("missing/c.md"), .document)
        }
        #expect(missing?.message.hasPrefix("cannot create a temporary file in \(folder.path("missing"))") == true)
    }

    /// A folder this person may not write (as root, the test drops to `nobody` for file
    /// access on its own thread): the atomic write fails and leaves the file as it was; the
    /// write in place replaces its contents and keeps the file itself.
    @Test(.enabled(if: geteuid() != 0 || Self.temporaryFolderIsReachableByOthers))
    func aFolderThatAllowsNoTemporaryFileIsWrittenInPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("w.md", "draft")
        chmod(path, 0o640)
        let nobody: uid_t = 65534
        if geteuid() == 0 {
            chmod(folder.url.path, 0o755)
            #expect(chown(path, nobody, nobody) == 0)
        } else {
            chmod(folder.url.path, 0o555)
        }
        let before = status(path)
        try asSomeoneElse(nobody) {
            #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Array("lost".utf8), to: path, .document) }
            #expect(contents(path) == "draft")
            try AtomicFile.writeInPlace(Array("draft done".utf8), to: path)
        }
        #expect(contents(path) == "draft done")
        #expect(status(path).st_ino == before.st_ino)
        #expect(mode(path) == 0o640 && status(path).st_uid == before.st_uid)
        #expect(try names(folder) == ["w.md"])
    }

    @Test func writingInPlaceAFileThatIsNotThereFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let failure = thrown(AtomicFile.Failure.self) {
            try AtomicFile.writeInPlace(Array("x".utf8), to: folder.path("gone.md"))
        }
        #expect(failure?.message == "cannot open it: No such file or directory")
        #expect(try names(folder) == [])
    }

    @Test func aDocumentNeverReplacesAFIFOOrADevice() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.path("p.md")
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = folder.path("null.md")
        #expect(symlink("/dev/null", link) == 0)  // written through: the device is the target
        for path in [fifo, link] {
            let failure = thrown(AtomicFile.Failure.self) {
                try AtomicFile.write(Array("x".utf8), to: path, .document)
            }
            #expect(failure?.message.hasPrefix("\(path) is a ") == true, "\(String(describing: failure))")
            #expect(failure?.message.hasSuffix("not a regular file: atpad replaces only regular files") == true)
        }
        #expect(FileKind.of(fifo) == .fifo && FileKind.of("/dev/null") == .device)
        #expect(try names(folder) == ["null.md", "p.md"])
        // In place, a FIFO is refused at once, never waited on for a reader.
        let inPlace = thrown(AtomicFile.Failure.self) { try AtomicFile.writeInPlace(Array("x".utf8), to: fifo) }
        #expect(inPlace?.message == "\(fifo) is a FIFO, not a regular file: atpad replaces only regular files")
        // Private state keeps replacing whatever is at its own path.
        try AtomicFile.write(Array("state".utf8), to: fifo)
        #expect(FileKind.of(fifo) == .regular && contents(fifo) == "state")
    }

    /// Whether every folder above the temporary folder lets other users through (root's
    /// tests drop to `nobody`, who must reach the file).
    static var temporaryFolderIsReachableByOthers: Bool {
        var folder = FileManager.default.temporaryDirectory.standardizedFileURL.path
        while true {
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return true }
            folder = parent
        }
    }

    /// Runs `body` with the file-system permissions of `uid` on this thread when running as
    /// root (setfsuid is per thread and drops root's file capabilities), as itself otherwise.
    private func asSomeoneElse(_ uid: uid_t, _ body: () throws -> Void) throws {
        guard geteuid() == 0 else { return try body() }
        // glibc's setfsuid, which the Glibc module does not declare.
        typealias SetFSUID = @convention(c) (uid_t) -> Int32
        let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "setfsuid"))
        let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
        _ = setfsuid(uid)
        defer { _ = setfsuid(0) }
        try body()
    }
}
