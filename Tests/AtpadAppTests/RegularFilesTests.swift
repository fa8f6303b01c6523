@testable import AtpadApp
import AtpadCore
import AtpadDirectory
@testable import AtpadSystem
import AtpadTerminal
import Foundation
import Testing

/// Issue 22 bullet 3 (docs/editor.md): only regular files are opened for writing; a save never
/// replaces a device, FIFO or socket, even one put where the file was while it was open.
@Suite struct RegularFilesTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "atpad-regular-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func kinds() throws {
        let dir = try folder()
        #expect(FileKind.of(dir) == .folder)
        #expect(FileKind.of(dir + "/none") == nil)
        #expect(FileManager.default.createFile(atPath: dir + "/f", contents: Data("x".utf8)))
        #expect(FileKind.of(dir + "/f") == .regular)
        #expect(mkfifo(dir + "/p", 0o600) == 0)
        #expect(FileKind.of(dir + "/p") == .fifo)
        #expect(FileKind.of("/dev/null") == .device)
        #expect(FileKind.of(dir + "/p")?.refusal(dir + "/p", doing: "edits")
            == "\(dir)/p is a FIFO, not a regular file: atpad edits only regular files")
        #expect(FileKind.regular.refusal("f", doing: "edits") == nil)
    }

    @Test func openingRefusesAFIFOWithoutBlockingAndADevice() throws {
        let dir = try folder()
        #expect(mkfifo(dir + "/p", 0o600) == 0)
        for path in [dir + "/p", "/dev/null"] {
            #expect(throws: UsageError.self) { try OpenedFile.read(path, beforeStandardInput: {}) }
        }
        // Read as bytes by the editor's reader, a FIFO is refused too, without blocking.
        #expect(throws: DocumentFile.Failure.self) { try DocumentFile.readBytes(dir + "/p", regularOnly: true) }
    }

    @Test func aFileReplacedByAFIFOWhileOpenIsNotReplacedOnSave() throws {
        let dir = try folder()
        let path = dir + "/c.md"
        try "text".write(toFile: path, atomically: false, encoding: .utf8)
        var options = EditOptions(path: path, document: MarkedText(text: "text"), sources: [:], config: EditorConfig(),
                                  theme: Theme(name: "test"), noColor: true, print: false)
        options.disk = DiskState.of(path, bytes: Array("text".utf8))
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let terminal = try FakeTerminal(keys: "x<C-s>")
        let (status, _) = EditSession(options, terminal: terminal).run()
        #expect(status == 1)  // input ended with the change unsaved
        #expect(FileKind.of(path) == .fifo)
        // The message may take two rows.
        let screen = terminal.lastScreen.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(screen.contains("c.md is a FIFO, not a regular file: atpad replaces only regular files; not saved"))
    }

    @Test func saveAsNeverReplacesADevice() throws {
        guard geteuid() == 0 else { return }  // only root could replace /dev/null at all
        let options = EditOptions(path: nil, document: MarkedText(), sources: [:], config: EditorConfig(),
                                  theme: Theme(name: "test"), noColor: true, print: false)
        let terminal = try FakeTerminal(keys: "x<C-s>/dev/null<Enter>")
        _ = EditSession(options, terminal: terminal).run()
        #expect(FileKind.of("/dev/null") == .device)
        let screen = terminal.lastScreen.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(screen.contains("/dev/null is a device, not a regular file"))
    }
}
