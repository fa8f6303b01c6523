@testable import AtpadApp
import AtpadCore
import Testing

/// What the app writes (issue 32): a pick's soft space still last on its line is not
/// saved, printed, previewed or posted (`Editor.writtenDocument`, docs/editor.md), the
/// editor keeping it on screen with `[+]` following the save as always; and a `json`
/// file's final newline, or its absence, comes back on save (docs/formats.md).
@Suite struct WrittenDocumentTests {
    static let john = Entity(id: "u1", name: "John Doe", handle: "jdoe")

    /// Types `@jo` and picks John Doe (the query answered as a directory would).
    func pick(_ app: inout AppHarness) throws {
        var pending = try app.keys("@jo")
        // Every query asked is answered, and whatever the answers ask next.
        while let effect = pending.first {
            pending.removeFirst()
            switch effect {
            case let .core(.query(id, _, _)):
                pending += app.send(.completion(.batch(queryID: id, [Candidate(entity: Self.john)], isFinal: true)))
                pending += app.send(.completion(.ended(queryID: id)))
            case let .core(.cancel(id)):
                pending += app.send(.completion(.ended(queryID: id)))
            default:
                break
            }
        }
        try app.keys("<Enter>")
    }

    @Test func aSoftSpaceLastOnItsLineIsNotSaved() throws {
        var app = try AppHarness("hi |\nnext", path: "c.md", format: .github)
        try pick(&app)
        #expect(app.text == "hi @John Doe \nnext")
        #expect(app.model.editor.isModified)
        try app.keys("<C-s>")
        let save = try #require(app.lastSave)
        #expect(save.contents == Array("hi @jdoe\nnext".utf8))
        app.send(.saved(save))
        // The editor keeps the space (the next word goes after it); nothing is unsaved.
        #expect(!app.model.editor.isModified)
        #expect(app.marked == "hi @John Doe |\nnext")
        try app.keys("thanks<C-s>")
        #expect(app.lastSave?.contents == Array("hi @jdoe thanks\nnext".utf8))
    }

    @Test func printPreviewAndPostWriteItTheSameWay() throws {
        var printed = try AppHarness("hi |", print: true)
        try pick(&printed)
        try printed.keys("<C-s>")
        #expect(printed.quit?.output == "hi @[John Doe](u1)")

        var preview = try AppHarness("hi |", path: "c.md", format: .github)
        try pick(&preview)
        try preview.keys("<F2>")
        #expect(preview.model.mode == .preview("hi @jdoe"))

        var posting = try AppHarness("hi |", format: .github)
        posting.model.postTarget = try PostTarget(parsing: "github:o/r#1")
        try pick(&posting)
        try posting.keys("<C-s>y")
        let posted = posting.effects.compactMap { effect -> MarkedText? in
            if case let .post(_, doc) = effect { return doc } else { return nil }
        }
        #expect(posted.map(\.text) == ["hi @John Doe"])
    }

    @Test func aJSONFilesFinalNewlineIsSavedAsItWas() throws {
        for ending in ["", "\n"] {
            let file = Array(#"{"text": "hi", "mentions": []}"#.utf8) + Array(ending.utf8)
            let read = try DocumentFormat.json.decode(bytes: file)
            var app = try AppHarness("", path: "c.json", format: .json)
            app.model.editor = Editor(read.document, cursor: 0)
            app.model.document.ending = read.ending
            try app.keys("<C-s>")
            #expect(app.lastSave?.contents == file, "\(ending.debugDescription)")
            // A reload takes the file's ending as it is now.
            app.send(.reloaded(read.document, ending: Array("\r\n".utf8)))
            try app.keys("<C-s>")
            #expect(app.lastSave?.contents == Array(#"{"text": "hi", "mentions": []}"#.utf8) + [0x0D, 0x0A])
        }
    }
}
