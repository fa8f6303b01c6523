@testable import AtpadApp
import AtpadCore
import Testing

/// The config's `[formats]` table (docs/formats.md, "Which format a file is in"): glob
/// patterns of file names and their format, first match in the file's order; bad values
/// name the key and its line.
@Suite struct ConfigFormatsTests {
    func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(Array(text.utf8), file: "/c/config.toml", environment: [:])
    }

    @Test func patternsAreReadInTheFilesOrder() throws {
        let config = try parse("""
            format = "markdown"

            [formats]
            "*.slack" = "slack"
            "chat/*" = "discord"
            "*" = "plain"
            "COMMIT_EDITMSG" = "zulip"
            """)
        #expect(config.formatPatterns?.map(\.glob) == ["*.slack", "chat/*", "*", "COMMIT_EDITMSG"])
        let rule = config.formatRule
        #expect(rule.format(of: "a.slack") == .slack)
        #expect(rule.format(of: "COMMIT_EDITMSG") == .plain)  // `*` comes first
        #expect(rule.format(of: "x.atpad") == .atpad)
        #expect(rule.fallback == .markdown)
    }

    @Test func aPatternStartingWithTildeIsInTheHomeFolder() throws {
        let config = try Config.parse(Array("[formats]\n\"~/chat/*\" = \"slack\"\n".utf8), file: "/c/config.toml",
                                      environment: ["HOME": "/home/ana"])
        #expect(config.formatPatterns?.map(\.glob) == ["/home/ana/chat/*"])
        #expect(config.formatRule.format(of: "/home/ana/chat/x") == .slack)
    }

    @Test func withoutPatternsOrFormatEverythingIsGitHub() throws {
        let rule = try parse("implicit = 2").formatRule
        #expect(rule.format(of: "notes.txt") == .github)
        #expect(rule.format(of: nil) == .github)
    }

    @Test func anUnknownOrOutputOnlyFormatNamesTheKeyAndLine() throws {
        for name in ["nope", "matrix"] {
            let error = try #require(throws: ConfigError.self) {
                try parse("implicit = 2\n[formats]\n\"*.x\" = \"\(name)\"\n")
            }
            #expect(error.line == 3)
            #expect(error.description.contains("\"*.x\" in [formats] must be one of atpad, github"), "\(error)")
        }
    }

    @Test func formatsMustBeATable() throws {
        let error = try #require(throws: ConfigError.self) { try parse("formats = \"slack\"") }
        #expect(error.line == 1)
        #expect(error.description.contains("\"formats\" must be a table of file name patterns"), "\(error)")
    }

    @Test func theCommandLineKeepsTheFilesPatterns() throws {
        let file = try parse("[formats]\n\"*.s\" = \"slack\"")
        var merged = file
        let command = try #require(try AtpadMain.parseAsRoot(["-f", "zulip"]) as? EditCommand)
        try command.apply(to: &merged)
        #expect(merged.format == "zulip")
        #expect(merged.formatPatterns == file.formatPatterns)
    }

    @Test func patternsWithATildeKeepTheFilesOrderToo() throws {
        // TOMLKit hands back `~/a/*` first; the file says `~/z/*` (found by its key as
        // written, before `~` is resolved).
        let config = try Config.parse(Array("[formats]\n\"~/z/*\" = \"slack\"\n\"~/a/*\" = \"zulip\"\n".utf8),
                                      file: "/c/config.toml", environment: ["HOME": "/home/ana"])
        #expect(config.formatPatterns?.map(\.glob) == ["/home/ana/z/*", "/home/ana/a/*"])
    }
}
