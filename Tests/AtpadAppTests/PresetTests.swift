import AtpadDirectory
import Foundation
import Testing
@testable import AtpadApp

/// Presets as settings (docs/directories.md, "Presets"), and how a trigger's own keys and
/// the environment meet them.
@Suite struct PresetTests {
    @Test func slackListsPeopleForAtAndChannelsForHashCached() throws {
        let env = ["SLACK_TOKEN": "xoxb-1"]
        let people = try #require(try Preset.slack.settings(for: "@", environment: env))
        #expect(people.url == "https://slack.com/api/users.list?limit=200")
        #expect(people.items == "members")
        #expect(people.exclude == ["deleted", "is_bot"])
        #expect(people.next == "response_metadata.next_cursor")
        #expect(people.cache == .seconds(3600))
        // The token stays a ${NAME} until the source is set up.
        #expect(people.headers == ["Authorization": "Bearer ${SLACK_TOKEN}"])
        let channels = try #require(try Preset.slack.settings(for: "#", environment: env))
        #expect(channels.url?.contains("conversations.list") == true)
        #expect(Preset.slack.triggers == ["@", "#"])
    }

    /// github and gitlab keep their whole list (docs/people.md; a command of its own that pages
    /// through everything), refreshed hourly, per query past 20,000 people.
    @Test func githubAndGitlabAreCachedListsWithAPerQueryFallback() throws {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-preset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        for tool in ["gh", "glab"] {
            FileManager.default.createFile(atPath: bin.appendingPathComponent(tool).path, contents: Data(), attributes: [.posixPermissions: 0o755])
        }
        for preset in [Preset.github, .gitlab] {
            let settings = try #require(try preset.settings(for: "@", environment: ["PATH": bin.path]))
            #expect(settings.cache == .seconds(3600))
            #expect(settings.listLimit == 20_000)
            #expect(settings.listCommand?.contains(preset == .github ? "--paginate" : "page=\"$page\"") == true)
            #expect(settings.command?.contains("$1") == true)
        }
        // A person's own command replaces the preset's list command too.
        var own = Config.TriggerSources(command: "my-people \"$1\"")
        own.preset = "github"
        let preset = try #require(try Preset.github.settings(for: "@", environment: ["PATH": bin.path]))
        #expect(DirectorySetup.merge(own, over: preset).listCommand == nil)
    }

    @Test func missingVariablesAreNamedTogether() {
        #expect(throws: Preset.Missing(message: "the jira preset needs JIRA_USER, JIRA_TOKEN, which are not set")) {
            try Preset.jira.settings(for: "@", environment: ["JIRA_URL": "https://x.test"])
        }
        #expect(throws: Preset.Missing(message: "the github preset needs gh (the GitHub CLI), which is not on PATH")) {
            try Preset.github.settings(for: "@", environment: ["PATH": "/nonexistent"])
        }
    }

    @Test func jiraSendsBasicAuthOfUserAndToken() throws {
        let settings = try #require(try Preset.jira.settings(
            for: "@", environment: ["JIRA_URL": "https://acme.atlassian.net/", "JIRA_USER": "me@acme.com", "JIRA_TOKEN": "t"]))
        #expect(settings.url == "https://acme.atlassian.net/rest/api/3/user/picker?query={query}&maxResults=50")
        #expect(settings.headers == ["Authorization": "Basic " + Data("me@acme.com:t".utf8).base64EncodedString()])
    }

    @Test func theTriggersOwnKeysWinOverThePresets() throws {
        let preset = try #require(try Preset.slack.settings(for: "@", environment: ["SLACK_TOKEN": "x"]))
        var own = Config.TriggerSources()
        own.preset = "slack"
        own.cache = .seconds(600)
        own.map = ["id": "id", "name": "name"]
        let merged = DirectorySetup.merge(own, over: preset)
        #expect(merged.cache == .seconds(600))
        #expect(merged.map == ["id": "id", "name": "name"])
        #expect(merged.url == preset.url)
        #expect(merged.exclude == preset.exclude)
    }

    @Test func headerVariablesComeFromTheEnvironmentAndAMissingOneIsNamedNotShown() throws {
        #expect(try DirectorySetup.resolve("Bearer ${A}-${B}", header: "Authorization", ["A": "1", "B": "2"]) == "Bearer 1-2")
        #expect(try DirectorySetup.resolve("plain", header: "X", [:]) == "plain")
        do {
            _ = try DirectorySetup.resolve("Bearer ${A} ${MISSING}", header: "Authorization", ["A": "secret-a"])
            Issue.record("no error")
        } catch let failure as DirectorySetup.SetupFailure {
            #expect(failure.message == "header Authorization needs the environment variable MISSING, which is not set")
        }
    }

    @Test func theCacheFolderFollowsXDG() {
        #expect(DirectorySetup.cacheFolder(["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/atpad")
        #expect(DirectorySetup.cacheFolder(["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/atpad")
        #expect(DirectorySetup.cacheFolder([:]) == nil)
    }

    @Test func agesReadUnits() {
        #expect(ConfigReader.age("45s") == .seconds(45))
        #expect(ConfigReader.age("30m") == .seconds(1800))
        #expect(ConfigReader.age("1.5h") == .seconds(5400))
        #expect(ConfigReader.age("2d") == .seconds(172_800))
        #expect(ConfigReader.age("soon") == nil)
        #expect(ConfigReader.age("-1h") == nil)
    }
}
