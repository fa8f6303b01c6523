@testable import AtpadApp
import AtpadCore
import Foundation
import Testing

/// The config file (docs/config.md): where it is found, what each key sets, and the one-line
/// errors naming the file, line and key.
@Suite struct ConfigTests {
    static let file = "/home/ana/.config/atpad/config.toml"
    static let environment = ["HOME": "/home/ana"]

    func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(Array(text.utf8), file: ConfigTests.file, environment: ConfigTests.environment)
    }

    /// The error parsing `text` throws; fails the test when it parses.
    func failure(_ text: String) throws -> ConfigError {
        try #require(throws: ConfigError.self) { try parse(text) }
    }

    func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atpad-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    // MARK: - Reading every key

    @Test func everyKeyIsRead() throws {
        let config = try parse("""
            implicit = 0
            trim_mentions = true
            format = "github"
            theme = "mono"
            no_color = true
            chooser_rows = 12
            limit = 20
            command_timeout = 2.5

            [triggers."@"]
            directory = "/srv/people.json"
            command = "people \\"$1\\""

            [triggers."#"]
            directory = ["/srv/channels.json", "/srv/more.ndjson"]
            url = "https://chat.example.com/channels?q={query}"

            [triggers.":"]
            command = "emoji"
            """)
        var expected = Config()
        expected.implicit = 0
        expected.trimMentions = true
        expected.format = "github"
        expected.theme = "mono"
        expected.noColor = true
        expected.chooserRows = 12
        expected.limit = 20
        expected.commandTimeout = .milliseconds(2500)
        expected.triggers = [
            "@": .init(files: ["/srv/people.json"], command: "people \"$1\""),
            "#": .init(files: ["/srv/channels.json", "/srv/more.ndjson"], url: "https://chat.example.com/channels?q={query}"),
            ":": .init(command: "emoji"),
        ]
        #expect(config == expected)
    }

    @Test func anIntegerTimeoutIsSeconds() throws {
        #expect(try parse("command_timeout = 7").commandTimeout == .seconds(7))
    }

    @Test func clipboardIsTerminalOrInternal() throws {
        #expect(try parse("clipboard = \"internal\"").clipboard == .internal)
        #expect(try parse("clipboard = \"terminal\"").clipboard == .terminal)
    }

    @Test func terminalGraphemesIsAutoWholeOrFirst() throws {
        #expect(try parse("").graphemes == nil)
        for graphemes in ["auto", "whole", "first"] {
            #expect(try parse("[terminal]\ngraphemes = \"\(graphemes)\"").graphemes?.rawValue == graphemes)
        }
    }

    @Test func formatNamesFoldCase() throws {
        #expect(try parse("format = \"Slack\"").format == "slack")
    }

    @Test func everyTriggerCharacterMayHaveATable() throws {
        let text = ["@", "#", "$", "%", "+", "~", ":"].map { "[triggers.\"\($0)\"]\ncommand = \"c\"\n" }.joined()
        #expect(try parse(text).triggers.keys.sorted { $0.value < $1.value } == ["#", "$", "%", "+", ":", "@", "~"])
    }

    @Test func inlineTablesAndDottedKeysReadTheSame() throws {
        let headers = try parse("[triggers.\"@\"]\ndirectory = \"/a.json\"\n")
        #expect(try parse("triggers = { \"@\" = { directory = \"/a.json\" } }") == headers)
        #expect(try parse("triggers.\"@\".directory = \"/a.json\"") == headers)
        #expect(try parse("[triggers]\n\"@\" = { directory = \"/a.json\" }") == headers)
    }

    // MARK: - Absent things

    @Test func anEmptyFileSetsNothing() throws {
        #expect(try parse("") == Config())
        #expect(try parse("# only a comment\n\n") == Config())
    }

    @Test func noConfigFileIsNoConfig() throws {
        let home = try folder()
        let (config, path, _) = try Config.load(path: nil, environment: ["HOME": home])
        #expect(config == Config())
        #expect(path == nil)
    }

    @Test func noHomeIsNoConfig() throws {
        #expect(Config.defaultPath(environment: [:]) == nil)
        let (config, path, _) = try Config.load(path: nil, environment: [:])
        #expect(config == Config() && path == nil)
    }

    // MARK: - Where the file is

    @Test func xdgConfigHomeComesFirst() {
        let environment = ["XDG_CONFIG_HOME": "/x/conf/", "HOME": "/home/ana"]
        #expect(Config.defaultPath(environment: environment) == "/x/conf/atpad/config.toml")
    }

    @Test(arguments: [nil, "", "relative/conf"] as [String?])
    func homeIsTheFallback(xdg: String?) {
        var environment = ["HOME": "/home/ana"]
        environment["XDG_CONFIG_HOME"] = xdg
        #expect(Config.defaultPath(environment: environment) == "/home/ana/.config/atpad/config.toml")
    }

    @Test func theDefaultFileIsReadFromXDGConfigHome() throws {
        let xdg = try folder()
        let home = try folder()
        try write("implicit = 5\n", to: xdg + "/atpad/config.toml")
        try write("implicit = 9\n", to: home + "/.config/atpad/config.toml")
        let (config, path, _) = try Config.load(path: nil, environment: ["XDG_CONFIG_HOME": xdg, "HOME": home])
        #expect(config.implicit == 5)
        #expect(path == xdg + "/atpad/config.toml")
    }

    @Test func theDefaultFileIsReadFromHome() throws {
        let home = try folder()
        try write("limit = 9\n", to: home + "/.config/atpad/config.toml")
        let (config, path, _) = try Config.load(path: nil, environment: ["HOME": home])
        #expect(config.limit == 9)
        #expect(path == home + "/.config/atpad/config.toml")
    }

    @Test func aNamedFileIsReadInsteadOfTheDefault() throws {
        let home = try folder()
        try write("limit = 9\n", to: home + "/.config/atpad/config.toml")
        let other = home + "/other.toml"
        try write("limit = 3\n", to: other)
        let (config, path, _) = try Config.load(path: other, environment: ["HOME": home])
        #expect(config.limit == 3)
        #expect(path == other)
    }

    @Test func aMissingNamedFileIsAnError() throws {
        let path = try folder() + "/none.toml"
        let error = #expect(throws: ConfigError.self) { try Config.load(path: path, environment: [:]) }
        #expect(error?.description == "\(path): no such config file")
    }

    @Test func aFolderIsNotAConfigFile() throws {
        let path = try folder()
        let error = #expect(throws: ConfigError.self) { try Config.load(path: path, environment: [:]) }
        #expect(error?.description == "\(path): is a folder, not a config file")
    }

    @Test func aDefaultPathThatIsAFolderIsAnError() throws {
        // Someone has something there: saying nothing would hide their settings.
        let xdg = try folder()
        try FileManager.default.createDirectory(atPath: xdg + "/atpad/config.toml", withIntermediateDirectories: true)
        #expect(throws: ConfigError.self) { try Config.load(path: nil, environment: ["XDG_CONFIG_HOME": xdg]) }
    }

    @Test func anErrorInTheFileNamesItsPath() throws {
        let path = try folder() + "/bad.toml"
        try write("\n\nimplict = 3\n", to: path)
        let error = #expect(throws: ConfigError.self) { try Config.load(path: path, environment: [:]) }
        #expect(error?.description == "\(path):3: unknown key \"implict\" (did you mean \"implicit\"?)")
    }

    // MARK: - Syntax and text

    @Test func aSyntaxErrorNamesItsLine() throws {
        let error = try failure("implicit = 3\n# fine\nlimit = = 4\n")
        #expect(error.line == 3)
        // And its column, as a theme's syntax error does: `file:line:column: syntax error: …`.
        let column = try #require(error.column)
        #expect(error.description.hasPrefix("\(ConfigTests.file):3:\(column): syntax error: "))
        #expect(!error.description.contains("\n"))
    }

    @Test func aDuplicateKeyIsASyntaxError() throws {
        let error = try failure("limit = 3\nlimit = 4\n")
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("syntax error: "))
    }

    @Test func invalidUTF8NamesItsLine() throws {
        let bytes = Array("limit = 3\ntheme = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let error = #expect(throws: ConfigError.self) {
            try Config.parse(bytes, file: "c.toml", environment: [:])
        }
        #expect(error?.description == "c.toml:2: not valid UTF-8 text")
    }

    @Test func aNULByteIsASyntaxError() throws {
        let bytes = Array("limit = 3\n\nlimit = 4".utf8) + [0] + Array("\n".utf8)
        let error = #expect(throws: ConfigError.self) {
            try Config.parse(bytes, file: "c.toml", environment: [:])
        }
        #expect(error?.description == "c.toml:3: syntax error: a NUL character")
    }

    // MARK: - Unknown keys

    @Test func anUnknownTopLevelKeyNamesItsLine() throws {
        let error = try failure("# settings\nimplicit = 2\nimplict = 3\n")
        #expect(error.description == "\(ConfigTests.file):3: unknown key \"implict\" (did you mean \"implicit\"?)")
        #expect(error.key == "implict")
    }

    @Test func anUnknownKeyFarFromAnyHasNoSuggestion() throws {
        #expect(try failure("colour_scheme = 1").message == "unknown key \"colour_scheme\"")
    }

    @Test func anOptionSpeltKeyGetsTheKeyName() throws {
        #expect(try failure("trim-mentions = true").message == "unknown key \"trim-mentions\" (did you mean \"trim_mentions\"?)")
    }

    @Test func anUnknownKeyInATriggerTableNamesItsLine() throws {
        let error = try failure("""
            limit = 3

            [triggers."@"]
            directory = "/a.json"
            dir = "/b.json"
            """)
        #expect(error.line == 5)
        #expect(error.message == "unknown key \"dir\" in [triggers.\"@\"] (a trigger has directory, command, url or preset)")
        #expect(error.key == "triggers.\"@\".dir")
    }

    @Test func anUnknownKeyNearATriggerKeyIsSuggested() throws {
        let error = try failure("[triggers.\"#\"]\ncommnd = \"x\"\n")
        #expect(error.description == "\(ConfigTests.file):2: unknown key \"commnd\" in [triggers.\"#\"] (did you mean \"command\"?)")
    }

    @Test func theFirstProblemInTheFileIsTheOneReported() throws {
        // TOMLKit lists keys in its own order; the message follows the file's.
        let error = try failure("zzz = 1\nimplicit = -1\naaa = 2\n")
        #expect(error.line == 1)
        #expect(error.message.contains("\"zzz\""))
    }

    // MARK: - Wrong types

    /// A wrong value on line 3 of a file: (key = value, the message expected).
    static let wrongTypes: [(String, String)] = [
        ("implicit = \"3\"", "\"implicit\" must be an integer of 0 or more (found \"3\")"),
        ("implicit = 3.0", "\"implicit\" must be an integer of 0 or more (found 3.0)"),
        ("trim_mentions = \"yes\"", "\"trim_mentions\" must be true or false (found \"yes\")"),
        ("trim_mentions = 1", "\"trim_mentions\" must be true or false (found 1)"),
        ("no_color = []", "\"no_color\" must be true or false (found an empty array)"),
        ("format = 1", "\"format\" must be one of atpad, github, gitlab, mattermost, slack, discord, jira, zulip, matrix, adf, markdown, plain, text, json (found 1)"),
        ("theme = true", "\"theme\" must be a theme name or the path of a theme file (found true)"),
        ("clipboard = \"osc52\"", "\"clipboard\" must be \"terminal\" or \"internal\" (found \"osc52\")"),
        ("chooser_rows = \"8\"", "\"chooser_rows\" must be an integer from 1 to 50 (found \"8\")"),
        ("limit = 1979-05-27", "\"limit\" must be an integer of 1 or more (found a date)"),
        ("command_timeout = \"5s\"", "\"command_timeout\" must be a number of seconds greater than 0 (found \"5s\")"),
        ("terminal.graphemes = \"all\"", "\"graphemes\" in [terminal] must be one of auto, whole, first (found \"all\")"),
        ("terminal = \"whole\"", "\"terminal\" must be a table, such as [terminal] (found \"whole\")"),
        ("triggers = \"@\"", "\"triggers\" must be a table of triggers, such as [triggers.\"@\"] (found \"@\")"),
        ("triggers.\"@\" = \"people.json\"",
         "\"@\" in [triggers] must be a table with directory, command or url (found \"people.json\")"),
        ("triggers.\"@\".directory = 3",
         "\"directory\" in [triggers.\"@\"] must be a file path or an array of file paths (found 3)"),
        ("triggers.\"@\".directory = [\"a.json\", 3]",
         "\"directory\" in [triggers.\"@\"] must be a file path or an array of file paths (found 3 in the array)"),
        ("triggers.\"@\".command = [\"ls\"]", "\"command\" in [triggers.\"@\"] must be a command line for sh -c (found an array)"),
        ("triggers.\"@\".url = { host = \"x\" }",
         "\"url\" in [triggers.\"@\"] must be an http:// or https:// URL (found a table)"),
    ]

    @Test(arguments: ConfigTests.wrongTypes)
    func aWrongTypeNamesTheKeyAndItsLine(setting: String, message: String) throws {
        let error = try failure("# atpad\n\n\(setting)\n")
        #expect(error.description == "\(ConfigTests.file):3: \(message)")
    }

    @Test func aWrongTypeInsideATriggerTableNamesItsLine() throws {
        let error = try failure("""
            [triggers."@"]
            command = "people"

            [triggers."#"]
            directory = "channels.json"
            url = 42
            """)
        #expect(error.line == 6)
        #expect(error.key == "triggers.\"#\".url")
    }

    // MARK: - Out of range

    static let outOfRange: [(String, String)] = [
        ("implicit = -1", "\"implicit\" must be an integer of 0 or more (found -1)"),
        ("chooser_rows = 0", "\"chooser_rows\" must be an integer from 1 to 50 (found 0)"),
        ("chooser_rows = 51", "\"chooser_rows\" must be an integer from 1 to 50 (found 51)"),
        ("limit = 0", "\"limit\" must be an integer of 1 or more (found 0)"),
        ("command_timeout = 0", "\"command_timeout\" must be a number of seconds greater than 0 (found 0)"),
        ("command_timeout = -0.5", "\"command_timeout\" must be a number of seconds greater than 0 (found -0.5)"),
        ("command_timeout = inf", "\"command_timeout\" must be a number of seconds greater than 0 (found inf)"),
        ("command_timeout = nan", "\"command_timeout\" must be a number of seconds greater than 0 (found nan)"),
        ("format = \"md\"", "\"format\" must be one of atpad, github, gitlab, mattermost, slack, discord, jira, zulip, matrix, adf, markdown, plain, text, json (found \"md\")"),
        ("theme = \"\"", "\"theme\" must be a theme name or the path of a theme file (found \"\")"),
        ("triggers.\"@\".directory = \"\"",
         "\"directory\" in [triggers.\"@\"] must be a file path or an array of file paths (found \"\")"),
        ("triggers.\"@\".directory = []",
         "\"directory\" in [triggers.\"@\"] must be a file path or an array of file paths (found an empty array)"),
        ("triggers.\"@\".command = \"\"", "\"command\" in [triggers.\"@\"] must be a command line for sh -c (found \"\")"),
        // A URL need not hold {query}; an age must be one (docs/directories.md).
        ("triggers.\"@\".cache = \"soon\"",
         "\"cache\" in [triggers.\"@\"] must be an age such as \"30m\", \"1h\" or \"2d\" (found \"soon\")"),
        ("triggers.\"@\".preset = \"teams\"",
         "\"preset\" in [triggers.\"@\"] must be one of github, gitlab, slack, jira, ldap (found \"teams\")"),
        ("triggers.\"@\".url = \"ftp://x.example/{query}\"",
         "\"url\" in [triggers.\"@\"] must be an http:// or https:// URL (found \"ftp://x.example/{query}\")"),
    ]

    @Test(arguments: ConfigTests.outOfRange)
    func anOutOfRangeValueNamesTheKeyAndItsLine(setting: String, message: String) throws {
        let error = try failure("# atpad\n\n\(setting)\n")
        #expect(error.description == "\(ConfigTests.file):3: \(message)")
    }

    @Test func theEdgesOfTheRangesAreAccepted() throws {
        let low = try parse("implicit = 0\nchooser_rows = 1\nlimit = 1\ncommand_timeout = 0.001")
        #expect(low.implicit == 0 && low.chooserRows == 1 && low.limit == 1 && low.commandTimeout == .milliseconds(1))
        #expect(try parse("chooser_rows = 50").chooserRows == 50)
    }

    // MARK: - Triggers

    @Test(arguments: ["x", "@@", "＠", "!", ""])
    func aTriggerOutsideTheSetIsAnError(trigger: String) throws {
        let error = try failure("limit = 3\n\n[triggers.\"\(trigger)\"]\ncommand = \"c\"\n")
        #expect(error.line == 3)
        #expect(error.message == "unknown trigger \"\(trigger)\" in [triggers] (a trigger is one of @ # $ % + ~ :)")
    }

    @Test func aBareTriggerKeyIsNamedAsWritten() throws {
        let error = try failure("[triggers.at]\ncommand = \"c\"\n")
        #expect(error.description == "\(ConfigTests.file):1: unknown trigger \"at\" in [triggers] (a trigger is one of @ # $ % + ~ :)")
    }

    @Test func aTriggerTableWithNoSourceIsAnError() throws {
        let error = try failure("limit = 3\n[triggers.\"#\"]\n")
        #expect(error.description == "\(ConfigTests.file):2: [triggers.\"#\"] sets no directory, command, url or preset")
    }

    @Test func aTriggerWithBothCommandAndURLIsAnError() throws {
        let error = try failure("""
            [triggers."@"]
            command = "people"
            url = "http://x.example/?q={query}"
            """)
        #expect(error.description == "\(ConfigTests.file):3: [triggers.\"@\"] has both a command and a url; a trigger asks one of them")
    }

    // MARK: - Paths

    @Test func pathsExpandTildeAndStartAtTheConfigFolder() throws {
        let config = try parse("""
            theme = "themes/mine.toml"
            [triggers."@"]
            directory = ["~/people.json", "~", "team.csv", "../shared/all.ndjson", "/srv/abs.json", "~bob/x.json"]
            """)
        #expect(config.triggers["@"]?.files == [
            "/home/ana/people.json", "/home/ana", "/home/ana/.config/atpad/team.csv",
            "/home/ana/.config/atpad/../shared/all.ndjson", "/srv/abs.json", "~bob/x.json",
        ])
        #expect(config.theme == "/home/ana/.config/atpad/themes/mine.toml")
    }

    @Test func aThemeNameStaysAName() throws {
        #expect(try parse("theme = \"mono\"").theme == "mono")
        #expect(try parse("theme = \"~/t/dark.toml\"").theme == "/home/ana/t/dark.toml")
        #expect(try parse("theme = \"dark.toml\"").theme == "/home/ana/.config/atpad/dark.toml")
    }

    @Test func withoutAHomeTildeIsLeftAsWritten() throws {
        let config = try Config.parse(Array("triggers.\"@\".directory = \"~/p.json\"".utf8), file: "/etc/atpad.toml", environment: [:])
        #expect(config.triggers["@"]?.files == ["~/p.json"])
    }

    @Test func aRelativeConfigPathIsTakenFromTheCurrentFolder() throws {
        let config = try Config.parse(Array("triggers.\"@\".directory = \"p.json\"".utf8), file: "conf/atpad.toml", environment: [:])
        let here = FileManager.default.currentDirectoryPath
        #expect(config.triggers["@"]?.files == [here + "/conf/p.json"])
    }

    @Test func relativePathsInALoadedFileStartAtItsFolder() throws {
        let dir = try folder()
        try write("[triggers.\"#\"]\ndirectory = \"channels.json\"\n", to: dir + "/sub/atpad.toml")
        let (config, _, _) = try Config.load(path: dir + "/sub/atpad.toml", environment: [:])
        #expect(config.triggers["#"]?.files == [dir + "/sub/channels.json"])
    }

    // MARK: - The example file

    static let exampleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/config.example.toml")

    /// The example as people copy it: it parses, its top-level values are the defaults
    /// its comments say, and its [triggers] examples are commented out (they need files,
    /// commands and tokens that may not exist), so it sets no directory.
    @Test func theExampleFileParsesAsItIsAndSetsTheDefaults() throws {
        let (config, path, _) = try Config.load(path: ConfigTests.exampleURL.path, environment: ["HOME": "/home/ana"])
        #expect(path == ConfigTests.exampleURL.path)
        #expect(config.implicit == 3)
        #expect(config.trimMentions == false)
        #expect(config.format == "github")
        #expect(config.formatPatterns == [FormatRule.Pattern(glob: "*.slack", format: .slack)])
        #expect(config.theme == "default")
        #expect(config.noColor == false)
        #expect(config.chooserRows == 8)
        #expect(config.limit == 50)
        #expect(config.commandTimeout == .seconds(5))
        #expect(config.graphemes == .auto)
        #expect(config.triggers.isEmpty)
    }

    /// The example's commented-out [triggers] tables, uncommented, parse and set what they
    /// say.
    @Test func theExamplesTriggerTablesUncommentedSetWhatTheySay() throws {
        let text = try String(contentsOf: ConfigTests.exampleURL, encoding: .utf8)
        let start = try #require(text.range(of: "\n# [triggers.\"@\"]\n"))
        let tables = text[start.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("# ") ? String(line.dropFirst(2)) : String(line)
        }
        let dir = try folder()
        try write(text[..<start.lowerBound] + tables.joined(separator: "\n"), to: dir + "/config.toml")

        var channels = Config.TriggerSources(url: "https://chat.example.com/api/channels")
        channels.method = "POST"
        channels.body = #"{"query": "{query}", "limit": 50}"#
        channels.headers = ["Authorization": "Bearer ${CHAT_TOKEN}"]
        channels.items = "result.channels"
        channels.map = ["id": "channel_id", "name": "title", "detail": "{members} members"]
        channels.exclude = ["archived"]
        channels.next = "result.next_cursor"
        channels.cursorParam = "cursor"
        channels.maxPages = 3
        channels.cache = .seconds(3600)
        channels.listLimit = 20000
        var jira = Config.TriggerSources()
        jira.preset = "jira"
        let (config, _, _) = try Config.load(path: dir + "/config.toml", environment: ["HOME": "/home/ana"])
        #expect(config.implicit == 3 && config.limit == 50)
        #expect(config.triggers == [
            "@": .init(files: ["/home/ana/.config/atpad/people.json", dir + "/contractors.csv"],
                       command: "my-people-search \"$1\""),
            "#": channels,
            "+": jira,
        ])
    }

    /// Every key is in the example, set or (a [triggers] key) in a commented-out example.
    @Test func theExampleFileDocumentsEveryKey() throws {
        let text = try String(contentsOf: ConfigTests.exampleURL, encoding: .utf8)
        func isSet(_ key: String) -> Bool { text.contains("\n\(key) = ") || text.contains("\n# \(key) = ") }
        for key in Config.CodingKeys.allCases.map(\.stringValue) where !["triggers", "terminal", "formats", "post", "git"].contains(key) {
            // `spell`'s default comes from LANG, so the example shows it commented out:
            // set, it would replace LANG's language for whoever copies the file.
            #expect(text.contains("\n\(key) = ") || (key == "spell" && isSet(key)), "\(key) is not set in the example")
        }
        #expect(text.contains("\n[formats]\n"))
        #expect(text.contains("\n# [post]\n"))
        #expect(text.contains("\n# [git]\n# person_trailers = "))
        for key in Config.PostKeys.allCases.map(\.stringValue) {
            #expect(text.contains(key), "\(key) is not described in the example")
        }
        #expect(text.contains("\n# [triggers.\"@\"]\n"))
        for key in Config.TriggerSources.Decoded.CodingKeys.allCases.map(\.stringValue) {
            #expect(text.contains("\n#   \(key) "), "\(key) is not described in the example")
            #expect(isSet(key), "\(key) is not in an example")
        }
    }

    // MARK: - Precedence

    /// The settings of `arguments` (the editor's command line) over the config `text`.
    func settings(_ text: String, _ arguments: [String]) throws -> Settings {
        let path = try folder() + "/config.toml"
        try write(text, to: path)
        let command = try #require(try AtpadMain.parseAsRoot(arguments + ["--config", path]) as? EditCommand)
        return try command.configFile.settings(environment: [:], commandLine: command.apply)
    }

    @Test func theCommandLineOverridesTheFile() throws {
        let file = """
            implicit = 5
            trim_mentions = true
            format = "slack"
            theme = "mono"
            limit = 10
            [triggers."@"]
            directory = "/team.json"
            command = "people"
            [triggers."#"]
            directory = "/channels.json"
            """
        let merged = try settings(file, ["--implicit", "0", "-f", "GitHub", "--command-timeout", "1", "-d", "/other.json"]).config
        #expect(merged.implicit == 0)
        #expect(merged.format == "github")
        #expect(merged.commandTimeout == .seconds(1))
        // What the command line leaves unset comes from the file.
        #expect(merged.trimMentions == true)
        #expect(merged.theme == "mono")
        #expect(merged.limit == 10)
        #expect(merged.chooserRows == nil)
        // A trigger the command line names reads only what it says; the others keep the file's.
        #expect(merged.triggers["@"] == .init(files: ["/other.json"]))
        #expect(merged.triggers["#"] == .init(files: ["/channels.json"]))
    }

    @Test func noOptionsLeaveTheFileAsItIs() throws {
        let text = "implicit = 5\nclipboard = \"internal\"\n[triggers.\"@\"]\ncommand = \"people\"\n"
        #expect(try settings(text, []).config == (try parse(text)))
        #expect(try settings(text, []).commandLine == Config())
    }

    /// A value found wrong when it is used is the config's when the config gave it, the
    /// option's when the command line did.
    @Test func aLateProblemNamesWhereTheValueCameFrom() throws {
        let fromFile = try settings("limit = 3\n\ntheme = \"nope\"\n", [])
        let problem = fromFile.problem(\.theme, option: "--theme", key: "theme", "no theme named \"nope\"")
        #expect(problem.message.hasSuffix("config.toml:3: \"theme\": no theme named \"nope\""))
        let fromOption = try settings("theme = \"mono\"\n", ["--theme", "nope"])
        #expect(fromOption.problem(\.theme, option: "--theme", key: "theme", "no theme named \"nope\"").message
            == "--theme: no theme named \"nope\"")
    }

    @Test func theCommandLinesMistakesComeBeforeTheFiles() throws {
        let error = #expect(throws: UsageError.self) { try settings("implict = 1\n", ["--implicit=-1"]) }
        #expect(error?.message == "--implicit must be 0 or more")
    }

    // MARK: - The [terminal] table

    @Test func graphemesIsOneOfThreeWays() throws {
        #expect(try parse("[terminal]\ngraphemes = \"whole\"\n").graphemes == .whole)
        #expect(try failure("[terminal]\ngraphemes = \"all\"\n").description
            == "\(ConfigTests.file):2: \"graphemes\" in [terminal] must be one of auto, whole, first (found \"all\")")
        #expect(try failure("[terminal]\ngrapheme = \"whole\"\n").message
            == "unknown key \"grapheme\" in [terminal] (did you mean \"graphemes\"?)")
    }
}
