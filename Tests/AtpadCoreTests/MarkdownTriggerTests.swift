import AtpadCore
import Testing

/// SPEC §3 in Markdown formats: no search starts where GitHub would not make a mention —
/// code spans, fences of either kind, indented code, fences in list items and quotes,
/// link destinations, HTML — and `#` starting a heading starts none. In other formats
/// today's rules stay.
@Suite struct MarkdownTriggerTests {
    static let markdown = EditorConfig(triggers: ["@", "#"], implicitThreshold: 0, format: .markdown)

    func opens(_ start: String, _ keys: String, config: EditorConfig = markdown) throws -> Bool {
        var h = try Harness(start, config: config)
        try h.keys(keys)
        return h.editor.search != nil
    }

    @Test(arguments: [
        "```\n|", "~~~\n|", "````js\nlet a = 1\n|", "~~~~\n```\n|",
        "para\n\n    |", "- ```\n  |", "1. ~~~\n   |", "> ```\n> |", "> - ~~~\n>   |",
        "use `x| y`", "<div>\n|\n</div>", "<span title=\"|\">",
    ])
    func noSearchInCode(_ start: String) throws {
        #expect(try !opens(start, "@jo"))
    }

    @Test(arguments: [
        "|", "hi |", "```\ncode\n```\n|", "~~~\ncode\n~~~\n\n|", "- item |", "1. ```sh\n   make\n   ```\n2. then |",
        "> quote |", "# Heading |", "**|", "_|", "use `x` and |", "- use `foo`\n- ask |", "para\n    |",
    ])
    func searchInProse(_ start: String) throws {
        #expect(try opens(start, "@jo"))
    }

    @Test func typingACodeSpanOrALinkDestinationStartsNone() throws {
        #expect(try !opens("use ", "`@jo"))
        #expect(try !opens("see [x](", "@jo"))
        #expect(try !opens("see [x](|)", "@jo"))
    }

    @Test func typedFenceThenEnterStartsNone() throws {
        #expect(try !opens("", "~~~<Enter>@jo"))
        #expect(try !opens("", "```<Enter>@jo"))
        #expect(try !opens("text", "<Enter><Enter>    @jo"))
        #expect(try opens("", "~~~<Enter>x<Enter>~~~<Enter>@jo"))
    }

    @Test func hashStartingAHeadingStartsNoSearch() throws {
        #expect(try !opens("", "#"))
        #expect(try !opens("para\n", "#"))
        #expect(try opens("see ", "#"))
        // Other formats: today's rule, `#` at the start of a line searches.
        #expect(try opens("", "#", config: EditorConfig(triggers: ["@", "#"], implicitThreshold: 0)))
    }

    @Test func otherFormatsKeepTodaysRules() throws {
        let plain = EditorConfig(implicitThreshold: 0)
        #expect(try opens("para\n\n    ", "@jo", config: plain))
        #expect(try opens("~~~\n", "@jo", config: plain))
        #expect(try !opens("```\n", "@jo", config: plain))
    }

    @Test func ctrlSpaceFollowsTheSameRule() throws {
        var h = try Harness("```\n|", config: Self.markdown)
        try h.keys("<C-Space>")
        #expect(h.editor.search == nil)
        #expect(h.editor.text == "```\n")
        var prose = try Harness("hi |", config: Self.markdown)
        try prose.keys("<C-Space>")
        #expect(prose.editor.search != nil)
    }

    @Test func implicitSearchesFollowTheSameRule() throws {
        let implicit = EditorConfig(implicitThreshold: 3, format: .markdown)
        var h = try Harness("```\n|", config: implicit)
        try h.keys("johnny")
        #expect(h.editor.search == nil)
        var prose = try Harness("hi |", config: implicit)
        try prose.keys("johnny")
        #expect(prose.editor.search != nil)
    }

    /// Edits far from the cursor keep the block index right: a fence opened above makes
    /// the text below code, closing it makes it prose again.
    @Test func blockIndexFollowsFencesOpenedAndClosedAbove() throws {
        var h = try Harness("|intro\n\nfirst\n\nsecond\n\nthird ", config: Self.markdown)
        try h.keys("```<Enter><C-End>@")
        #expect(h.editor.search == nil)
        try h.keys("<Esc><BS><C-Home><Del><Del><Del><Del><C-End>@")
        #expect(h.editor.search != nil)
    }

    // MARK: - Issue 32: `#` in a heading, HTML being typed

    /// `#` after a blank inside a heading's text starts a search, as reading finds
    /// `#general` there; `#` where it is the heading's own marker starts none.
    @Test func hashInAHeadingsTextSearches() throws {
        #expect(try opens("## Notes for ", "#gen"))
        #expect(try opens("# ", "#gen"))
        #expect(try opens("## a |b", "#"))
        #expect(try opens("Title |\n===", "#"))
        #expect(try opens("## Notes for |  ", "#"))
        // The heading's marker: at the start of a line, after indentation, in a quote or a list item.
        #expect(try !opens("", "#gen"))
        #expect(try !opens("   ", "#gen"))
        #expect(try !opens("> ", "#gen"))
        #expect(try !opens("- ", "#gen"))
        #expect(try !opens("a\n", "#gen"))
        // Ctrl-Space with `#` as the default trigger follows the same rule.
        var h = try Harness("## Notes for |", config: EditorConfig(triggers: ["#", "@"], defaultTrigger: "#", implicitThreshold: 0,
                                                                   format: .markdown))
        try h.keys("<C-Space>")
        #expect(h.editor.search != nil && h.editor.text == "## Notes for #")
    }

    @Test func readingFindsAChannelInAHeadingAsTheEditorSearchesThere() throws {
        let people = EntityLookup(["@": samplePeople, "#": [Entity(id: "c1", name: "general", handle: "general")]])
        let read = try DocumentFormat.github.decode("## Notes for #general\n", lookup: people)
        #expect(read.document.listedMentions.map(\.id) == ["c1"])
    }

    /// An unclosed `<!--` on the line, or a tag being typed, is HTML about to be: no search.
    @Test func noSearchInACommentOrATagBeingTyped() throws {
        for start in ["<!-- ", "x <!-- a ", "<a href=\"", "<img alt=\"x ", "<img alt='", "<a title= ", "<A HREF=\"",
                      "- <a href=\"", "> <span title=\"", "**<a href=\"", "<a b c=\""] {
            #expect(try !opens(start, "@jo"), "\(start)")
        }
    }

    @Test func aLessThanThatStartsNoTagLeavesTheSearch() throws {
        for start in ["x < y ", "<b then ", "a <!-- x --> ", "`<a` ", "<a title=\"x\">y</a> ", "\\<a href=\"", "a <3 ",
                      "<a>b</a> ", "<!-- a -->\n", "<a href=\"x\"\n", "</a x=\""] {
            #expect(try opens(start, "@jo"), "\(start)")
        }
    }

    /// Reading agrees for the closed forms: no mention in a comment or a tag.
    @Test func readingFindsNoMentionInClosedHTML() throws {
        let people = EntityLookup(["@": samplePeople])
        for text in ["<!-- @jdoe -->", "<a href=\"@jdoe\">x</a>", "<img alt=@jdoe>", "x <span title='@jdoe'>y</span>"] {
            #expect(try DocumentFormat.github.decode(text, lookup: people).document.listedMentions.isEmpty, "\(text)")
        }
        #expect(try DocumentFormat.github.decode("x < y @jdoe", lookup: people).document.listedMentions.count == 1)
    }

    /// Implicit searches follow the rule too: a word typed in a tag is an attribute.
    @Test func noImplicitSearchInATagBeingTyped() throws {
        let implicit = EditorConfig(implicitThreshold: 3, format: .markdown)
        var h = try Harness("<a href=\"x\" |", config: implicit)
        try h.keys("johnny")
        #expect(h.editor.search == nil)
    }
}
