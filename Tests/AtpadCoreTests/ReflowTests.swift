import AtpadCore
import AtpadTestSupport
import Testing

/// Alt-Q (docs/git.md, "Reflow"): the paragraph at the cursor refilled to 72 columns;
/// mentions, code spans and URLs stay whole; lists, quotes, code and trailers keep their
/// lines; one undo step.
@Suite struct ReflowTests {
    static let long = "word " + String(repeating: "lorem ipsum dolor ", count: 6)

    @Test func aParagraphIsFilledAndAMentionStaysWhole() throws {
        var h = try Harness("Fix it\n\nThanks @[John Doe](1) for\nthe change, and `a code span` too, and the rest of this long line that goes on|\n")
        try h.keys("<M-q>")
        #expect(h.state == "Fix it\n\nThanks @[John Doe](1) for the change, and `a code span` too, and the rest of\nthis long line that goes on|\n")
        try h.keys("<C-z>")
        #expect(h.state == "Fix it\n\nThanks @[John Doe](1) for\nthe change, and `a code span` too, and the rest of this long line that goes on|\n")
    }

    @Test func whatIsNotProseKeepsItsLines() throws {
        for text in ["- a list item\n- another", "> quoted\n> more", "Reviewed-by: A <a@e>\nSigned-off-by: B <b@e>",
                     "    indented code\n    more", "| a | b |\n|---|---|", "```\ncode\n```", "1. one\n2. two", "Fixes: #12\nmore"] {
            var h = try Harness("|")
            h.editor = Editor(MarkedText(text: text), cursor: text.unicodeScalars.count, config: EditorConfig())
            try h.keys("<M-q>")
            #expect(h.editor.text == text, "\(text)")
            #expect(h.effects.contains(.notice("Not reflowed: lists, quotes, tables, code and trailers keep their lines")))
        }
        var blank = try Harness("a\n\n|\n\nb")
        try blank.keys("<M-q>")
        #expect(blank.effects.contains(.notice("Nothing to reflow here")))
        // `Note: …` is prose, not a trailer.
        var note = try Harness("Note: this\nwraps|")
        try note.keys("<M-q>")
        #expect(note.state == "Note: this wraps|")
    }

    @Test func commentsAndTheDiffBelowTheScissorsAreLeftAlone() throws {
        var config = EditorConfig()
        config.git = GitFile(kind: .message)
        let diff = "\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n+a long\n+line|\n"
        var h = try Harness("Fix\n\nBody one\ntwo\n# a comment\n# more" + diff, config: config)
        try h.keys("<M-q>")
        #expect(h.effects.contains(.notice("Nothing to reflow here")))
        try h.keys("<C-Home><Down><Down>")
        try h.keys("<M-q>")
        #expect(h.state == "Fix\n\nBody one two|\n# a comment\n# more" + diff.replacingEvery("|", with: ""))
    }

    @Test func aSelectionReflowsEveryParagraphItTouches() throws {
        var h = try Harness("one\ntwo\n\nthree\nfour|")
        h.run(h.editor.selectAll())
        try h.keys("<M-q>")
        #expect(h.state == "one two\n\nthree four|")
    }

    /// Random paragraphs of words and mentions: after Alt-Q the words are the same in the
    /// same order, every mention still equals its text, and every line is at most 72
    /// columns unless it is one word.
    @Test func randomParagraphsKeepTheirWordsAndMentions() throws {
        let words = ["a", "parser", "é", "王伟", "`x y`", "https://example.com/" + String(repeating: "p", count: 70), "ok,"]
        for seed in UInt64(1) ... 200 {
            var rng = SeededRandom(seed: seed)
            var text = ""
            var mentions: [Mention] = []
            for _ in 0 ..< rng.int(1 ..< 60) {
                if rng.int(0 ..< 6) == 0 {
                    let m = Mention(trigger: "@", id: "1", name: "John Doe", start: text.unicodeScalars.count)
                    mentions.append(m)
                    text += m.text
                } else {
                    text += rng.pick(words)
                }
                text += rng.pick([" ", " ", "  ", "\n"])
            }
            var h = try Harness("|")
            h.editor = Editor(MarkedText(text: text, mentions: mentions), cursor: 0, config: EditorConfig())
            try h.keys("<M-q>")
            let after = h.editor.marked
            #expect(after.text.split(whereSeparator: { $0 == " " || $0 == "\n" }) == text.split(whereSeparator: { $0 == " " || $0 == "\n" }),
                    "seed \(seed)")
            #expect(after.mentions.count == mentions.count, "seed \(seed)")
            let scalars = Array(after.text.unicodeScalars)
            for m in after.mentions { #expect(String(String.UnicodeScalarView(scalars[m.range])) == m.text, "seed \(seed)") }
            for line in after.text.split(separator: "\n") where line.contains(" ") && !line.contains("`x y`") {
                #expect(DisplayWidth.of(String(line)) <= 72 || !line.dropFirst().contains(" "), "seed \(seed): \(line)")
            }
        }
    }
}
