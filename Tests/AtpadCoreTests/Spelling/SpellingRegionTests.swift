@testable import AtpadCore
import AtpadTestSupport
import Testing

/// Checking part of a long text first (docs/spelling.md, "In the editor"): the words edited
/// since the last check and the rows in view, widened to whole blocks of Markdown, give
/// the marks a check of the whole text gives there.
@Suite struct SpellingRegionTests {
    static let speller = WordListSpeller(["the", "quick", "brown", "fox", "see", "and", "more", "words", "a", "list"])

    /// A Markdown comment of about 40 KB: paragraphs, a fenced block and code spans whose
    /// words are not English, a list, mentions, and a typo every few blocks.
    static func longComment() -> MarkedText {
        var text = ""
        var mentions: [Mention] = []
        var i = 0
        while text.unicodeScalars.count < 40_000 {
            switch i % 5 {
            case 0: text += "The quick brown fox, see `qwzx` and more wrods.\n\n"
            case 1: text += "```\nzzkq vvbn the\nmore qqq\n\nxxv brown\n```\n\n"
            case 2:
                text += "- a list of words\n- and teh fox\n\n"
            case 3:
                let start = text.unicodeScalars.count + 4
                text += "see @Jon Doe and the fox\nmore wrds here\n\n"
                mentions.append(Mention(trigger: "@", entity: Entity(id: "1", name: "Jon Doe"), start: start))
            default: text += "# Quick wordz\n\n> quoted brown fox\n\n"
            }
            i += 1
        }
        return MarkedText(text: text, mentions: mentions)
    }

    static func wholeCheck(_ editor: Editor) -> [SpellMarks.Mark] {
        Misspelling.find(in: editor.marked, format: .github, speller: speller).map { SpellMarks.Mark(range: $0.range, word: $0.word) }
    }

    /// For views all over the text, a check of the region finds exactly what a check of the
    /// whole text finds in it: what is code, a mention or a heading reads the same.
    @Test func aRegionsMarksAreTheWholeChecksMarksThere() throws {
        let editor = Editor(Self.longComment(), cursor: 0, config: EditorConfig(format: .github))
        let whole = Self.wholeCheck(editor)
        #expect(!whole.isEmpty)
        var random = SeededRandom(seed: 3)
        for _ in 0 ..< 60 {
            let top = Int(random.next() % UInt64(editor.storage.count))
            let visible = top ..< min(editor.storage.count, top + 1 + Int(random.next() % 3000))
            let regions = try #require(editor.spellingRegions(visible: visible))
            #expect(regions.count == 1, "nothing edited")
            let region = regions[0]
            #expect(region.lowerBound <= visible.lowerBound && visible.upperBound <= region.upperBound)
            let part = SpellMarks.find(in: region, of: editor.storage, format: .github, speller: Self.speller)
            #expect(part == whole.filter { region.contains($0.range.lowerBound) }, "region \(region)")
        }
    }

    /// An edit far from the view is looked at with it; a region check that covers it takes
    /// its marks and leaves the others, and nothing waits to be looked at after it.
    @Test func theEditedWordsAreCheckedWithTheRowsInView() throws {
        let comment = Self.longComment()
        // After "The" of a paragraph near 30,000: the edit changes no block of Markdown (one
        // that does — a fence typed — is what the whole check after it is for).
        let text = Array(comment.text.unicodeScalars)
        var at = 30_000
        while !(text[at] == "T" && text[at + 1] == "h" && text[at + 2] == "e" && text[at + 3] == " ") { at += 1 }
        at += 3
        var editor = Editor(comment, cursor: at, config: EditorConfig(format: .github))
        editor.takeMisspellings(Self.wholeCheck(editor), version: editor.version)
        let before = editor.spelling.words
        #expect(editor.spelling.edited == nil)
        for c in " wrongg" { _ = editor.handle(.char(c)) }
        let edited = try #require(editor.spelling.edited)
        #expect(edited == at ..< at + 7)
        let visible = 1000 ..< 3000
        let regions = try #require(editor.spellingRegions(visible: visible))
        #expect(regions.count == 2)
        #expect(regions[0].contains(1000) && regions[0].contains(2999) && regions[1].contains(at))
        let found = regions.flatMap { SpellMarks.find(in: $0, of: editor.storage, format: .github, speller: Self.speller) }
        #expect(found.map(\.word).contains("wrongg"))
        let taken = editor.takeMisspellings(found, in: regions, version: editor.version)
        #expect(taken)
        #expect(editor.spelling.edited == nil)
        let all = Self.wholeCheck(editor)
        #expect(Set(editor.spelling.words).subtracting(all).isEmpty && Set(all).subtracting(editor.spelling.words).isEmpty,
                "extra \(Set(editor.spelling.words).subtracting(all)), missing \(Set(all).subtracting(editor.spelling.words)) in \(regions)")
        #expect(editor.spelling.words.count == before.count + 1)
    }

    /// Edits far apart (with no check between them) make a region of most of the text: the whole text is checked then,
    /// as it is for a short text and for git's files.
    @Test func shortTextsGitFilesAndScatteredEditsAreCheckedWhole() {
        let short = Editor(MarkedText(text: "teh quick fox"), cursor: 0, config: EditorConfig(format: .github))
        #expect(short.spellingRegions(visible: 0 ..< 5) == nil)
        var config = EditorConfig(format: .github)
        config.git = GitFile(kind: .message, comment: "#")
        let git = Editor(Self.longComment(), cursor: 0, config: config)
        #expect(git.spellingRegions(visible: 0 ..< 100) == nil)
        var far = Editor(Self.longComment(), cursor: 0, config: EditorConfig(format: .github))
        _ = far.handle(.char("x"))
        _ = far.click(at: 39_000)
        _ = far.handle(.char("x"))
        #expect(far.spellingRegions(visible: 20_000 ..< 22_000) == nil)
    }
}
