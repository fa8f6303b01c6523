@testable import AtpadApp
import AtpadCore
import AtpadDirectory
import AtpadTerminal
import Foundation
import Synchronization
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

    // MARK: - The loop's order of work

    /// Runs `session` on a thread of its own, as atpad runs it on the main thread: a test
    /// must not block the pool the query tasks run on.
    func runOnItsThread(_ session: EditSession) async -> Int32 {
        let box = UncheckedBox(session)
        return await withCheckedContinuation { done in
            Thread { done.resume(returning: box.value.run().status) }.start()
        }
    }

    static let people = [Entity(id: "1", name: "Jack Sparrow"), Entity(id: "2", name: "Joan Miró")]

    func options(sources: [Unicode.Scalar: any EntitySource], text: String = "") throws -> EditOptions {
        var opts = try options(text: text)
        opts.sources = sources
        return opts
    }

    @Test func aKeysFrameIsDrawnBeforeItsInMemoryAnswer() throws {
        let terminal = FakeTerminal(batches: [[.key(.char("@")), .key(.char("j")), .key(.char("o"))]])
        let source = InstantPeople(Self.people)
        _ = EditSession(try options(sources: ["@": source]), terminal: terminal).run()
        #expect(source.asked.map(\.query) == ["", "j", "jo"])
        // Within the burst each query is answered before the next key, the last key's
        // after its echo is drawn.
        #expect(terminal.screens.count == 3)
        let echoed = terminal.drawnAt[1]
        #expect(source.asked.map { $0.at < echoed } == [true, true, false])
        let echo = terminal.screens[1].lines.joined(separator: "\n")
        let answered = terminal.lastScreen.joined(separator: "\n")
        #expect(echo.contains("@jo"))
        #expect(echo.contains("Jack Sparrow"), "the echo keeps the previous results (no blink)")
        #expect(!answered.contains("Jack Sparrow") && answered.contains("Joan Miró"))
    }

    @Test func aFailedSaveShowsWhyAndLosesNothing() throws {
        let path = try folder() + "/c.md"
        try "mine".write(toFile: path, atomically: false, encoding: .utf8)
        var opts = try options(path: path, text: "mine")
        opts.disk = DiskState.of(path, bytes: Array("mine".utf8))
        let terminal = try FakeTerminal(keys: "<C-e>!<C-s>")
        // Between the typing and Ctrl-S the file becomes a folder: the save cannot work.
        terminal.beforeRead = { n in
            if n == 2 {
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
        }
        let session = EditSession(opts, terminal: terminal)
        let (status, _) = session.run()
        #expect(status == 1, "input ended with the text unsaved")
        #expect(session.model.message == "\(path) is a folder: type a file name")
        // The message line shows it (on more than one row when the path is long).
        #expect(terminal.lastScreen.joined(separator: " ").contains("type a file name"))
        #expect(terminal.lastScreen.contains { $0.hasPrefix("mine!") })
        #expect(session.model.editor.text == "mine!")
        #expect(session.model.editor.isModified)
    }

    @Test func aQueryCancelledWithinABurstIsNeverStarted() async throws {
        let source = SlowPeople(Self.people)
        source.open()
        let terminal = FakeTerminal(batches: [[.key(.char("@")), .key(.char("j")), .key(.char("o"))]])
        terminal.waitsWhile = { !terminal.lastScreen.contains { $0.contains("Joan Miró") } }
        _ = await runOnItsThread(EditSession(try options(sources: ["@": source]), terminal: terminal))
        #expect(source.asked == ["jo"], "`@` and `@j` were cancelled before the frame")
        #expect(terminal.lastScreen.contains { $0.contains("Joan Miró") })
        #expect(terminal.timedOut == 0, "the answer woke the loop (or came before it waited)")
        #expect(terminal.timeouts.allSatisfy { $0 < 0 }, "nothing pending: the loop sleeps without a limit")
    }

    @Test func aStaleAnswerIsIgnored() async throws {
        let source = SlowPeople(Self.people)
        var model = AppModel(editor: Editor(MarkedText(), config: EditorConfig()),
                             document: .init(path: nil, format: .atpad, formatIsFixed: true), print: false)
        let runner = EffectRunner(sources: ["@": source], writesFiles: false)
        runner.handle(.key(.char("@")), on: &model)
        runner.runPending(on: &model)  // `@` asked, its source still working
        let first = try #require(model.editor.search?.queryID)
        runner.handle(.key(.char("j")), on: &model)  // `@` cancelled; `@j` waits for its end
        // An answer to `@` that was already on its way arrives after all.
        runner.mailbox.post(.completion(.batch(queryID: first, [Candidate(entity: Self.people[1])], isFinal: false)))
        runner.runPending(on: &model)
        #expect(model.editor.search?.query == "j")
        #expect(model.editor.search?.items.isEmpty == true)
        source.open()
        let box = UncheckedBox((runner, model))
        model = await withCheckedContinuation { done in
            Thread {
                var (runner, model) = box.value
                runner.runUntilIdle(on: &model)
                done.resume(returning: UncheckedBox(model))
            }.start()
        }.value
        #expect(source.asked == ["", "j"])
        #expect(model.editor.search?.items.map(\.entity.name) == ["Jack Sparrow", "Joan Miró"])
    }

    @Test func aFinishedDirectoryLoadWakesTheLoop() async throws {
        let directory = LoadingDirectory {
            Thread.sleep(forTimeInterval: 0.2)
            return InstantPeople(Self.people)
        }
        var opts = try options(sources: ["@": directory])
        opts.loading = ["@": directory]
        let terminal = FakeTerminal(batches: [[.key(.char("@")), .key(.char("j"))]])
        let session = EditSession(opts, terminal: terminal)
        // Until both have come: the answer and the end of the load (two threads post them,
        // in either order). The end is read from the model: once results show, the chooser
        // no longer says "loading directory", so the screen cannot tell it (a TSan run, slower,
        // drew the answer first and stopped before the load's end was taken).
        terminal.waitsWhile = { [unowned session] in
            !terminal.lastScreen.contains { $0.contains("Joan Miró") } || !session.model.loadingDirectories.isEmpty
        }
        _ = await runOnItsThread(session)
        #expect(terminal.screens.contains { $0.lines.contains { $0.contains("loading directory") } })
        #expect(terminal.lastScreen.contains { $0.contains("Joan Miró") })
        #expect(session.model.loadingDirectories.isEmpty)
        #expect(terminal.timedOut == 0, "the load and the answer woke the loop")
    }

    @Test func theLoopSleepsUntilTheDraftIsDue() throws {
        let dir = try folder()
        var opts = try options()
        opts.drafts = DraftStore(folder: dir + "/drafts")
        let terminal = try FakeTerminal(keys: "a")
        _ = EditSession(opts, terminal: terminal).run()
        #expect(terminal.timeouts.first ?? 0 < 0, "nothing typed yet: no limit")
        #expect((1...1000).contains(terminal.timeouts.last ?? -1), "a change: until its draft is due")
    }

    @Test func theDraftWritersFailureWakesTheLoop() throws {
        let dir = try folder()
        try "a file".write(toFile: dir + "/state", atomically: false, encoding: .utf8)
        var opts = try options()
        opts.drafts = DraftStore(folder: dir + "/state/drafts")
        let terminal = try FakeTerminal(keys: "a")
        terminal.waitsWhile = { !terminal.lastScreen.contains { $0.contains("drafts folder") } }
        _ = EditSession(opts, terminal: terminal).run()
        #expect(terminal.lastScreen.contains { $0.contains("drafts folder") })
    }
}

/// Hands a value that is not `Sendable` to one other thread, which alone uses it.
struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A directory in memory for the loop's tests: answers at once (names starting with the
/// query) and notes each query and when it was asked.
final class InstantPeople: InstantSource {
    let people: [Entity]
    private let log = Mutex<[(query: String, at: ContinuousClock.Instant)]>([])

    init(_ people: [Entity]) { self.people = people }

    var asked: [(query: String, at: ContinuousClock.Instant)] { log.withLock { $0 } }

    func answerNow(_ query: String) -> [Candidate]? {
        log.withLock { $0.append((query, .now)) }
        return people.filter { $0.name.lowercased().hasPrefix(query.lowercased()) }.map { Candidate(entity: $0) }
    }

    func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let answer = answerNow(query) ?? []
        return AsyncThrowingStream { continuation in
            continuation.yield(answer)
            continuation.finish()
        }
    }
}

/// A source that answers on its own task, and only once `open()` was called: a command or
/// a URL, slow on purpose. Notes each query it is asked.
final class SlowPeople: EntitySource {
    let people: [Entity]
    private let state = Mutex((isOpen: false, asked: [String]()))

    init(_ people: [Entity]) { self.people = people }

    var asked: [String] { state.withLock { $0.asked } }

    func open() { state.withLock { $0.isOpen = true } }

    func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        state.withLock { $0.asked.append(query) }
        let people = people
        return AsyncThrowingStream { continuation in
            let work = Task {
                do {
                    while !self.state.withLock({ $0.isOpen }) { try await Task.sleep(for: .milliseconds(5)) }
                    continuation.yield(people.filter { $0.name.lowercased().hasPrefix(query.lowercased()) }
                        .map { Candidate(entity: $0) })
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
