@testable import AtpadCore
import AtpadTestSupport
import Testing

/// Drives an editor as the app does with spelling on (docs/spelling.md, "In the editor"):
/// after each key the whole text is checked (at once here, in the background in the app)
/// and taken for the version it was made for; F7's `.suggest` is answered from the word
/// list. `found` and `added` record what came back.
struct SpellingHarness {
    var h: Harness
    var speller = WordListSpeller(["the", "quick", "brown", "fox", "hi", "there", "thanks", "then", "this", "a",
                                   "word", "words", "and", "more", "see", "you"])
    var added: [String] = []
    /// Whether each key is followed by a check (off: checks come only when `check()` is called).
    var checksAfterEachKey = true

    init(_ start: String) throws {
        h = try Harness(start, config: EditorConfig(format: .github))
        check()
    }

    var editor: Editor { h.editor }
    var state: String { h.state }

    mutating func check() {
        let found = Misspelling.find(in: h.editor.marked, format: .github, speller: speller)
        h.editor.takeMisspellings(found.map { SpellMarks.Mark(range: $0.range, word: $0.word) }, version: h.editor.version)
    }

    mutating func keys(_ script: String) throws {
        for key in try KeyScript.parse(script) {
            var queue = h.editor.handle(key)
            while !queue.isEmpty {
                let effect = queue.removeFirst()
                switch effect {
                case let .suggest(id, word):
                    let answer = speller.suggestions(for: word).map { Candidate(entity: Entity(id: $0, name: $0)) }
                    queue += h.editor.receive(.batch(queryID: id, answer, isFinal: true))
                case let .addWord(word):
                    added.append(word)
                default:
                    h.run([effect])
                }
            }
            if checksAfterEachKey { check() }
        }
    }

    /// The marked words drawn now (the word being typed left out), as text.
    var marked: [String] {
        editor.misspellings(in: 0 ..< editor.storage.count).map { editor.storage.slice($0) }
    }

    /// The chooser's rows, by name.
    var rows: [String] { editor.search?.items.map(\.entity.name) ?? [] }
}

/// Misspelt words in the editor: marked by checks of the text they were made for, not while
/// typed, mapped through edits, and corrected from the chooser (docs/spelling.md).
@Suite struct EditorSpellingTests {
    @Test func aCheckMarksTheWordsNoDictionaryKnows() throws {
        let s = try SpellingHarness("|Teh quick brwn fox")
        #expect(s.marked == ["Teh", "brwn"])
    }

    @Test func theWordBeingTypedIsNotMarkedUntilTheCursorLeaves() throws {
        var s = try SpellingHarness("hi |")
        try s.keys("thre")
        #expect(s.marked == [], "the cursor is at its end")
        try s.keys("<Left><Left>")
        #expect(s.marked == [], "and inside it")
        try s.keys("<End> ")
        #expect(s.marked == ["thre"])
        try s.keys("<Home>")
        #expect(s.marked == ["thre"], "at its start it is not being typed")
    }

    @Test func aCheckOfAnotherTextIsDropped() throws {
        var s = try SpellingHarness("|hi")
        let old = s.editor.version
        s.checksAfterEachKey = false
        try s.keys("wrng ")
        let taken = s.h.editor.takeMisspellings([SpellMarks.Mark(range: 0 ..< 2, word: "hi")], version: old)
        #expect(!taken)
        #expect(s.marked == [])
        s.check()
        #expect(s.marked == ["wrng"])
    }

    @Test func marksMoveWithEditsAndGoWhereAnEditTouchesThem() throws {
        var s = try SpellingHarness("|. teh fox wrng")
        s.checksAfterEachKey = false
        try s.keys("the ")
        #expect(s.marked == ["teh", "wrng"], "moved by the text typed before them")
        try s.keys("<End>x<Home>")
        #expect(s.marked == ["teh"], "typing at a word's end touches it: marked again by the next check")
        s.check()
        #expect(s.marked == ["teh", "wrngx"])
    }

    /// One change of several edits (replace all): each mark moves by the edits before it,
    /// and those an edit touches (at an edge too) go.
    @Test func marksMapThroughAChangeOfSeveralEdits() {
        var marks = SpellMarks()
        let at: [Range<Int>] = [0 ..< 3, 5 ..< 8, 10 ..< 13, 20 ..< 24, 30 ..< 32]
        marks.take(at.map { SpellMarks.Mark(range: $0, word: "w\($0.lowerBound)") }, version: 0)
        // "ab" over 9..<10 (touches 10..<13), "" over 14..<16, "xyz" inserted at 32 (touches 30..<32).
        marks.map(through: ChangeSet(length: 40, replacing: [(range: 9 ..< 10, text: "ab"), (range: 14 ..< 16, text: ""), (range: 32 ..< 32, text: "xyz")]))
        #expect(marks.words.map(\.range) == [0 ..< 3, 5 ..< 8, 19 ..< 23])
        #expect(marks.words.map(\.word) == ["w0", "w5", "w20"])
    }

    @Test func f7OffersTheSuggestionsThenAddAndIgnore() throws {
        var s = try SpellingHarness("hi |thw fox")
        try s.keys("<F7>")
        #expect(s.rows == ["thanks", "the", "then", "there", "this", "Add thw to my words", "Ignore thw in this document"])
        #expect(s.editor.cursor == 3, "at the word's start")
        #expect(s.editor.search?.correction?.word == "thw")
    }

    @Test func aPickReplacesTheWordInOneUndoStep() throws {
        var s = try SpellingHarness("hi |thw fox")
        try s.keys("<F7><Enter>")
        #expect(s.state == "hi thanks| fox")
        #expect(s.marked == [])
        try s.keys("<C-z>")
        #expect(s.state.replacingOccurrences(of: "|", with: "") == "hi thw fox")
        #expect(s.marked == ["thw"])
        try s.keys("<C-y>")
        #expect(s.state.replacingOccurrences(of: "|", with: "") == "hi thanks fox")
    }

    @Test func aRowByNumberOrTheArrowsPicksToo() throws {
        var s = try SpellingHarness("|thw")
        try s.keys("<F7><Down><Enter>")
        #expect(s.state == "the|")
        var t = try SpellingHarness("|thw")
        try t.keys("<F7><M-3>")
        #expect(t.state == "then|")
    }

    @Test func addingTheWordAsksForTheListAndUnmarksIt() throws {
        var s = try SpellingHarness("|zorp and zorp")
        try s.keys("<F7>")
        let add = try #require(s.rows.firstIndex(of: "Add zorp to my words"))
        s.h.run(s.h.editor.pickResult(add))
        #expect(s.h.effects.contains(.addWord("zorp")))
        #expect(s.marked == [])
        #expect(s.state == "|zorp and zorp", "the text is as it was")
    }

    @Test func ignoringTheWordKeepsItUnmarkedInThisDocument() throws {
        var s = try SpellingHarness("|zorp and Zorp")
        try s.keys("<F7>")
        let ignore = try #require(s.rows.firstIndex(of: "Ignore zorp in this document"))
        s.h.run(s.h.editor.pickResult(ignore))
        #expect(s.marked == [])
        try s.keys("<End> zorp ")
        #expect(s.marked == [], "later checks find it and leave it")
    }

    @Test func altNGoesToTheNextMisspeltWordAndWraps() throws {
        var s = try SpellingHarness("|aaa the bbb")
        try s.keys("<F7>")
        #expect(s.editor.search?.correction?.word == "aaa")
        try s.keys("<M-n>")
        #expect(s.editor.search?.correction?.word == "bbb")
        try s.keys("<M-n>")
        #expect(s.editor.search?.correction?.word == "aaa")
    }

    @Test func escOrAnyOtherKeyLeavesTheWordAsItWas() throws {
        var s = try SpellingHarness("|thw")
        try s.keys("<F7><Esc>")
        #expect(s.editor.search == nil)
        #expect(s.state == "|thw")
        try s.keys("<F7>x")
        #expect(s.editor.search == nil)
        #expect(s.state == "x|thw")
    }

    @Test func withNothingMarkedF7SaysSo() throws {
        var s = try SpellingHarness("the fox|")
        try s.keys("<F7>")
        #expect(s.editor.search == nil)
        #expect(s.h.effects.contains(.notice("No misspelt words")))
    }

    /// Checking never changes the text, the mentions or the undo history: the same random
    /// script gives the same document with checks after every key and with none.
    @Test func checkingNeverChangesTheTextOrTheMentions() throws {
        for seed in 0 ..< UInt64(200) {
            var rng = SeededRandom(seed: seed)
            let doc = EditorPropertyTests.randomDocument(&rng)
            var script: [Key] = []
            for _ in 0 ..< rng.int(1 ..< 40) { script.append(EditorPropertyTests.randomKey(&rng)) }
            var checked = Harness.plain(doc), unchecked = Harness.plain(doc)
            for key in script {
                checked.run(checked.editor.handle(key))
                let found = Misspelling.find(in: checked.editor.marked, format: .github,
                                             speller: WordListSpeller(["the"]))
                checked.editor.takeMisspellings(found.map { SpellMarks.Mark(range: $0.range, word: $0.word) }, version: checked.editor.version)
                unchecked.run(unchecked.editor.handle(key))
            }
            #expect(checked.editor.marked == unchecked.editor.marked, "seed \(seed)")
            for mark in checked.editor.spelling.words {
                #expect(checked.editor.storage.slice(mark.range) == mark.word, "seed \(seed): a mark on its word")
            }
        }
    }
}

extension Harness {
    /// A harness over `doc` with the cursor at its end.
    static func plain(_ doc: MarkedText) -> Harness {
        var h = try! Harness("|")
        h.editor = Editor(doc, config: EditorConfig(format: .github))
        return h
    }
}
