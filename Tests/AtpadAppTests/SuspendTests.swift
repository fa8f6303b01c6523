@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation
import Testing

/// Alt-Z and an outside SIGTSTP suspend atpad (docs/keys.md): the model asks for the draft and
/// the suspension, and nothing of the text, the mode or the search changes.
@Suite struct SuspendTests {
    @Test func altZAsksToSuspendAndChangesNothing() throws {
        var app = try AppHarness("hello |world")
        let effects = try app.keys("<M-z>")
        #expect(effects == [.flushDraft, .suspend])
        #expect(app.marked == "hello |world")
        #expect(app.model.mode == .editing)
        #expect(app.quit == nil)
    }

    @Test func ctrlZStaysUndo() throws {
        var app = try AppHarness("|")
        try app.keys("abc<C-z>")
        #expect(!app.effects.contains(.suspend))
        #expect(app.text == "")
    }

    @Test func sigtstpSuspendsWhereTheExitSignalsQuit() throws {
        var app = try AppHarness("x")
        #expect(app.send(.signal(SIGTSTP)) == [.flushDraft, .suspend])
        #expect(app.quit == nil)
        #expect(app.send(.signal(SIGTERM)) == [.flushDraft, .quit(status: 128 + SIGTERM, output: nil)])
    }

    @Test func sigtstpSuspendsFromAPromptOrQuestionToo() throws {
        var app = try AppHarness("x")
        try app.keys("<C-f>x")
        #expect(app.send(.signal(SIGTSTP)) == [.flushDraft, .suspend])
        #expect(app.promptLine?.hasPrefix("Find: x") == true)
    }

    @Test func theSessionSuspendsTheTerminalAndGoesOnWithTheText() throws {
        let terminal = try FakeTerminal(keys: "hi<M-z>!<C-s>")
        let folder = NSTemporaryDirectory() + "atpad-suspend-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/c.md"
        let options = EditOptions(path: path, document: MarkedText(text: ""), sources: [:], config: EditorConfig(),
                                  theme: Theme(name: "test"), noColor: true, print: false)
        let (status, _) = EditSession(options, terminal: terminal).run()
        #expect(terminal.suspensions == 1)
        #expect(status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hi!")
        #expect(terminal.lastScreen.contains { $0.hasPrefix("hi!") })
    }
}
