@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation
import Testing

/// Issue 22 bullet 4 (docs/editor.md): a file deleted while open is reported as deleted; the
/// question offers to save it again or keep editing, nothing empties the buffer, and the
/// quit question still guards the text.
@Suite struct DeletedFileTests {
    func deletedQuestion() throws -> AppHarness {
        var app = try AppHarness("hello|", path: "notes.md", format: .github)
        try app.keys("!<C-s>")
        var request = try #require(app.lastSave)
        request.fileIsGone = true
        app.send(.changedOnDisk(request))
        return app
    }

    @Test func theQuestionSaysTheFileWasDeleted() throws {
        let app = try deletedQuestion()
        #expect(app.model.question == "notes.md was deleted: (s)ave it again (k)eep editing")
    }

    @Test func saveItAgainWritesIt() throws {
        var app = try deletedQuestion()
        let effects = try app.keys("s")
        guard case let .save(again)? = effects.first else { Issue.record("no save: \(effects)"); return }
        #expect(!again.checkDisk && again.path == "notes.md")
        #expect(again.contents == Array("hello!".utf8))
    }

    @Test func keepEditingKeepsTheTextAndTheQuitQuestionGuardsIt() throws {
        var app = try deletedQuestion()
        #expect(try app.keys("k").isEmpty)
        #expect(app.model.mode == .editing)
        #expect(app.text == "hello!")
        #expect(app.model.editor.isModified)
        #expect(app.model.message.contains("stays deleted"))
        try app.keys("<C-q>")
        #expect(app.model.mode == .quitQuestion)
        #expect(app.quit == nil)
    }

    @Test func reloadIsNotOffered() throws {
        var app = try deletedQuestion()
        #expect(try app.keys("r").isEmpty)
        #expect(app.model.question?.contains("was deleted") == true)
    }

    @Test func withARealFileNothingEmptiesTheBuffer() throws {
        let dir = NSTemporaryDirectory() + "atpad-deleted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/c.md"
        try "text".write(toFile: path, atomically: false, encoding: .utf8)
        var options = EditOptions(path: path, document: MarkedText(text: "text"), sources: [:], config: EditorConfig(),
                                  theme: Theme(name: "test"), noColor: true, print: false)
        options.disk = DiskState.of(path, bytes: Array("text".utf8))
        try FileManager.default.removeItem(atPath: path)
        // Ctrl-S asks, k keeps editing, Ctrl-Q asks about the unsaved text, y saves it again.
        let terminal = try FakeTerminal(keys: "x<C-s>k<C-q>y")
        let (status, _) = EditSession(options, terminal: terminal).run()
        #expect(status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "xtext")
    }

    @Test func theChangedQuestionStillAsksAboutAFileThatIsThere() throws {
        var app = try AppHarness("hello|", path: "notes.md", format: .github)
        try app.keys("<C-s>")
        app.send(.changedOnDisk(try #require(app.lastSave)))
        #expect(app.model.question == "notes.md changed on disk: (o)verwrite (r)eload (c)ancel")
    }
}
