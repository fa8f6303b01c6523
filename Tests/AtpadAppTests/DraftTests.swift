@testable import AtpadApp
import AtpadCore
import Foundation
import Testing

/// Recovery drafts (docs/drafts.md): naming, the file format, reading damaged drafts, which draft
/// is offered, and the writer's timing, flushing and discarding.
@Suite struct DraftTests {
    /// A fresh folder under the temporary directory.
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-drafts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A store whose drafts folder does not exist yet, with relative paths read against `cwd`.
    func store(cwd: String = "/home/ana/work") throws -> DraftStore {
        DraftStore(folder: try folder() + "/state/atpad/drafts", currentDirectory: cwd)
    }

    /// A document with mentions whose names and ids need escaping, and plain text that looks
    /// like markup, backslashes, emoji and right-to-left text.
    static let nasty: MarkedText = {
        var text = ""
        var mentions: [Mention] = []
        func plain(_ s: String) { text += s }
        func mention(_ trigger: Unicode.Scalar, _ name: String, _ id: String) {
            mentions.append(Mention(trigger: trigger, id: id, name: name, start: text.unicodeScalars.count))
            text += String(Character(trigger)) + name
        }
        plain("Hi ")
        mention("@", "John Doe", "u42")
        plain(", see \\@[not](a mention) and C:\\path\\ [x](y) @[broken \\")
        mention("#", "A [b] \\c", "(x)\\y")
        plain(" 👩🏽‍💻🎉 שלום עולם مرحبا\u{200F} e\u{301}\n\\\\")
        mention("~", "ü", "1")
        plain("\\")
        return MarkedText(text: text, mentions: mentions)
    }()

    func setModificationTime(_ path: String, _ seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    // MARK: - Where drafts live and what they are called

    @Test func folderFollowsXDGStateHomeThenHome() {
        #expect(DraftStore.folder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/atpad/drafts")
        #expect(DraftStore.folder(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"]) == "/s/atpad/drafts")
        // A relative XDG_STATE_HOME is ignored, as the base directory rules say.
        #expect(DraftStore.folder(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/atpad/drafts")
        #expect(DraftStore.folder(environment: ["XDG_STATE_HOME": "", "HOME": "/h"]) == "/h/.local/state/atpad/drafts")
        #expect(DraftStore.folder(environment: ["HOME": "/h"]) == "/h/.local/state/atpad/drafts")
    }

    @Test func samePathSameDraftWhateverTheSpelling() throws {
        let store = try store(cwd: "/home/ana/work")
        let draft = store.draftPath(for: "/home/ana/work/pr-42.md")
        #expect(store.draftPath(for: "pr-42.md") == draft)
        #expect(store.draftPath(for: "./pr-42.md") == draft)
        #expect(store.draftPath(for: "../work/pr-42.md") == draft)
        #expect(store.draftPath(for: "/home//ana/./work/pr-42.md") == draft)
        #expect(draft.hasPrefix(store.folder + "/pr-42.md."))
        #expect(draft.hasSuffix(".draft"))
        let hash = DraftName.hex(DraftName.fnv1a64("/home/ana/work/pr-42.md"))
        #expect(draft == store.folder + "/pr-42.md.\(hash).draft")
        #expect(hash.count == 16)
    }

    @Test func differentPathsDifferentDrafts() throws {
        let store = try store()
        let paths = ["/a/notes.md", "/b/notes.md", "/a/notes.md.bak", "/a/Notes.md", "/notes.md", "/a/b/notes.md"]
        let drafts = Set(paths.map(store.draftPath(for:)))
        #expect(drafts.count == paths.count)
    }

    @Test func slugIsReadableAndSafe() {
        #expect(DraftName.slug("pr-42.md") == "pr-42.md")
        #expect(DraftName.slug("my notes (v2).txt") == "my_notes__v2_.txt")
        #expect(DraftName.slug(".bashrc") == "_bashrc")
        #expect(DraftName.slug("") == "comment")
        #expect(DraftName.slug("ünï 王") == "_n___")
        #expect(DraftName.slug(String(repeating: "x", count: 300)).utf8.count == DraftName.longestSlug)
    }

    @Test func fnvIsTheReferenceFunction() {
        // Published FNV-1a 64 test vectors.
        #expect(DraftName.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(DraftName.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(DraftName.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func unnamedDraftIsNamedForItsSession() throws {
        let store = try store()
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(store.unnamedDraftPath(started: started, pid: 4242) == store.folder + "/unnamed-20231114T221320Z-4242.draft")
        #expect(store.unnamedDraftPath(started: started, pid: 4243) != store.unnamedDraftPath(started: started, pid: 4242))
        #expect(DraftName.isUnnamed("unnamed-20231114T221320Z-4242.draft"))
        #expect(!DraftName.isUnnamed("unnamed-20231114T221320Z-4242.kept-20231115T000000Z.draft"))
        #expect(!DraftName.isUnnamed(".unnamed-20231114T221320Z-4242.draft.tmp-abcdef"))
    }

    @Test func timestampsReadBackWhatTheyWrite() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(UTCTimestamp.extended(date) == "2023-11-14T22:13:20.250Z")
        #expect(UTCTimestamp.parse("2023-11-14T22:13:20.250Z") == date)
        #expect(UTCTimestamp.parse("2023-11-14T22:13:20Z") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(UTCTimestamp.parse("2023-11-14 22:13:20Z") == nil)
        #expect(UTCTimestamp.parse("yesterday") == nil)
    }

    // MARK: - Writing and reading

    @Test func roundTripKeepsMentionsAndNastyText() throws {
        let store = try store()
        let doc = Self.nasty
        #expect(doc.mentions.count == 3)
        let path = store.draftPath(for: "/x/c.md")
        let written = Date(timeIntervalSince1970: 1_700_000_000.5)
        try store.write(doc, originalPath: "/x/c.md", to: path, written: written, pid: 77)
        let draft = try #require(store.read(draftAt: path))
        #expect(draft.document == doc)
        #expect(draft.damage == nil)
        #expect(draft.originalPath == "/x/c.md")
        #expect(draft.written == written)
        #expect(draft.writerPID == 77)
        #expect(draft.path == path)
    }

    @Test func emptyDocumentAndPathsWithLineBreaksRoundTrip() throws {
        let store = try store()
        let odd = "/x/a\nb\\n\r.md"
        let path = store.draftPath(for: odd)
        try store.write(MarkedText(), originalPath: odd, to: path)
        let draft = try #require(store.read(draftAt: path))
        #expect(draft.document == MarkedText())
        #expect(draft.damage == nil)
        #expect(draft.originalPath == odd)
    }

    @Test func fileIsAHeaderThenTheMarkup() throws {
        let store = try store()
        let path = store.unnamedDraftPath()
        try store.write(AtpadMarkup.decode("Thanks @[Ana Lima](u7)!"), originalPath: nil, to: path,
                        written: Date(timeIntervalSince1970: 1_700_000_000), pid: 9)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == """
            atpad-draft 1
            written 2023-11-14T22:13:20.000Z
            pid 9
            bytes 23
            fnv1a64 \(DraftName.hex(DraftName.fnv1a64("Thanks @[Ana Lima](u7)!")))

            Thanks @[Ana Lima](u7)!
            """)
        #expect(store.read(draftAt: path)?.originalPath == nil)
    }

    @Test func writesAreAtomicPrivateAndLeaveNoTemporaryFiles() throws {
        let store = try store()
        let path = store.draftPath(for: "/x/c.md")
        for i in 0..<5 {
            try store.write(MarkedText(text: "version \(i)"), originalPath: "/x/c.md", to: path)
        }
        #expect(files(in: store.folder) == [(path as NSString).lastPathComponent])
        #expect(store.read(draftAt: path)?.document.text == "version 4")
        #expect(mode(path) == 0o600)
        #expect(mode(store.folder) == 0o700)
        #expect(mode((store.folder as NSString).deletingLastPathComponent) == 0o700)
    }

    @Test func removeDeletesAndMissingIsFine() throws {
        let store = try store()
        let path = store.draftPath(for: "/x/c.md")
        try store.write(MarkedText(text: "x"), originalPath: "/x/c.md", to: path)
        try store.remove(for: "/x/c.md")
        #expect(!FileManager.default.fileExists(atPath: path))
        try store.remove(for: "/x/c.md")
        try store.remove(draftAt: store.folder + "/never.draft")
    }

    /// A draft of a Slack file (docs/formats.md) brings its kept constructs and the text of its
    /// mentions back, so that saving the recovered document gives the file's bytes.
    @Test func keptConstructsAndMentionSourcesComeBack() throws {
        let store = try store()
        let file = "<!here> & <@u1|ana>\n<#C9|ops> a &amp; b"
        let directory = EntityLookup(["@": [Entity(id: "u1", name: "Ana Lima")]])
        let doc = try DocumentFormat.slack.decode(file, lookup: directory).document
        #expect(doc.mentions.filter(\.isKept).map(\.text) == ["<!here>", "&", "<#C9|ops>"])
        let path = store.draftPath(for: "/x/m.txt")
        try store.write(doc, originalPath: "/x/m.txt", to: path)
        let draft = try #require(store.read(draftAt: path))
        #expect(draft.damage == nil)
        #expect(draft.document == doc)
        #expect(DocumentFormat.slack.encode(draft.document) == file)
        // Without its tokens line the draft is still the words, as text.
        let bare = DraftBody(markup: DraftBody(doc).markup).document
        #expect(bare.text == doc.text)
        #expect(DocumentFormat.slack.encode(bare) != file)
    }

    /// A tokens line that no longer fits the text adds nothing and changes no text.
    @Test func aTokensLineThatDoesNotFitIsIgnored() {
        let cases = ["[[0, 7, \"kept\", \"slack\", \"<!here>\"]]", "[[0, 99, \"kept\", \"slack\", \"x\"]]", "not json",
                     "[[0, 1, \"kept\", \"nope\", \"a\"]]", "[[\"a\"]]"]
        for tokens in cases {
            let body = DraftBody(markup: "a @[B](b) c", tokens: tokens)
            #expect(body.document == AtpadMarkup.decode("a @[B](b) c"), "\(tokens)")
        }
    }

    // MARK: - Damaged drafts

    /// A whole draft's bytes for `markup`.
    func draftBytes(_ markup: String) -> [UInt8] {
        DraftFile.encode(DraftBody(markup: markup), originalPath: "/x/c.md", written: Date(timeIntervalSince1970: 0), pid: 1)
    }

    func readBytes(_ bytes: [UInt8]) throws -> Draft {
        let store = try store()
        try store.createFolder()
        let path = store.draftPath(for: "/x/c.md")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return try #require(store.read(draftAt: path))
    }

    @Test func foreignFileIsPlainTextWithBadHeader() throws {
        let draft = try readBytes(Array("just some text @[A](1)".utf8))
        #expect(draft.damage == .badHeader)
        #expect(draft.document == MarkedText(text: "just some text @[A](1)"))
    }

    @Test func truncatedBodyIsPlainTextMarkedTruncated() throws {
        let bytes = draftBytes("Hi @[John Doe](u42) and @[Ana](u7)")
        let draft = try readBytes(Array(bytes.dropLast(8)))
        #expect(draft.damage == .truncated)
        // Markup cut at an unknown place is offered as it is, without mentions.
        #expect(draft.document == MarkedText(text: "Hi @[John Doe](u42) and @["))
        #expect(draft.originalPath == "/x/c.md")
    }

    @Test func cutInsideAMultibyteCharacterIsATruncation() throws {
        let bytes = draftBytes("ok 🎉")
        let draft = try readBytes(Array(bytes.dropLast(2)))
        #expect(draft.damage == .truncated)
        #expect(draft.document.text.hasPrefix("ok "))
    }

    @Test func cutInsideTheHeaderIsATruncation() throws {
        let bytes = draftBytes("text")
        let draft = try readBytes(Array(bytes.prefix(20)))
        #expect(draft.damage == .truncated)
        #expect(draft.document.mentions.isEmpty)
    }

    @Test func invalidUTF8IsReplacedAndMarked() throws {
        var bytes = draftBytes("abcd")
        bytes[bytes.count - 2] = 0xFF
        let draft = try readBytes(bytes)
        #expect(draft.damage == .invalidUTF8)
        #expect(draft.document.text == "ab\u{FFFD}d")
    }

    @Test func changedBytesFailTheChecksum() throws {
        var bytes = draftBytes("Hi @[John Doe](u42)")
        bytes[bytes.count - 3] = UInt8(ascii: "9")
        let draft = try readBytes(bytes)
        #expect(draft.damage == .corrupted)
        #expect(draft.document == MarkedText(text: "Hi @[John Doe](u92)"))
    }

    @Test func extraBytesAreCorruption() throws {
        let draft = try readBytes(draftBytes("abc") + Array("def".utf8))
        #expect(draft.damage == .corrupted)
        #expect(draft.document.text == "abcdef")
    }

    @Test func everyPrefixOfADraftReadsWithoutCrashing() throws {
        let bytes = draftBytes(AtpadMarkup.encode(Self.nasty))
        for n in 0..<bytes.count {
            let contents = DraftFile.decode(Array(bytes.prefix(n)))
            #expect(contents.damage != nil)
            #expect(contents.document.mentions.isEmpty)
        }
        #expect(DraftFile.decode(bytes).damage == nil)
        #expect(DraftFile.decode(bytes).document == Self.nasty)
    }

    // MARK: - Which draft is offered

    @Test func draftNewerThanTheFileIsOffered() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        let file = dir + "/c.md"
        try "saved".write(toFile: file, atomically: false, encoding: .utf8)
        try store.write(MarkedText(text: "unsaved"), originalPath: file, to: store.draftPath(for: file))
        try setModificationTime(file, 1_700_000_000)
        try setModificationTime(store.draftPath(for: file), 1_700_000_010)
        let draft = try #require(store.newerDraft(for: "c.md"))
        #expect(draft.document.text == "unsaved")
        #expect(draft.originalPath == file)
        #expect(draft.modified == Date(timeIntervalSince1970: 1_700_000_010))
    }

    @Test func draftOlderThanOrAsOldAsTheFileIsNot() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        let file = dir + "/c.md"
        try "saved later".write(toFile: file, atomically: false, encoding: .utf8)
        try store.write(MarkedText(text: "old draft"), originalPath: file, to: store.draftPath(for: file))
        try setModificationTime(store.draftPath(for: file), 1_700_000_000)
        try setModificationTime(file, 1_700_000_010)
        #expect(store.newerDraft(for: file) == nil)
        try setModificationTime(file, 1_700_000_000)
        #expect(store.newerDraft(for: file) == nil)
    }

    @Test func draftOfAFileNotYetCreatedIsOffered() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        let file = dir + "/new.md"
        try store.write(MarkedText(text: "never saved"), originalPath: file, to: store.draftPath(for: file))
        #expect(store.newerDraft(for: file)?.document.text == "never saved")
        #expect(store.newerDraft(for: dir + "/other.md") == nil)
    }

    @Test func draftEqualToTheFileIsNotOffered() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        let file = dir + "/c.md"
        try "same @[A](1)".write(toFile: file, atomically: false, encoding: .utf8)
        try store.write(AtpadMarkup.decode("same @[A](1)"), originalPath: file, to: store.draftPath(for: file))
        try setModificationTime(file, 1_700_000_000)
        #expect(store.newerDraft(for: file) == nil)
    }

    @Test func damagedDraftIsStillOffered() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        try store.createFolder()
        let file = dir + "/c.md"
        let bytes = DraftFile.encode(DraftBody(markup: "lost @[A](1) words"), originalPath: file, written: Date(), pid: 1)
        #expect(FileManager.default.createFile(atPath: store.draftPath(for: file), contents: Data(bytes.dropLast(3))))
        let draft = try #require(store.newerDraft(for: file))
        #expect(draft.damage == .truncated)
        #expect(draft.document.text == "lost @[A](1) wo")
    }

    @Test func newestUnnamedDraftOfAnEndedSession() throws {
        let store = try store()
        let old = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_700_000_000), pid: 2_000_000_001)
        let new = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_700_000_100), pid: 2_000_000_002)
        let live = store.unnamedDraftPath(started: Date(timeIntervalSince1970: 1_700_000_200), pid: 1)
        #expect(store.newestUnnamedDraft() == nil)
        try store.write(MarkedText(text: "old"), originalPath: nil, to: old, pid: 2_000_000_001)
        try store.write(MarkedText(text: "new"), originalPath: nil, to: new, pid: 2_000_000_002)
        // pid 1 is always running: its draft belongs to a live session and is not offered.
        try store.write(MarkedText(text: "live"), originalPath: nil, to: live, pid: 1)
        try store.write(MarkedText(text: "named"), originalPath: "/x/c.md", to: store.draftPath(for: "/x/c.md"))
        try setModificationTime(old, 1_700_000_000)
        try setModificationTime(new, 1_700_000_100)
        try setModificationTime(live, 1_700_000_200)
        try setModificationTime(store.draftPath(for: "/x/c.md"), 1_700_000_300)
        #expect(store.newestUnnamedDraft()?.document.text == "new")
        #expect(store.newestUnnamedDraft()?.path == new)
    }

    @Test func keepAsideMovesTheDraftOutOfTheWay() throws {
        let dir = try folder()
        let store = try store(cwd: dir)
        let file = dir + "/new.md"
        try store.write(MarkedText(text: "both"), originalPath: file, to: store.draftPath(for: file))
        let draft = try #require(store.newerDraft(for: file))
        let kept = try store.keepAside(draft, now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(kept.hasSuffix(".kept-20231114T221320Z.draft"))
        #expect(store.newerDraft(for: file) == nil)
        #expect(store.read(draftAt: kept)?.document.text == "both")
        #expect(mode(kept) == 0o600)
    }

    // MARK: - An unwritable folder

    @Test func unwritableFolderIsOneLineError() throws {
        let dir = try folder()
        let blocker = dir + "/state"
        try "a regular file".write(toFile: blocker, atomically: false, encoding: .utf8)
        let store = DraftStore(folder: blocker + "/atpad/drafts")
        #expect {
            try store.write(MarkedText(text: "x"), originalPath: nil, to: store.unnamedDraftPath())
        } throws: { error in
            let text = "\(error)"
            return text.contains(store.folder) && text.contains("a file is in the way") && !text.contains("\n")
        }
        // Reading and looking for drafts there finds nothing and does not fail.
        #expect(store.newerDraft(for: "/x/c.md") == nil)
        #expect(store.newestUnnamedDraft() == nil)
    }

    @Test func folderThatIsAFileIsNotAFolder() throws {
        let dir = try folder()
        let path = dir + "/drafts"
        try "x".write(toFile: path, atomically: false, encoding: .utf8)
        let store = DraftStore(folder: path)
        #expect(throws: DraftError.self) { try store.createFolder() }
    }

    @Test func writerReportsAFailureOnceAndGoesOn() throws {
        let dir = try folder()
        try "x".write(toFile: dir + "/state", atomically: false, encoding: .utf8)
        let store = DraftStore(folder: dir + "/state/atpad/drafts")
        let writer = DraftWriter(store: store, documentPath: "/x/c.md")
        let t0 = ContinuousClock.now
        writer.documentChanged(now: t0)
        #expect(writer.tick(now: t0 + .seconds(1)) { MarkedText(text: "a") })
        #expect(!writer.flushNow { MarkedText(text: "a") })
        let warning = try #require(writer.takeWarning())
        #expect(warning.contains("drafts folder") && !warning.contains("\n"))
        #expect(writer.takeWarning() == nil)
        // The same failure again is not told again.
        writer.documentChanged(now: t0 + .seconds(2))
        #expect(!writer.flushNow { MarkedText(text: "b") })
        #expect(writer.takeWarning() == nil)
    }

    // MARK: - The writer's timing

    @Test func firstChangeIsWrittenWithinASecond() throws {
        let store = try store()
        let writes = CountedWrites(store)
        let writer = DraftWriter(store: store, documentPath: "/x/c.md", write: writes.write)
        let t0 = ContinuousClock.now
        #expect(writer.nextDeadline == nil)
        writer.documentChanged(now: t0)
        #expect(writer.nextDeadline == t0 + .seconds(1))
        var snapshots = 0
        #expect(!writer.tick(now: t0 + .milliseconds(500)) { snapshots += 1; return MarkedText(text: "a") })
        #expect(snapshots == 0)
        #expect(writer.pollTimeout(now: t0 + .milliseconds(500), otherwise: 250) == 250)
        #expect(writer.pollTimeout(now: t0 + .milliseconds(900), otherwise: 250) == 100)
        #expect(writer.pollTimeout(now: t0 + .milliseconds(1500), otherwise: 250) == 0)
        #expect(writer.tick(now: t0 + .seconds(1)) { snapshots += 1; return MarkedText(text: "a") })
        #expect(snapshots == 1)
        #expect(writer.nextDeadline == nil)
        #expect(writer.flushNow { MarkedText(text: "unused") })
        #expect(store.read(draftAt: writer.draftPath)?.document.text == "a")
        #expect(writes.count == 1)
    }

    @Test func noChangeNoWrite() throws {
        let store = try store()
        let writer = DraftWriter(store: store, documentPath: "/x/c.md")
        let t0 = ContinuousClock.now
        for s in 0..<10 {
            #expect(!writer.tick(now: t0 + .seconds(s)) { MarkedText(text: "never") })
        }
        #expect(writer.pollTimeout(now: t0, otherwise: 250) == 250)
        // Nothing changed, nothing failed: a flush writes nothing either.
        #expect(writer.flushNow { MarkedText(text: "never") })
        #expect(!FileManager.default.fileExists(atPath: writer.draftPath))
    }

    @Test func continuousTypingIsWrittenAboutEverySecond() throws {
        let store = try store()
        let writer = DraftWriter(store: store, documentPath: "/x/c.md")
        let t0 = ContinuousClock.now
        var text = ""
        var writes: [Duration] = []
        // A keystroke every 50 ms for 10 s, the loop ticking after each one.
        for ms in stride(from: 0, through: 10_000, by: 50) {
            let now = t0 + .milliseconds(ms)
            text += "x"
            writer.documentChanged(now: now)
            let copy = text
            if writer.tick(now: now, snapshot: { MarkedText(text: copy) }) { writes.append(.milliseconds(ms)) }
        }
        #expect(writes.first == .seconds(1))
        for (a, b) in zip(writes, writes.dropFirst()) {
            #expect(b - a <= .milliseconds(1050))
        }
        #expect(writes.count >= 9)
        // The last keystroke is still due within a second.
        #expect(try #require(writer.nextDeadline) <= t0 + .milliseconds(10_000) + .seconds(1))
        #expect(writer.flushNow { MarkedText(text: text) })
        #expect(store.read(draftAt: writer.draftPath)?.document.text == text)
    }

    @Test func flushNowWritesAtOnceAndWaits() throws {
        let store = try store()
        let writer = DraftWriter(store: store, documentPath: nil)
        #expect(writer.draftPath.hasPrefix(store.folder + "/unnamed-"))
        writer.documentChanged(now: .now)
        #expect(writer.flushNow { Self.nasty })
        let draft = try #require(store.read(draftAt: writer.draftPath))
        #expect(draft.document == Self.nasty)
        #expect(draft.originalPath == nil)
        #expect(writer.nextDeadline == nil)
    }

    @Test func flushNowWithTextStorage() throws {
        let store = try store()
        let writer = DraftWriter(store: store, documentPath: "rel/c.md")
        writer.documentChanged(now: .now)
        let storage = TextStorage(Self.nasty)
        #expect(writer.flushNow { storage })
        let draft = try #require(store.read(draftAt: writer.draftPath))
        #expect(draft.document == Self.nasty)
        #expect(draft.originalPath == "/home/ana/work/rel/c.md")
    }

    @Test func discardRemovesTheDraft() throws {
        let store = try store()
        let writer = DraftWriter(store: store, documentPath: "/x/c.md")
        writer.documentChanged(now: .now)
        #expect(writer.flushNow { MarkedText(text: "a") })
        #expect(FileManager.default.fileExists(atPath: writer.draftPath))
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: writer.draftPath))
        #expect(writer.nextDeadline == nil)
        #expect(writer.takeWarning() == nil)
        // Editing after a save arms the writer again.
        let t0 = ContinuousClock.now
        writer.documentChanged(now: t0)
        #expect(writer.tick(now: t0 + .seconds(1)) { MarkedText(text: "b") })
        #expect(writer.flushNow { MarkedText(text: "unused") })
        #expect(store.read(draftAt: writer.draftPath)?.document.text == "b")
    }

    @Test func discardWinsOverWritesInFlightAndWaiting() throws {
        let store = try store()
        let writes = CountedWrites(store, holding: true)
        let writer = DraftWriter(store: store, documentPath: "/x/c.md", write: writes.write)
        let t0 = ContinuousClock.now
        writer.documentChanged(now: t0)
        #expect(writer.tick(now: t0 + .seconds(1)) { MarkedText(text: "in flight") })
        writes.entered.wait()
        // A second snapshot waits behind the one being written.
        writer.documentChanged(now: t0 + .seconds(1))
        #expect(writer.tick(now: t0 + .seconds(2)) { MarkedText(text: "waiting") })
        writes.hold(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { writes.release.signal() }
        writer.discard()
        #expect(writer.background.finish())
        #expect(!FileManager.default.fileExists(atPath: writer.draftPath))
        #expect(writes.count == 1)
        #expect(files(in: store.folder).isEmpty)
    }

    @Test func newerSnapshotsReplaceOnesNotYetWritten() throws {
        let store = try store()
        let writes = CountedWrites(store, holding: true)
        let writer = DraftWriter(store: store, documentPath: "/x/c.md", write: writes.write)
        let t0 = ContinuousClock.now
        for i in 0..<5 {
            writer.documentChanged(now: t0 + .seconds(i))
            #expect(writer.tick(now: t0 + .seconds(i + 1)) { MarkedText(text: "v\(i)") })
            if i == 0 { writes.entered.wait() }
        }
        writes.hold(false)
        writes.release.signal()
        #expect(writer.background.finish())
        // v0 was in flight; v1…v3 were replaced by v4 before the queue took them.
        #expect(writes.count == 2)
        #expect(store.read(draftAt: writer.draftPath)?.document.text == "v4")
    }

    // MARK: - Cost

    /// A comment of about `bytes` UTF-8 bytes: sentences with some non-ASCII text and a
    /// mention about every 200 bytes.
    static func bigComment(bytes: Int) -> MarkedText {
        var text = ""
        var mentions: [Mention] = []
        var scalars = 0
        var n = 0
        while text.utf8.count < bytes {
            let sentence = "Line \(n): the build on ci-runner-\(n % 7) is flaky again — déjà vu, 🤷 see "
            text += sentence
            scalars += sentence.unicodeScalars.count
            let name = "Person \(n % 97)"
            mentions.append(Mention(trigger: "@", id: "u\(n % 97)", name: name, start: scalars))
            text += "@" + name
            scalars += 1 + name.unicodeScalars.count
            text += n % 3 == 0 ? ".\n" : ". "
            scalars += 2
            n += 1
        }
        return MarkedText(text: text, mentions: mentions)
    }

    /// What a 1 MB draft costs, and on which thread (run with ATPAD_DRAFT_BENCH=1, ideally
    /// `swift test -c release --filter DraftTests/measureOneMegabyteDraft`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ATPAD_DRAFT_BENCH"] != nil))
    func measureOneMegabyteDraft() throws {
        let store = try store()
        let doc = Self.bigComment(bytes: 1_000_000)
        var storage = TextStorage(doc)
        let clock = ContinuousClock()
        func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Duration {
            var times: [Duration] = []
            for _ in 0..<runs { times.append(try clock.measure(body)) }
            return times.sorted()[runs / 2]
        }
        let body = storage.draftBody()
        let encode = median(15) { _ = storage.draftBody() }
        let path = store.draftPath(for: "/x/big.md")
        let write = try median(15) { try store.write(body, originalPath: "/x/big.md", to: path) }

        // The loop's share: arm, tick (copy the storage, hand it over), then a keystroke
        // while the write runs; the writer's share is measured on its queue.
        let loopThread = pthread_self()
        let onOtherThread = LockedFlags()
        let writer = DraftWriter(store: store, documentPath: "/x/big.md", write: { body, original, path in
            onOtherThread.record(pthread_equal(pthread_self(), loopThread) == 0)
            try store.write(body, originalPath: original, to: path)
        })
        var ticks: [Duration] = []
        var tickCPU: [Duration] = []
        var keystrokes: [Duration] = []
        var afterWrite: [Duration] = []
        var wholeWrites: [Duration] = []
        var taken = storage
        for i in 0..<15 {
            let t0 = ContinuousClock.now
            writer.documentChanged(now: t0)
            let started = clock.now
            let cpuBefore = threadCPU()
            ticks.append(clock.measure { _ = writer.tick(now: t0 + .seconds(1)) { storage } })
            tickCPU.append(threadCPU() - cpuBefore)
            taken = storage
            // An edit while the queue still holds the snapshot copies the chunk list.
            keystrokes.append(clock.measure { storage.replace(i ..< i, with: "k") })
            _ = writer.background.finish()
            wholeWrites.append(started.duration(to: clock.now))
            // Once the queue has let the snapshot go, an edit is back to its usual cost.
            afterWrite.append(clock.measure { storage.replace(i ..< i, with: "k") })
        }
        var held: [Duration] = []
        var big = TextStorage(Self.bigComment(bytes: 10_000_000))
        for i in 0..<5 {
            let snapshot = big
            held.append(clock.measure { big.replace(i ..< i, with: "k") })
            withExtendedLifetime(snapshot) {}
        }
        held.sort()
        let tickOrder = ticks.map { "\($0)" }.joined(separator: " ")
        ticks.sort()
        keystrokes.sort()
        afterWrite.sort()
        wholeWrites.sort()
        let draft = try #require(store.read(draftAt: path))
        // The draft holds the last snapshot, taken before that turn's keystroke.
        let isLastSnapshot = draft.document == taken.marked && draft.damage == nil
        #expect(isLastSnapshot)
        #expect(onOtherThread.all)
        print("""
            draft bench: \(Array(body.markup.utf8).count) bytes of markup, \(doc.mentions.count) mentions
              encode (storage → markup)     median \(encode)
              write (header, fsync, rename) median \(write)
              loop: tick (copy + hand over) median \(ticks[7]) max \(ticks.last!)
              loop: edit, snapshot held     median \(keystrokes[7]) max \(keystrokes.last!)
              loop: edit, snapshot released median \(afterWrite[7]) max \(afterWrite.last!)
              loop: edit, 10 MB snapshot held median \(held[2]) max \(held.last!)
              tick → draft on disk          median \(wholeWrites[7]) max \(wholeWrites.last!)
              writes ran off the loop thread: \(onOtherThread.all)
              ticks in order: \(tickOrder)
              tick CPU time: \(tickCPU.map { "\($0)" }.joined(separator: " "))
            """)
    }
}

/// The CPU time the calling thread has used (to tell work from waiting for a core).
private func threadCPU() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// Whether every recorded check held; written from the writer's queue, read by the test.
private final class LockedFlags: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [Bool] = []

    func record(_ value: Bool) { lock.withLock { values.append(value) } }
    var all: Bool { lock.withLock { !values.isEmpty && values.allSatisfy { $0 } } }
}

/// The draft writer's way to disk for these tests: the store's own write, counted, and
/// held in flight (until `release` is signalled) while `holding`.
private final class CountedWrites: @unchecked Sendable {
    // @unchecked: `state` is only touched under `lock`; the semaphores are thread-safe.
    private let store: DraftStore
    private let lock = NSLock()
    private var state = (count: 0, holding: false)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    init(_ store: DraftStore, holding: Bool = false) {
        self.store = store
        state.holding = holding
    }

    /// How many drafts were written.
    var count: Int { lock.withLock { state.count } }

    /// Whether the writes from now on are held.
    func hold(_ holding: Bool) { lock.withLock { state.holding = holding } }

    var write: DraftQueue.Write {
        { [self] body, original, path in
            if lock.withLock({ state.holding }) {
                entered.signal()
                release.wait()
            }
            try store.write(body, originalPath: original, to: path)
            lock.withLock { state.count += 1 }
        }
    }
}
