@testable import AtpadApp
import AtpadCore
import Foundation
import Testing

/// Issue 22, bullet 12: drafts keep the cursor; recovering puts it back.
@Suite struct DraftCursorTests {
    @Test func theHeaderHoldsTheCursor() {
        let body = DraftBody(MarkedText(text: "hello world"), cursor: 5)
        let bytes = DraftFile.encode(body, originalPath: "/w/a.md", written: Date(timeIntervalSince1970: 0), pid: 7)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\ncursor 5\n"))
        let read = DraftFile.decode(bytes)
        #expect(read.damage == nil)
        #expect(read.header?.cursor == 5)
        #expect(read.document.text == "hello world")
    }

    @Test func aDraftWithoutACursorLineHasNone() {
        let bytes = DraftFile.encode(DraftBody(MarkedText(text: "x")), originalPath: nil, written: Date(), pid: 7)
        #expect(DraftFile.decode(bytes).header?.cursor == nil)
    }

    @Test func theSnapshotTakesTheEditorsCursor() {
        let editor = Editor(MarkedText(text: "abc def"), cursor: 4)
        let body = DraftSnapshot(editor).draftBody()
        #expect(body.cursor == 4)
        #expect(body.markup == "abc def")
    }

    @Test func theStoreGivesTheCursorBack() throws {
        let folder = NSTemporaryDirectory() + "atpad-draft-cursor-\(UUID().uuidString)"
        let store = DraftStore(folder: folder, currentDirectory: "/w")
        let path = store.draftPath(for: "/w/a.md")
        try store.write(DraftBody(MarkedText(text: "one two"), cursor: 3), originalPath: "/w/a.md", to: path)
        #expect(store.read(draftAt: path)?.cursor == 3)
    }

    func draft(_ text: String, cursor: Int?) -> Draft {
        Draft(path: "/state/a.md.draft", originalPath: "/w/a.md", modified: .init(timeIntervalSince1970: 0),
              written: nil, writerPID: nil, document: AtpadMarkup.decode(text), damage: nil, cursor: cursor)
    }

    @Test func recoveringPutsTheCursorBack() throws {
        var app = try AppHarness("file text", path: "a.md")
        _ = app.model.start(offering: draft("line one\nline two", cursor: 12))
        try app.keys("r")
        #expect(app.text == "line one\nline two")
        #expect(app.cursor == 12)
        #expect(app.model.editor.lineAndColumn(of: app.cursor) == (2, 4))
    }

    @Test func aCursorPastTheEndOrInsideAMentionIsMadeValid() throws {
        var app = try AppHarness("", path: "a.md")
        _ = app.model.start(offering: draft("hi", cursor: 99))
        try app.keys("r")
        #expect(app.cursor == 2)
        var inside = try AppHarness("", path: "a.md")
        _ = inside.model.start(offering: draft("hi @[John Doe](1) x", cursor: 6))
        try inside.keys("r")
        #expect(inside.cursor == 3 || inside.cursor == 12)
        #expect(inside.model.editor.storage.mention(containing: inside.cursor) == nil)
    }

    @Test func withoutACursorRecoveringStartsAtTheStart() throws {
        var app = try AppHarness("", path: "a.md")
        _ = app.model.start(offering: draft("hello", cursor: nil))
        try app.keys("r")
        #expect(app.cursor == 0)
    }
}
