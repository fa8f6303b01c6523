@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation
import Testing

/// The runtime with a fake terminal: key scripts in, files and exit statuses out.
@Suite struct EditSessionTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "atpad-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func options(path: String? = nil, text: String = "", print: Bool = false) throws -> EditOptions {
        EditOptions(path: path, document: MarkedText(text: text), sources: [:], config: EditorConfig(),
                    theme: Theme(name: "test"), noColor: true, print: print)
    }

    func run(_ options: EditOptions, keys: String) throws -> (status: Int32, printed: String?, terminal: FakeTerminal) {
        let terminal = try FakeTerminal(keys: keys)
        let (status, printed) = EditSession(options, terminal: terminal).run()
        #expect(terminal.started && terminal.stopped)
        return (status, printed.map { String(decoding: $0, as: UTF8.self) }, terminal)
    }

    @Test func saveAsWithoutAFileWritesTheNewFile() throws {
        let dir = try folder()
        let result = try run(try options(), keys: "hi @<Esc>x<C-s>\(dir)/new.md<Enter><C-q>")
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: dir + "/new.md", encoding: .utf8) == "hi @x")
    }

    @Test func saveAsOverAnExistingFileAsksFirst() throws {
        let dir = try folder()
        try "old".write(toFile: dir + "/old.md", atomically: true, encoding: .utf8)
        var result = try run(try options(), keys: "new<C-s>\(dir)/old.md<Enter>n<Esc><C-q>n")
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: dir + "/old.md", encoding: .utf8) == "old")
        result = try run(try options(), keys: "new<C-s>\(dir)/old.md<Enter>y<C-q>")
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: dir + "/old.md", encoding: .utf8) == "new")
    }

    @Test func saveAsIntoAMissingFolderSaysWhyAndLosesNothing() throws {
        let dir = try folder()
        let result = try run(try options(), keys: "words<C-s>\(dir)/missing/x.md<Enter>")
        #expect(result.status == 1)  // input ended with the words unsaved
        let screen = result.terminal.lastScreen.joined(separator: "\n")
        #expect(screen.contains("cannot save"))
        #expect(screen.contains("Save as:"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/missing"))
    }

    @Test func saveAsIntoAnUnwritableFolderSaysWhy() throws {
        // Root writes through permission bits, so as root use a folder of /proc.
        let dir: String
        if geteuid() == 0 {
            dir = "/proc/1"
        } else {
            dir = try folder()
            chmod(dir, 0o555)
        }
        let result = try run(try options(), keys: "words<C-s>\(dir)/x.md<Enter><Esc><C-s>")
        let screen = result.terminal.lastScreen.joined(separator: "\n")
        #expect(screen.contains("Save as:"))
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.md"))
    }

    /// An editing session on `path` (read as the editor reads it), with keys, where
    /// `change` runs before batch `at` is read.
    func runOnFile(_ path: String, keys: String, at: Int, change: @escaping () -> Void) throws -> FakeTerminal {
        let bytes = Array(try String(contentsOfFile: path, encoding: .utf8).utf8)
        var opts = try options(path: path, text: String(decoding: bytes, as: UTF8.self))
        opts.disk = DiskState.of(path, bytes: bytes)
        let terminal = try FakeTerminal(keys: keys)
        terminal.beforeRead = { if $0 == at { change() } }
        _ = EditSession(opts, terminal: terminal).run()
        return terminal
    }

    @Test func aFileChangedBehindTheEditorsBackIsNotOverwrittenUnasked() throws {
        let path = try folder() + "/c.md"
        try "mine".write(toFile: path, atomically: false, encoding: .utf8)
        let theirs = { try? "theirs, longer".write(toFile: path, atomically: false, encoding: .utf8) }
        // c: cancel — the other program's text stays.
        var t = try runOnFile(path, keys: "<C-e>!<C-s>c<C-q>n", at: 2, change: { theirs() })
        #expect(t.screens.contains { $0.lines.last?.contains("c.md changed on disk: (o)verwrite (r)eload (c)ancel") == true })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs, longer")
        // o: overwrite.
        try "mine".write(toFile: path, atomically: false, encoding: .utf8)
        t = try runOnFile(path, keys: "<C-e>!<C-s>o<C-q>", at: 2, change: { theirs() })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine!")
        // r: reload — the editor shows the file as it is now, and saving writes it back.
        try "mine".write(toFile: path, atomically: false, encoding: .utf8)
        t = try runOnFile(path, keys: "<C-e>!<C-s>r<C-e>?<C-s><C-q>", at: 2, change: { theirs() })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs, longer?")
        _ = t
    }

    @Test func aTouchedFileWithTheSameBytesIsNotAChange() throws {
        let path = try folder() + "/t.md"
        try "same".write(toFile: path, atomically: false, encoding: .utf8)
        _ = try runOnFile(path, keys: "<C-e>!<C-s><C-q>", at: 2, change: {
            try? "same".write(toFile: path, atomically: false, encoding: .utf8)
        })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "same!")
    }

    @Test func aFileThatAppearedSinceOpeningIsAChange() throws {
        let path = try folder() + "/new.md"
        let terminal = try FakeTerminal(keys: "hi<C-s>c<C-q>n")
        var opts = try options(path: path)
        opts.disk = nil
        terminal.beforeRead = { if $0 == 2 { try? "someone else".write(toFile: path, atomically: false, encoding: .utf8) } }
        _ = EditSession(opts, terminal: terminal).run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else")
    }

    @Test func printWithoutAFileConfirmsWithCtrlS() throws {
        let result = try run(try options(print: true), keys: "body<C-s>")
        #expect(result.status == 0)
        #expect(result.printed == "body")
    }

    @Test func copiesReachTheTerminalClipboard() throws {
        var opts = try options(text: "hello")
        let terminal = try FakeTerminal(keys: "<S-Right><S-Right><C-c><C-q>")
        _ = EditSession(opts, terminal: terminal).run()
        #expect(terminal.clipboard == ["he"])
        opts.terminalClipboard = false
        let quiet = try FakeTerminal(keys: "<S-Right><C-c><C-q>")
        _ = EditSession(opts, terminal: quiet).run()
        #expect(quiet.clipboard.isEmpty)
    }
}
