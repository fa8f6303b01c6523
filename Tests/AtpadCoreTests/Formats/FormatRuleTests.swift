import Testing
@testable import AtpadCore

/// docs/formats.md, "Which format a file is in": a file's format comes from its name —
/// `-f`, then `.atpad` / `.json`, then the config's `[formats]` patterns, then Markdown and
/// git's messages (`github`), then the config's `format` for comments whose name says
/// nothing, then `text`; never atpad markup for a file atpad did not name so.
@Suite("format rule")
struct FormatRuleTests {
    @Test func commentsAreGitHubAndEverythingElseIsText() {
        let rule = FormatRule()
        for path in ["COMMIT_EDITMSG", ".git/COMMIT_EDITMSG", "MERGE_MSG", "TAG_EDITMSG", "README.md", "notes.txt"] {
            #expect(rule.format(of: path) == .github, "\(path)")
        }
        for path in [".git/rebase-merge/git-rebase-todo", ".git/addp-hunk-edit.diff", "Makefile", "a/b/c", "x.atpad.bak"] {
            #expect(rule.format(of: path) == .text, "\(path)")
        }
        #expect(rule.format(of: nil) == .github)
    }

    @Test func atpadAndJSONByExtension() {
        let rule = FormatRule()
        #expect(rule.format(of: "pr-42.atpad") == .atpad)
        #expect(rule.format(of: "/tmp/comment.JSON") == .json)
    }

    @Test func theNamedFormatWinsOverEverything() {
        let rule = FormatRule(patterns: [.init(glob: "*", format: .slack)], fallback: .discord)
        #expect(rule.format(of: "a.atpad", named: .github) == .github)
        #expect(rule.format(of: nil, named: .zulip) == .zulip)
        #expect(rule.format(of: "notes.txt", named: .atpad) == .atpad)
    }

    @Test func extensionsThenPatternsInOrderThenTheConfigsFormat() {
        let rule = FormatRule(patterns: [.init(glob: "*.slack", format: .slack), .init(glob: "*.s*", format: .discord),
                                         .init(glob: "*.json", format: .plain)],
                              fallback: .markdown)
        #expect(rule.format(of: "standup.slack") == .slack)
        #expect(rule.format(of: "x/standup.sx") == .discord)
        #expect(rule.format(of: "c.json") == .json)  // the extension comes first
        #expect(rule.format(of: "notes.txt") == .markdown)
        #expect(rule.format(of: nil) == .markdown)
    }

    @Test func patternsWithASlashMatchThePath() {
        let rule = FormatRule(patterns: [.init(glob: "/work/chat/*", format: .slack), .init(glob: "notes/*.txt", format: .plain)],
                              currentDirectory: "/home/ana")
        #expect(rule.format(of: "/work/chat/today") == .slack)
        #expect(rule.format(of: "/work/chat/a/today") == .text)  // `*` never crosses `/`
        #expect(rule.format(of: "today") == .text)
        #expect(rule.format(of: "/x/notes/a.txt") == .plain)  // from any folder on
        #expect(rule.format(of: "notes/a.txt") == .plain)
        #expect(rule.format(of: "a.txt") == .github)
        #expect(rule.format(of: "/x/mynotes/a.txt") == .github)
        // A relative path is found from the current folder.
        let chat = FormatRule(patterns: [.init(glob: "/home/ana/chat/*", format: .slack)], currentDirectory: "/home/ana")
        #expect(chat.format(of: "chat/today") == .slack)
    }

    @Test func globs() {
        #expect(FormatRule.matches(path: "a.slack", glob: "*.slack"))
        #expect(!FormatRule.matches(path: "a.slacker", glob: "*.slack"))
        #expect(FormatRule.matches(path: "dir/COMMIT_EDITMSG", glob: "COMMIT_*"))
        #expect(FormatRule.matches(path: "x1.md", glob: "x?.md"))
        #expect(FormatRule.matches(path: "xb.md", glob: "x[a-c].md"))
        #expect(!FormatRule.matches(path: "xd.md", glob: "x[a-c].md"))
        #expect(FormatRule.matches(path: "xd.md", glob: "x[!a-c].md"))
        #expect(FormatRule.matches(path: "a*b", glob: "a\\*b"))
        #expect(!FormatRule.matches(path: "axb", glob: "a\\*b"))
        #expect(FormatRule.matches(path: "[x", glob: "[x"))
        #expect(FormatRule.matches(path: "été.zulip", glob: "*.zulip"))
        #expect(FormatRule.matches(path: "anything", glob: "*"))
        #expect(!FormatRule.matches(path: "a", glob: ""))
    }
}
