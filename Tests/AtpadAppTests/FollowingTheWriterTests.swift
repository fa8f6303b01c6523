@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import AtpadDirectory
import AtpadTestSupport
import Foundation
import Testing

/// Issue 13, through `atpad replay`'s engine with the bundled sample and emoji
/// directories and the bundled list of frequent words (docs/keys.md, docs/directories.md):
/// the exact text, mentions, cursor and chooser each key script ends in.
@MainActor @Suite struct FollowingTheWriterTests {
    /// The bundled directories (`@` people, `:` emoji), loaded once.
    static let setup: DirectorySetup = {
        // swiftlint:disable:next force_try
        try! DirectorySetup(triggers: [:], limit: 50, commandTimeout: .seconds(5), inBackground: false)
    }()

    static func config(quiet: QuietWords = BundledQuietWords.words, implicit: Int = 3) -> EditorConfig {
        EditorConfig(triggers: setup.triggers, implicitThreshold: implicit, quietWords: quiet)
    }

    /// Replays `keys` from `text` (atpad markup, `|` the cursor), calling `afterEach`.
    static func replay(_ keys: String, text: String = "", config: EditorConfig = config(),
                       afterEach: (Editor) -> Void = { _ in }) throws -> Editor {
        let (doc, cursor) = try AtpadMarkup.decodeWithCursor(text)
        return Replay.run(Editor(doc, cursor: cursor, config: config), keys: try KeyScript.parse(keys),
                          sources: setup.sources, afterEach: afterEach)
    }

    /// The state as compact text: markup with `|` at the cursor, then the chooser.
    static func state(_ e: Editor) -> String {
        let markup = AtpadMarkup.encode(e.marked)
        var out = "\(markup) @\(e.cursor)"
        if let s = e.search {
            let ids = s.items.prefix(3).map(\.entity.id).joined(separator: ",")
            out += " [\(s.isOpen ? "open" : "closed") \(Character(s.trigger))\(s.query): \(ids)]"
        }
        return out
    }

    // MARK: - 1. Quiet implicit search

    /// Whether typing `word` (after some text, as in prose) shows a chooser at any key.
    static func opensChooser(_ word: String, config: EditorConfig = config()) throws -> Bool {
        var opened = false
        _ = try replay(word.replacingOccurrences(of: "<", with: "<lt>"), text: "so |", config: config) {
            if $0.search?.isOpen == true { opened = true }
        }
        return opened
    }

    static func frequentWords() throws -> [String] {
        let url = try BundledResources.folder().appendingPathComponent("common-words-en.txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    @Test func atMostTwoPercentOfTheThousandMostFrequentWordsOpenAChooser() throws {
        let words = try Self.frequentWords()
        #expect(words.count == 1000)
        let opening = try words.filter { try Self.opensChooser($0) }
        #expect(opening.count <= 20, "opened: \(opening)")
    }

    @Test func withoutTheWordListOrdinaryWordsWouldOpenIt() throws {
        // The measure above can fail: strong matches alone still open on common words.
        let words = try Self.frequentWords()
        let opening = try words.filter { try Self.opensChooser($0, config: Self.config(quiet: QuietWords())) }
        #expect(opening.count > 20, "opened: \(opening)")
        #expect(opening.contains("john"))
    }

    @Test func namesTypedInLowerCaseStillOpenIt() throws {
        for name in ["johnny", "bruce wayn", "johanna", "jonathan", "joanna", "travis", "natasha", "kowalska",
                     "zellweger", "dijkstra", "lovelace", "stroustrup", "romanoff", "kierkegaard", "ingrid",
                     "bergström", "priya", "sharma", "okafor", "thandiwe"] {
            #expect(try Self.opensChooser(name), "\(name) opened no chooser")
        }
    }

    @Test func weakMatchesNeverShowForImplicitSearches() throws {
        // `hello` is a fuzzy match of Aisha Bello only (not a word start), `zzz` nothing.
        let e = try Self.replay("helloo")
        #expect(e.search?.isOpen != true)
        #expect(e.search?.items.isEmpty ?? true)
    }

    @Test func theInsertsNoStranger() throws {
        let e = try Self.replay("the<Tab>")
        #expect(e.text == "the\t")
        #expect(e.mentions.isEmpty)
    }

    @Test func implicitPickConsumesTheWordsBefore() throws {
        let e = try Self.replay("bruce wayn<Tab>")
        #expect(Self.state(e) == "@[Bruce Wayne](u11)  @13")
    }

    // MARK: - 2. Exact match first

    @Test func exactWordMatchComesFirstWithinClassOne() throws {
        let e = try Self.replay("@jose")
        #expect(e.search?.items.prefix(2).map(\.entity.name) == ["José Álvarez", "Joseph Reed"])
    }

    // MARK: - 3. Closing punctuation after a pick

    @Test func closingPunctuationTakesTheAddedSpace() throws {
        #expect(Self.state(try Self.replay("thanks @jd<Enter>!")) == "thanks @[John Doe](u1)! @17")
        #expect(Self.state(try Self.replay("(@jon<Enter>)")) == "(@[Jon Snow](u7)) @11")
        #expect(Self.state(try Self.replay("@jd<Enter>,")) == "@[John Doe](u1), @10")
    }

    @Test func undoBringsTheSpaceBack() throws {
        #expect(Self.state(try Self.replay("thanks @jd<Enter>!<C-z>")) == "thanks @[John Doe](u1)  @17")
        #expect(Self.state(try Self.replay("thanks @jd<Enter>!<C-z><C-z>")) == "thanks @jd @10")
    }

    @Test func onlyTheVeryNextKeyReplacesTheSpace() throws {
        #expect(Self.state(try Self.replay("@jd<Enter>x!")) == "@[John Doe](u1) x! @12")
        #expect(Self.state(try Self.replay("@jd<Enter><Left><Right>!")) == "@[John Doe](u1) ! @11")
        // A space that was already there is not the pick's to give away.
        #expect(Self.state(try Self.replay("@jd<Enter>!", text: "| x")) == "@[John Doe](u1) !x @11")
    }

    // MARK: - 4. Ctrl-Space

    @Test func ctrlSpaceOnAWordPutsTheTriggerBeforeIt() throws {
        let e = try Self.replay("hi jd<C-Space>")
        #expect(Self.state(e) == "hi @jd @6 [open @jd: u1,u2,u221]")
        let picked = try Self.replay("hi jd<C-Space><Enter>")
        #expect(Self.state(picked) == "hi @[John Doe](u1)  @13")
    }

    @Test func ctrlSpaceReopensADismissedSearch() throws {
        let e = try Self.replay("@jd<Esc><C-Space>")
        #expect(Self.state(e) == "@jd @3 [open @jd: u1,u2,u221]")
        let picked = try Self.replay("@jd<Esc><C-Space><Enter>")
        #expect(Self.state(picked) == "@[John Doe](u1)  @10")
    }

    @Test func ctrlSpaceRetargetsASelectedMentionInPlace() throws {
        let start = "hi @[John Doe](u1) there|"
        let opened = try Self.replay("<Left><Left><Left><Left><Left><Left><BS><C-Space>", text: start)
        #expect(opened.text == "hi @John Doe there", "the text is untouched until a pick")
        #expect(opened.search?.query == "John Doe")
        #expect(opened.search?.retarget?.id == "u1")
        #expect(opened.search?.items.first?.entity.id == "u1")

        let keys = "<Left><Left><Left><Left><Left><Left><BS><C-Space>" + String(repeating: "<BS>", count: 8) + "jane"
        let editing = try Self.replay(keys, text: start)
        #expect(editing.text == "hi @John Doe there")
        #expect(editing.search?.query == "jane")
        #expect(editing.search?.items.first?.entity.id == "u2")

        let picked = try Self.replay(keys + "<Enter>", text: start)
        #expect(Self.state(picked) == "hi @[Jane Doe](u2) there @12")

        let undone = try Self.replay(keys + "<Enter><C-z>", text: start)
        #expect(AtpadMarkup.encode(undone.marked) == "hi @[John Doe](u1) there", "one undo step")

        let kept = try Self.replay(keys + "<Esc>", text: start)
        #expect(Self.state(kept) == "hi @[John Doe](u1) there @12")
        #expect(kept.selectedMention?.id == "u1")
    }

    @Test func theRetargetQueryIsSelectedSoTypingReplacesIt() throws {
        // Issue 22: the pre-filled name is selected; the first character typed replaces it.
        let start = "hi @[John Doe](u1) there|"
        let open = "<Left><Left><Left><Left><Left><Left><BS><C-Space>"
        let opened = try Self.replay(open, text: start)
        #expect(opened.search?.queryIsSelected == true)
        let typed = try Self.replay(open + "jane", text: start)
        #expect(typed.search?.query == "jane")
        #expect(typed.search?.queryIsSelected == false)
        #expect(typed.search?.items.first?.entity.id == "u2")
        #expect(Self.state(try Self.replay(open + "jane<Enter>", text: start)) == "hi @[Jane Doe](u2) there @12")
        // Backspace first keeps the name for editing: it takes its last character only.
        let edited = try Self.replay(open + "<BS>", text: start)
        #expect(edited.search?.query == "John Do")
        #expect(edited.search?.queryIsSelected == false)
        #expect(try Self.replay(open + "<BS>e", text: start).search?.query == "John Doe")
    }

    // MARK: - 7. Insert completions and the emoji directory

    @Test func emojiShortcodeAndTab() throws {
        #expect(Self.state(try Self.replay(":tada<Tab>")) == "🎉 @1")
        #expect(Self.state(try Self.replay("great :thu<Tab>")) == "great 👍 @7")
        #expect(Self.state(try Self.replay("ok :+1<Tab>")) == "ok 👍 @4")
    }

    @Test func emojiChooserNeedsTwoCharactersAndResults() throws {
        let one = try Self.replay(":t")
        #expect(one.search?.isOpen == false)
        let two = try Self.replay(":ta")
        #expect(two.search?.isOpen == true)
        let smiley = try Self.replay("hi :)")
        #expect(smiley.search?.isOpen != true)
        #expect(Self.state(try Self.replay("hi :) ok")) == "hi :) ok @8")
        #expect(try Self.replay("at 10:30").search == nil)
        let nothing = try Self.replay(":qqxz")
        #expect(nothing.search?.isOpen == false, "no \"no matches\" row")
    }

    @Test func emojiChooserNeverStealsEnterOrArrows() throws {
        #expect(Self.state(try Self.replay(":thu<Enter>")) == ":thu\n @5")
        #expect(try Self.replay(":thu<Down>").search == nil)
        let navigated = try Self.replay(":tada<C-n><C-p><Enter>")
        #expect(Self.state(navigated) == "🎉 @1")
    }

    @Test func insertCompletionFromADirectoryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-insert-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("issues.json")
        try Data(##"[{"id": "12", "name": "Crash on save", "handle": "12", "insert": "#12"}]"##.utf8).write(to: file)
        let setup = try DirectorySetup(triggers: ["#": .init(files: [file.path])], limit: 50,
                                       commandTimeout: .seconds(5), inBackground: false)
        let editor = Editor(MarkedText(), config: EditorConfig(triggers: setup.triggers))
        let e = Replay.run(editor, keys: try KeyScript.parse("see #cra<Enter>"), sources: setup.sources)
        #expect(Self.state(e) == "see #12 @7", "plain text, no mention, no space")
    }
}

/// Keys that arrive in one burst end where `atpad replay` ends for directory files
/// (docs/behaviour.md, "Typing speed").
@MainActor @Suite struct BurstTests {
    /// Runs `keys` as the editor's loop runs one batch of input: every key through the
    /// runner, with no drawing, polling or waiting in between, then the work that follows
    /// the frame.
    static func burst(_ keys: String) throws -> Editor {
        let setup = FollowingTheWriterTests.setup
        var model = AppModel(editor: Editor(MarkedText(), config: FollowingTheWriterTests.config()),
                             document: .init(path: nil, format: .atpad, formatIsFixed: true),
                             print: false, terminalClipboard: false)
        let runner = EffectRunner(sources: setup.sources, writesFiles: false)
        for key in try KeyScript.parse(keys) { runner.handle(.key(key), on: &model) }
        runner.runPending(on: &model)
        return model.editor
    }

    @Test(arguments: ["y @jdoe & ", "@jo<Down><Enter>hi :tada<Tab> bruce wayn<Tab>", "thanks @jd<Enter>!",
                      "@zzz x", "hi jd<C-Space><Down><Enter>", "@jo  x", ":qq :)", "johnny<C-n><Enter>"])
    func aBurstEndsWhereReplayEnds(_ keys: String) throws {
        let burst = try Self.burst(keys)
        let replayed = try FollowingTheWriterTests.replay(keys)
        #expect(FollowingTheWriterTests.state(burst) == FollowingTheWriterTests.state(replayed))
        #expect(burst.search?.isOpen == replayed.search?.isOpen)
    }

    @Test func aSearchTheRulesEndIsEnded() throws {
        let e = try Self.burst("y @jdoe & ")
        #expect(e.search == nil)
        #expect(e.text == "y @jdoe & ")
    }

    // MARK: - The session against replay

    static let width = 60, height = 16

    /// Options for a session with the bundled directories and the settings of `replay`.
    static func options() -> EditOptions {
        EditOptions(path: nil, document: MarkedText(), sources: FollowingTheWriterTests.setup.sources,
                    config: FollowingTheWriterTests.config(), theme: Theme(name: "test"), noColor: true, print: false)
    }

    /// Runs `batches` of keys through an editing session with a fake terminal; returns the
    /// session and, per batch, the screens drawn after reading it.
    static func session(_ batches: [[Key]]) -> (EditSession, [[Screen]]) {
        let terminal = FakeTerminal(rows: height, columns: width, batches: batches.map { $0.map(InputEvent.key) })
        var marks: [Int] = []
        terminal.beforeRead = { _ in marks.append(terminal.screens.count) }
        let session = EditSession(options(), terminal: terminal)
        _ = session.run()
        let screens = marks.indices.dropLast().map { Array(terminal.screens[marks[$0]..<marks[$0 + 1]]) }
        return (session, screens)
    }

    /// The frame the session would draw for `editor` (no message, nothing scrolled).
    static func frame(of editor: Editor) -> [String] {
        var model = AppModel(editor: editor, document: .init(path: nil, format: .atpad, formatIsFixed: true),
                             print: false)
        _ = model.update(.resize(rows: height, columns: width))
        let screen = FrameLayout.frame(for: model.editor, view: model.view(viewport: Viewport()), width: width,
                                       height: height).screen
        return screen.lines + screen.roleLines + ["cursor \(String(describing: screen.cursor))"]
    }

    static func text(of screen: Screen) -> [String] {
        screen.lines + screen.roleLines + ["cursor \(String(describing: screen.cursor))"]
    }

    /// One key per batch: the session draws each key's echo first, then its in-memory
    /// answer when that changes the screen; the last frame of every key is the frame of the
    /// state `replay` has after that key.
    @Test(arguments: ["johnny jo bruce wayn", "abcdefghijklmnop qrs", "hi jd<C-Space><Down><Enter>",
                      "the jon snow<Tab> ok", "@jo<Down><Enter>hi :tada<Tab> bruce wayn<Tab>", "johnny<C-n><Enter>",
                      "brucewayne<BS><BS><BS>", "@jd<Esc> x<C-z><C-z>"])
    func eachKeysLastFrameIsReplaysFrame(_ keys: String) throws {
        let script = try KeyScript.parse(keys)
        var replayed: [Editor] = []
        _ = try FollowingTheWriterTests.replay(keys) { replayed.append($0) }
        let (_, screens) = Self.session(script.map { [$0] })
        #expect(screens.count == script.count)
        for (n, drawn) in screens.enumerated() {
            let last = try #require(drawn.last, "key \(n) of \(keys) drew nothing")
            #expect(Self.text(of: last) == Self.frame(of: replayed[n]), "key \(n) of \(keys)")
            #expect(drawn.count <= 2, "key \(n) of \(keys): the echo, then at most the answer")
        }
    }

    /// The property behind docs/behaviour.md, "Typing speed": random scripts, cut into
    /// random batches, end in the session in the state `replay` gives.
    @Test func randomBurstsEndWhereReplayEnds() throws {
        let alphabet = ["a", "e", "j", "o", "n", "h", "b", "r", "u", "c", "w", "y", "t", " ", " ", "@", "@", ":", "!",
                        "<Tab>", "<Enter>", "<BS>", "<Down>", "<Up>", "<Left>", "<Esc>", "<C-Space>", "<C-n>", "<C-z>"]
        var rng = SeededRandom(seed: 21)
        for round in 0..<40 {
            let keys = (0..<rng.int(5..<31)).map { _ in rng.pick(alphabet) }.joined()
            let script = try KeyScript.parse(keys)
            var batches: [[Key]] = []
            var rest = script[...]
            while !rest.isEmpty {
                let n = rng.int(1..<rest.count + 1)
                batches.append(Array(rest.prefix(n)))
                rest = rest.dropFirst(n)
            }
            let (session, _) = Self.session(batches)
            let replayed = try FollowingTheWriterTests.replay(keys)
            #expect(FollowingTheWriterTests.state(session.model.editor) == FollowingTheWriterTests.state(replayed),
                    "round \(round): \(keys) in batches of \(batches.map(\.count))")
        }
    }
}
