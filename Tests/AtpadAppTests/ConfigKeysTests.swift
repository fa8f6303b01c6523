@testable import AtpadApp
@testable import AtpadCore
@testable import AtpadDirectory
import Foundation
import Testing

/// The documented list of config keys (``ConfigKey/all``) is the decoder's: a key the
/// decoder reads without a description, or a description of a key it does not read,
/// fails here (and so cannot reach atpad.toml(5) or docs/config.md wrong).
@Suite struct ConfigKeysTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func documented(in table: String) -> [String] {
        ConfigKey.all.filter { $0.table == table }.map(\.name)
    }

    @Test func theTopLevelKeysAreTheDecoders() {
        // The decoder's tables (`terminal`, `formats`, `triggers`) are documented by their keys.
        let tables = Set(ConfigKey.all.map { $0.table.split(separator: ".").first.map(String.init) ?? "" })
        let documented = Set(documented(in: "")).union(tables.subtracting([""]))
        #expect(documented == Set(Config.CodingKeys.allCases.map(\.stringValue)))
    }

    @Test func theTerminalKeysAreTheDecoders() {
        #expect(Set(documented(in: "terminal")) == Set(Config.TerminalKeys.allCases.map(\.stringValue)))
    }

    @Test func theGitKeysAreTheDecoders() {
        #expect(Set(documented(in: "git")) == Set(Config.GitKeys.allCases.map(\.stringValue)))
    }

    @Test func thePostKeysAreTheDecoders() {
        #expect(Set(documented(in: "post")) == Set(Config.PostKeys.allCases.map(\.stringValue)))
    }

    @Test func theTriggerKeysAreTheDecoders() {
        #expect(Set(documented(in: ConfigKey.triggerTable))
            == Set(Config.TriggerSources.Decoded.CodingKeys.allCases.map(\.stringValue)))
    }

    @Test func everyKeyIsDescribedOnce() {
        #expect(Set(ConfigKey.all.map(\.dotted)).count == ConfigKey.all.count)
        for key in ConfigKey.all {
            #expect(!key.value.isEmpty && !key.summary.isEmpty, "\(key.dotted)")
        }
    }

    /// The shipped example names every key (commented out or not), as its header promises.
    @Test func theShippedExampleNamesEveryKey() throws {
        let example = try String(contentsOf: Self.root.appendingPathComponent("Resources/config.example.toml"), encoding: .utf8)
        for key in ConfigKey.all where key.table != "formats" {
            #expect(example.contains(key.name), "\(key.dotted)")
        }
        #expect(example.contains("[formats]") && example.contains("[terminal]"))
    }

    /// docs/config.md holds the table `atpad keys --config-keys` prints: regenerate it there
    /// when a key changes.
    @Test func theDocsHoldTheTable() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let heading = try #require(text.range(of: "## Every key\n"))
        let table = text[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") + "\n" == ConfigKey.markdown)
    }

    /// A default is declared once, beside what uses it (`EditorConfig`, `SourceDefaults`,
    /// `PostPreparation`); the table of keys, the options' `--help` (and so atpad(1), made
    /// from it) and the values used when nothing is set all read it there.
    @Test func theHelpTheTableAndTheSettingsShowTheSameDefaults() throws {
        func key(_ dotted: String) throws -> ConfigKey { try #require(ConfigKey.all.first { $0.dotted == dotted }) }
        let edit = EditCommand.helpMessage(columns: 10_000), search = SearchCommand.helpMessage(columns: 10_000)
        #expect(try key("implicit").defaultValue == "3")
        #expect(edit.contains("(0 = off; default \(try key("implicit").defaultValue))"))
        #expect(edit.contains("answer (default \(try key("command_timeout").defaultValue))"))
        #expect(search.contains("(default \(try key("limit").defaultValue), or the config's limit)"))
        #expect(try key("command_timeout").summary.contains("a post waits \(SourceDefaults.seconds(PostPreparation.defaultTimeout)) when unset"))
        #expect(edit.contains("the post's timeout (default \(SourceDefaults.seconds(PostPreparation.defaultTimeout))"))

        let settings = Settings(config: Config(), commandLine: Config(), file: nil)
        #expect("\(settings.limit)" == (try key("limit").defaultValue))
        #expect(SourceDefaults.seconds(settings.commandTimeout) == (try key("command_timeout").defaultValue))
        let editor = EditorConfig()
        #expect("\(editor.implicitThreshold)" == (try key("implicit").defaultValue))
        #expect("\(editor.chooserRows)" == (try key("chooser_rows").defaultValue))
        let request = URLSource.Request()
        #expect(request.method == (try key("triggers.\"CHAR\".method").defaultValue))
        #expect("\(request.maxPages)" == (try key("triggers.\"CHAR\".max_pages").defaultValue))
        #expect(request.cursorParam == (try key("triggers.\"CHAR\".cursor_param").defaultValue))
        #expect("\(SourceDefaults.listLimit)" == (try key("triggers.\"CHAR\".list_limit").defaultValue))
    }
}
