import AtpadTestSupport
import Testing
@testable import AtpadCore

/// A letter or a space typed into a word of prose needs no parse: wherever `typedInWord`
/// says so, the last parse moved by the typed scalar (`typing`) is exactly what cmark-gfm
/// gives for the new text — on every place of every CommonMark and GFM spec example, and
/// on random pieces.
@Suite struct MarkdownTypingPropertyTests {
    /// Letters of several widths in UTF-8, and a space.
    static let letters = ["x", "Z", "7", "é", "王", "𝒜", " "]

    /// Checks every byte offset of `text` for each letter; returns how many places the
    /// shortcut took (and so were checked against a parse).
    static func check(_ text: String, _ label: String) -> Int {
        let old = Array(text.utf8)
        let before = old.withUnsafeBufferPointer { MarkdownSyntax($0) }
        var taken = 0
        for offset in 0 ... old.count where offset == old.count || old[offset] & 0xC0 != 0x80 {
            for letter in letters {
                let new = Array(old[..<offset]) + Array(letter.utf8) + Array(old[offset...])
                guard let typed = MarkdownSyntax.typedInWord(from: old, to: new) else { continue }
                taken += 1
                // Typed next to the same letter, the place is either: the bytes are the same.
                guard typed.length == letter.utf8.count,
                      Array(new[typed.offset ..< typed.offset + typed.length]) == Array(letter.utf8) else {
                    Issue.record("\(label): typed \(letter) at \(offset) found at \(typed)")
                    return taken
                }
                let fresh = new.withUnsafeBufferPointer { MarkdownSyntax($0) }
                let moved = before.typing(typed)
                guard moved == fresh else {
                    Issue.record("\(label): \(letter) at \(offset) of \(String(reflecting: text)): moved \(moved) != parsed \(fresh)")
                    return taken
                }
            }
        }
        return taken
    }

    @Test(arguments: ["commonmark-0.31.2-spec.txt", "gfm-spec.txt"])
    func everySpecExample(file: String) throws {
        var taken = 0
        for (n, example) in try MarkdownSpecTests.examples(file).enumerated() {
            taken += Self.check(example, "\(file) example \(n + 1)")
        }
        // The shortcut is taken often enough for this to test something.
        #expect(taken > 2_000)
    }

    /// Random lines of prose, code, quotes, lists, tables, HTML and emphasis.
    @Test func randomPieces() {
        let lines = ["Some words here", "more text 12 and", "```", "~~~", "    code line", "> quoted words", "- item words",
                     "1. first one", "# Heading words", "Setext words", "===", "---", "| a | b |", "|---|---|",
                     "<div>", "words in html", "</div>", "<!-- note", "still words -->", "a *b c* d", "x _y z_ w",
                     "`code words` after", "www.example.com words", "mail a@b.example now", "text  ", "", "", "\tTabbed words",
                     "line with \\", "&amp; entity words", "~~gone words~~", "Zoë Ørsted 王伟 words"]
        var rng = SeededRandom(seed: 0x7E47_1A9E)
        var taken = 0
        for n in 0 ..< 300 {
            let text = (0 ..< Int.random(in: 1 ... 12, using: &rng)).map { _ in lines.randomElement(using: &rng)! }
                .joined(separator: Bool.random(using: &rng) ? "\n" : "\r\n")
            taken += Self.check(text, "random \(n)")
        }
        #expect(taken > 2_000)
    }

    /// What the shortcut takes and refuses: a letter after two blanks or at a line's
    /// start, a space beside punctuation or a blank, anything on a line that starts with a
    /// block marker or in a text with a bracket.
    @Test func refusals() {
        func takes(_ old: String, _ new: String) -> Bool {
            MarkdownSyntax.typedInWord(from: Array(old.utf8), to: Array(new.utf8)) != nil
        }
        #expect(takes("hello world", "helxlo world"))
        #expect(takes("hello world", "hello worldx"))
        #expect(takes("hello world", "hello xworld"))    // a word started after a space
        #expect(!takes("hello world ", "hello world x")) // a letter after a space, before no word
        #expect(takes("hello world", "hel lo world"))    // a word split by a space
        #expect(!takes("hello  world", "hello  xworld")) // after two blanks
        #expect(!takes("hello world", "hello  world"))   // a space beside a blank
        #expect(!takes("hello world", "hello world "))   // a space at the line's end
        #expect(!takes("hello *world*", "hello *wo rld*"))
        #expect(!takes("hello", "xhello"))               // at the line's start
        #expect(!takes("hello *world*", "hello *worlxd*"))
        #expect(!takes("# hello world", "# hello worxld"))
        #expect(!takes("    hello world", "    hello worxld"))
        #expect(!takes("[hello world] and", "[hello world] andx"))
        // A letter in the middle word of a label makes it match a definition: a link.
        let label = "[ab cd ef]: /u\n\n[ab c ef]"
        #expect(!takes(label, "[ab cd ef]: /u\n\n[ab cd ef]"))
        #expect(MarkdownSyntax(label).spans != MarkdownSyntax("[ab cd ef]: /u\n\n[ab cd ef]").spans)
        #expect(!takes("www.hello.com", "www.helxlo.com"))
        #expect(!takes("hello world", "hello world!"))   // not a letter
        #expect(!takes("hello world", "hello world\u{301}"))  // a combining mark
    }
}
