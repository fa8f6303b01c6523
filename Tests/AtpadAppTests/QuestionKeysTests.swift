@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Testing

/// The questions answer through the keymap: each question's mode binds its answers, its
/// line names them from those bindings, and every key bound there is taken.
@Suite struct QuestionKeysTests {
    /// One question of each kind, asked of a fresh model: what it asks before its answers,
    /// and its keymap mode.
    struct Asked: Sendable {
        var keys: KeyMode
        var asks: String
        var ask: @Sendable (inout AppHarness) throws -> Void
    }

    static let draft = Draft(path: "/state/a.md.draft", originalPath: "/w/a.md", modified: .init(timeIntervalSince1970: 0),
                             written: nil, writerPID: nil, document: MarkedText(text: "from the draft"), damage: nil)

    static func request(_ app: AppHarness, fileIsGone: Bool = false) throws -> SaveRequest {
        var request = try app.model.request(path: "notes.md", format: .atpad, confirmOverwrite: true, fromPrompt: false,
                                            then: .keepEditing)
        request.fileIsGone = fileIsGone
        return request
    }

    static let questions: [Asked] = [
        Asked(keys: .quitQuestion, asks: "Save changes before quitting?") { app in try app.keys("x<C-q>") },
        Asked(keys: .draftQuestion, asks: "Recover unsaved draft?") { app in _ = app.model.start(offering: draft) },
        Asked(keys: .overwriteQuestion, asks: "Overwrite notes.md?") { app in
            app.send(.saveNeedsConfirmation(try request(app)))
        },
        Asked(keys: .changedOnDiskQuestion, asks: "notes.md changed on disk:") { app in
            app.send(.changedOnDisk(try request(app)))
        },
        Asked(keys: .deletedQuestion, asks: "notes.md was deleted:") { app in
            app.send(.changedOnDisk(try request(app, fileIsGone: true)))
        },
        // One match: every answer ends the walk.
        Asked(keys: .replaceQuestion, asks: "Replace?") { app in try app.keys("<M-r>one<Enter>two<Enter>") },
        Asked(keys: .postQuestion, asks: "Post to slack:C1?") { app in
            app.model.postTarget = .slack(channel: "C1", thread: nil)
            try app.keys("<C-s>")
        },
    ]

    func asked(_ question: Asked) throws -> AppHarness {
        var app = try AppHarness("one", path: nil)
        try question.ask(&app)
        #expect(app.model.mode.questionKeys == question.keys, "\(question.asks)")
        return app
    }

    @Test func everyKindOfQuestionIsHere() {
        #expect(Set(QuestionKeysTests.questions.map(\.keys)) == KeyMode.questions)
    }

    /// The line is what the question asks, then the answers its mode binds.
    @Test func eachLineIsBuiltFromItsBindings() throws {
        for question in QuestionKeysTests.questions {
            let app = try asked(question)
            #expect(app.model.question == question.asks + " " + Keymap.answers(in: question.keys))
            #expect(app.promptLine == app.model.question)
            // The keys that cancel it, where any do, at the end of the row.
            let hint = app.model.view(viewport: Viewport()).prompt?.hint
            #expect(hint == (question.keys == .draftQuestion ? nil : .cancel), "\(question.asks)")
        }
    }

    /// Every key a question's mode binds is taken (the question ends, or its answer asks
    /// for something); a letter it does not bind is no answer.
    @Test func everyBoundKeyAnswers() throws {
        for question in QuestionKeysTests.questions {
            let bound = Keymap.bindings.filter { $0.modes.contains(question.keys) || $0.modes.contains(.anywhere) }
                .flatMap(\.keys)
            #expect(bound.contains(.escape) == (question.keys != .draftQuestion))
            // Ctrl-Q at the quit question is that question asked again (AppModelTests).
            for key in bound where !(question.keys == .quitQuestion && key == .ctrl("q")) {
                var app = try asked(question)
                let before = app.model.mode
                let effects = app.send(.key(key))
                #expect(app.model.mode != before || !effects.isEmpty, "\(key) in \(question.keys)")
            }
            var app = try asked(question)
            let before = app.model.mode
            #expect(app.send(.key(.char("x"))).isEmpty)
            #expect(app.model.mode == before, "x in \(question.keys)")
        }
    }
}
