import ArgumentParser
@testable import AtpadApp
import Testing

/// The editor's command line, read by ArgumentParser alone: what each option sets, and
/// what it refuses.
@Suite struct EditCommandTests {
    /// The editor's command as atpad reads it (`AtpadMain.parse`, straight into the editor),
    /// checked against ArgumentParser's root reading the same line.
    func edit(_ arguments: [String]) throws -> EditCommand {
        let command = try #require(try AtpadMain.parse(arguments) as? EditCommand)
        let root = try #require(try AtpadMain.parseAsRoot(arguments) as? EditCommand)
        var read = "", rootRead = ""
        dump(command, to: &read)
        dump(root, to: &rootRead)
        #expect(read == rootRead, "\(arguments)")
        return command
    }

    @Test func noArgumentsIsTheEditorOnANewComment() throws {
        let command = try edit([])
        #expect(command.file == nil && command.directories.directory.isEmpty && command.editing.implicit == nil)
        #expect(!command.print && !command.noColor && !command.editing.trimMentions && command.clipboard == nil)
        #expect(try edit(["edit", "notes.txt"]).file == "notes.txt")
    }

    @Test func directoriesRepeatAndMayComeBeforeFILE() throws {
        let command = try edit(["-d", "a.json", "notes.txt", "--directory", "b.json", "--trigger", "#=c.json", "-t", "$=d.json"])
        #expect(command.file == "notes.txt")
        #expect(command.directories.directory == ["a.json", "b.json"])
        #expect(command.directories.trigger == ["#=c.json", "$=d.json"])
        #expect(try edit(["--directory=a.json"]).directories.directory == ["a.json"])
    }

    @Test func everyEditorOption() throws {
        let command = try edit(["--implicit", "0", "--trim-mentions", "--theme", "mono", "--no-color", "--print",
                                "--clipboard", "internal", "-f", "github", "--config", "c.toml"])
        #expect(command.editing.implicit == 0 && command.editing.trimMentions && command.theme == "mono" && command.noColor)
        #expect(command.print && command.clipboard == .internal && command.format == "github" && command.configFile.config == "c.toml")
        #expect(try edit(["--implicit=5", "--theme=./my theme.toml", "--format=slack", "x"]).theme == "./my theme.toml")
        #expect(try edit(["--implicit=5"]).editing.implicit == 5)
        #expect(try edit(["--clipboard=terminal"]).clipboard == .terminal)
    }

    @Test func sourceOptions() throws {
        let command = try edit(["--directory-command", "grep -- \"$1\" p", "--command-timeout", "2.5",
                                "--directory-url=http://x.test/?q={query}", "--items", "", "--map", "id=login,name=name//login",
                                "--preset", "slack", "a.md"])
        #expect(command.directories.directoryCommand == "grep -- \"$1\" p")
        #expect(command.directories.commandTimeout == 2.5)
        #expect(command.directories.directoryURL == "http://x.test/?q={query}")
        #expect(command.directories.items == "" && command.directories.map == "id=login,name=name//login")
        #expect(command.directories.preset == "slack")
    }

    @Test func aDoubleDashEndsTheOptions() throws {
        #expect(try edit(["--", "-file-with-dash"]).file == "-file-with-dash")
        let command = try edit(["--print", "--", "--no-color"])
        #expect(command.print && !command.noColor && command.file == "--no-color")
        #expect(try edit(["-"]).file == "-")
    }

    @Test(arguments: [
        ["--implicit", "many"], ["--implicit"], ["-d"], ["--unknown"], ["a.txt", "b.txt"], ["--print=yes"], ["-x"],
        ["--command-timeout", "soon"], ["-f"], ["--clipboard", "osc52"],
    ])
    func mistakesAreRefused(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try AtpadMain.parseAsRoot(arguments) }
        // Refused by the root too, so the message is the root's.
        #expect(throws: (any Error).self) { try AtpadMain.parse(arguments) }
    }

    @Test(arguments: [["search", "jo"], ["replay", "--keys", "x"], ["keys"], ["drafts"], ["help"], ["help", "edit"]])
    func subcommandsAreNotTheEditor(_ arguments: [String]) throws {
        #expect(!(try AtpadMain.parseAsRoot(arguments) is EditCommand))
        #expect(!(try AtpadMain.parse(arguments) is EditCommand))
    }

    /// What the editor does not parse itself is the root's to answer: the version, help,
    /// completion scripts.
    @Test(arguments: [["--version"], ["--help"], ["--generate-completion-script", "zsh"], ["--experimental-dump-help"]])
    func theRootAnswersWhatTheEditorDoesNot(_ arguments: [String]) {
        func answer(_ parse: () throws -> any ParsableCommand) -> String {
            do {
                return "parsed as \(type(of: try parse()))"
            } catch {
                return AtpadMain.fullMessage(for: error)
            }
        }
        let root = answer { try AtpadMain.parseAsRoot(arguments) }
        #expect(root != "parsed as EditCommand")
        #expect(answer { try AtpadMain.parse(arguments) } == root)
    }

    @Test func optionsGivenWinOverTheConfig() throws {
        var config = Config()
        config.theme = "mono"
        config.implicit = 5
        config.clipboard = .internal
        try edit(["--implicit", "2", "-f", "Slack", "--no-color"]).apply(to: &config)
        #expect(config.implicit == 2 && config.format == "slack" && config.noColor == true)
        #expect(config.theme == "mono" && config.clipboard == .internal && config.trimMentions == nil)
        #expect(throws: UsageError.self) { try edit(["--implicit=-1"]).apply(to: &config) }
        #expect(throws: UsageError.self) { try edit(["-f", "md"]).apply(to: &config) }
    }
}

/// `atpad --help` (issue 22, bullet 13): the editor's usage and options first, then the
/// subcommands; the subcommands' own help is ArgumentParser's.
@Suite struct RootHelpTests {
    @Test func theEditorsOptionsComeBeforeTheSubcommands() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let help = try #require(AtpadMain.rootHelp(arguments))
            let usage = try #require(help.range(of: "USAGE: atpad [<options>] [<file>]"))
            let format = try #require(help.range(of: "-f, --format <format>"))
            let print = try #require(help.range(of: "--print"))
            let subcommands = try #require(help.range(of: "SUBCOMMANDS:"))
            #expect(usage.lowerBound < format.lowerBound && format.lowerBound < subcommands.lowerBound)
            #expect(print.lowerBound < subcommands.lowerBound)
            #expect(help.contains("<file>") && help.contains("replay") && help.contains("render"))
            #expect(!help.contains("atpad edit ["), "the editor's usage reads as atpad's")
        }
    }

    @Test func everythingElseIsArgumentParsers() {
        for arguments in [["help", "search"], ["search", "--help"], ["notes.txt", "--help"], ["--help", "x"],
                          ["--experimental-dump-help"], []] {
            #expect(AtpadMain.rootHelp(arguments) == nil)
        }
    }
}
