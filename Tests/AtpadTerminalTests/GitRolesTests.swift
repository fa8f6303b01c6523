import AtpadCore
@testable import AtpadTerminal
import Testing

/// git's files drawn as git reads them (docs/git.md, "How git's files are drawn"): comment
/// lines in `comment` over Markdown, the diff under the scissors in `diff.*`, the
/// message's shape in `commit.*`, a rebase list in `rebase.*`; the title bar shows the
/// subject's length against its limit.
@Suite struct GitRolesTests {
    func editor(_ text: String, git: GitFile = GitFile(kind: .message), format: DocumentFormat = .github) -> Editor {
        var config = EditorConfig(format: format)
        config.git = git
        return Editor(MarkedText(text: text), cursor: 0, config: config)
    }

    @Test func commentLinesAreCommentsNotHeadings() {
        let f = frame(editor("Fix **it**\n\n# On branch main\n## x\n; y\n"), width: 30, height: 10)
        let roles = f.screen.roleLines.map { String($0) }
        #expect(roles[1].hasPrefix("....BBBBBB."))
        #expect(roles[3].hasPrefix("################"))
        #expect(roles[4].hasPrefix("####."))
        #expect(roles[5].hasPrefix("....."))
        // With `;` as the comment string, `#` lines are the message's Markdown again.
        let semi = frame(editor("Fix\n\n# Heading\n; note\n", git: GitFile(kind: .message, comment: ";")), width: 30, height: 10)
        let r = semi.screen.roleLines.map { String($0) }
        #expect(r[3].hasPrefix("HHHHHHHHH."))
        #expect(r[4].hasPrefix("######."))
    }

    @Test func theDiffUnderTheScissors() {
        let text = "Fix\n# ------------------------ >8 ------------------------\n@@ -1 +1 @@\n+#include <x>\n-- a\n ctx\n"
        let f = frame(editor(text), width: 60, height: 10)
        let roles = f.screen.roleLines.map { String($0) }
        #expect(roles[2].hasPrefix(String(repeating: "#", count: 54)))
        #expect(roles[3].hasPrefix("@@@@@@@@@@@."))
        #expect(roles[4].hasPrefix("+++++++++++++."))
        #expect(roles[5].hasPrefix("----."))
        #expect(roles[6].hasPrefix("....."))
    }

    @Test func theShapeAndTheTitleBar() {
        let subject = String(repeating: "s", count: 52)
        let f = frame(editor("\(subject)\nsecond\n"), width: 60, height: 8)
        let roles = f.screen.roleLines.map { String($0) }
        #expect(roles[1].hasPrefix(String(repeating: ".", count: 50) + "oo."))
        #expect(roles[2].hasPrefix("wwwwww."))
        #expect(f.screen.lines[0].hasSuffix("52/50 · Ln 1, Col 1"))
        // Other files show no length.
        #expect(!frame(Editor(MarkedText(text: subject)), width: 60).screen.lines[0].contains("/50"))
    }

    @Test func aRebaseList() {
        let f = frame(editor("pick 1a2b Fix it\n# Rebase 1..2\n", git: GitFile(kind: .rebaseList), format: .text),
                      width: 30, height: 8)
        let roles = f.screen.roleLines.map { String($0) }
        #expect(roles[1].hasPrefix("rrrr.RRRR.uuuuuu."))
        #expect(roles[2].hasPrefix("#############."))
    }

    @Test func overlayKeepsMarkdownAroundGitsRuns() {
        let top: [(range: Range<Int>, role: Role)] = [(2 ..< 4, .comment), (9 ..< 12, .diffAdded)]
        let bottom: [(range: Range<Int>, role: Role)] = [(0 ..< 6, .markupCode), (8 ..< 10, .markupLink)]
        let merged = MarkupRuns.overlay(top, on: bottom).map { "\($0.role.rawValue) \($0.range)" }
        #expect(merged == ["markup.code 0..<2", "comment 2..<4", "markup.code 4..<6", "markup.link 8..<9",
                           "diff.added 9..<12"])
    }
}
