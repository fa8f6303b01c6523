import AtpadTestSupport
import Testing
@testable import AtpadCore

/// The editor's index of top-level Markdown blocks, followed edit by edit, is always the
/// one a parse of the whole text gives — fences and HTML blocks opened and closed far
/// from where the parse looks, long paragraphs edited in their middle.
@Suite struct MarkdownBlocksPropertyTests {
    static let lines = [
        "```", "~~~", "````", "    code", "- item", "  continued", "> quote", "# heading", "text here",
        "more text", "", "", "<div>", "</div>", "<!--", "-->", "1. one", "2. two", "---", "===",
        "| a | b |", "|---|---|", "[ref]: /url", "* star", "\tTab", "para `code", "span` end",
    ]

    static func document(_ rng: inout SeededRandom, lines count: Int) -> String {
        (0 ..< count).map { _ in lines.randomElement(using: &rng)! }.joined(separator: "\n")
    }

    @Test func theIndexFollowsEveryEdit() {
        for seed in 0 ..< 300 {
            var rng = SeededRandom(seed: 0x4D44_0000 &+ UInt64(seed))
            var text = Self.document(&rng, lines: Int.random(in: 0 ... 30, using: &rng))
            // Some documents hold one long paragraph, parsed only around an edit.
            if seed % 5 == 0 {
                let prose = (0 ..< 400).map { "Line \($0) of prose that goes on and on" }.joined(separator: "\n")
                text = text + "\n\n" + prose + "\n\n" + Self.document(&rng, lines: 5)
            }
            var editor = Editor(MarkedText(text: text), cursor: 0, config: EditorConfig(format: .markdown))
            for step in 0 ..< 12 {
                let count = editor.storage.count
                let a = Int.random(in: 0 ... count, using: &rng)
                var b = min(count, a + Int.random(in: 0 ... 12, using: &rng))
                var inserted = Bool.random(using: &rng)
                    ? Self.lines.randomElement(using: &rng)! + (Bool.random(using: &rng) ? "\n" : "")
                    : ""
                // Half the time one key of typing: a letter, a blank or punctuation, or a
                // deletion of one character.
                if Bool.random(using: &rng) {
                    b = Bool.random(using: &rng) ? min(count, a + 1) : a
                    inserted = a == b ? String(["a", "Z", " ", ".", "(", "<", "-", "`", "|"].randomElement(using: &rng)!) : ""
                }
                editor.apply(editor.replacing(a ..< b, with: inserted))
                let fresh = MarkdownBlocks(editor.storage)
                // The starts must be exact; whether each block is a paragraph is a hint (it
                // only decides how much of a long paragraph is parsed).
                // A paragraph of link reference definitions only leaves no node, so the
                // index may also keep its start (parsing from there is as good).
                let starts = editor.markdownBlocks?.starts ?? []
                let extra = Set(starts).subtracting(fresh.starts)
                let scalars = Array(editor.text.unicodeScalars)
                guard Set(fresh.starts).isSubset(of: starts), extra.allSatisfy({ $0 < scalars.count && scalars[$0] == "[" }) else {
                    Issue.record("seed \(seed), step \(step): \(editor.markdownBlocks!) != \(fresh) after \(a)..<\(b) \(String(reflecting: inserted)) for \(String(reflecting: editor.text))")
                    return
                }
            }
        }
    }

    /// The window the front end parses covers what it asks about: whole top-level blocks,
    /// and of a long paragraph only the lines around the range, cut before a letter.
    @Test func theWindowCoversTheView() {
        let prose = (0 ..< 3_000).map { $0 % 7 == 0 ? "  (indented \($0))" : "Line \($0) of prose" }.joined(separator: "\n")
        let text = "# Title\n\n" + prose + "\n\n```\ncode\n```\n"
        let editor = Editor(MarkedText(text: text), cursor: 0, config: EditorConfig(format: .markdown))
        let blocks = editor.markdownBlocks!
        let scalars = Array(text.unicodeScalars)
        for start in stride(from: 0, to: scalars.count, by: 4_999) {
            let range = start ..< min(scalars.count, start + 2_500)
            let window = blocks.window(around: range, in: editor.storage)
            #expect(window.lowerBound <= range.lowerBound && window.upperBound >= range.upperBound)
            #expect(window.count < range.count + 4 * MarkdownBlocks.margin, "a screenful of the paragraph, not all of it")
            // Inside the paragraph the window starts and ends at a letter (a block starts anything).
            for edge in [window.lowerBound, window.upperBound] where !blocks.starts.contains(edge) && edge < scalars.count {
                #expect(scalars[edge].properties.isAlphabetic)
            }
        }
    }
}
