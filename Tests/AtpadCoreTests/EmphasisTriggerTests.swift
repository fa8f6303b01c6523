import AtpadCore
import Testing

/// Issue 22 bullet 10 (docs/behaviour.md, "Emphasis before a trigger"): `*`, `_` and `~`
/// count as opening punctuation before a trigger, as emphasis opens in Markdown (`**@jo`,
/// `_@jo`, `~~@jo`).
@Suite struct EmphasisTriggerTests {
    @Test(arguments: ["|", "hi |", "(|", "a\n|", "> |"])
    func anEmphasisRunBeforeTheTriggerOpensTheChooser(_ start: String) throws {
        for marks in ["**", "*", "_", "__", "~~", "~", "**_"] {
            var h = try Harness(start, config: EditorConfig(implicitThreshold: 0))
            try h.keys(marks + "@jo")
            #expect(h.query == "jo", "\(start.debugDescription) + \(marks)")
            #expect(h.editor.search?.isOpen == true)
        }
    }

    @Test func pickingAfterEmphasisMakesTheMention() throws {
        var h = try Harness(config: EditorConfig(implicitThreshold: 0))
        try h.keys("**@jo<Enter>")
        #expect(h.editor.marked.listedMentions.map(\.name) == ["John Doe"])
        #expect(h.editor.text.hasPrefix("**@John Doe"))
    }

    @Test(arguments: ["foo|", "a.|", "x)|"])
    func marksAfterAWordDoNotOpen(_ start: String) throws {
        for marks in ["_", "*", "~~"] {
            var h = try Harness(start, config: EditorConfig(implicitThreshold: 0))
            try h.keys(marks + "@jo")
            #expect(h.editor.search == nil, "\(start.debugDescription) + \(marks)")
        }
    }

    @Test func marksRightAfterAMentionDoNotOpen() throws {
        var h = try Harness("@[John Doe](1)|", config: EditorConfig(implicitThreshold: 0))
        try h.keys("_@jo")
        #expect(h.editor.search == nil)
    }
}
