@testable import AtpadApp
import Testing

/// The editor's fast command-line reader must read every command line it accepts exactly
/// as ArgumentParser does, and hand everything else to ArgumentParser.
@Suite struct EditArgumentsTests {
    /// What ArgumentParser makes of `arguments` for the default (edit) command.
    func slow(_ arguments: [String]) throws -> EditArguments {
        let command = try AtpadMain.parseAsRoot(arguments)
        return try #require(command as? EditCommand).arguments
    }

    @Test(arguments: [
        [],
        ["notes.txt"],
        ["notes.txt", "-d", "a.json", "--directory", "b.json"],
        ["-d", "a.json", "notes.txt"],
        ["--directory=a.json", "--trigger", "#=c.json", "-t", "$=d.json"],
        ["--implicit", "0", "--trim-mentions", "--theme", "mono", "--no-color", "--print"],
        ["--implicit=5", "--theme=./my theme.toml", "x"],
        ["--", "-file-with-dash"],
        ["--print", "--", "--no-color"],
        ["--clipboard", "internal", "a.md"], ["--clipboard=terminal"],
        ["--directory-command", "grep -- \"$1\" p", "--command-timeout", "2.5", "--config", "c.toml"],
        ["--directory-url=http://x.test/?q={query}", "-f", "github", "--format=slack", "a.md"],
        ["--directory-url", "http://x.test/", "--items", "", "--map", "id=login,name=name//login", "a.md"],
        ["--preset", "slack", "--items=members", "--map=id=id"],
    ])
    func fastReadingEqualsArgumentParser(_ arguments: [String]) throws {
        let fast = try #require(EditArguments.parse(arguments))
        #expect(fast == (try slow(arguments)))
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["--version"], ["search", "jo"], ["replay", "--keys", "x"], ["help"],
        ["--implicit", "many"], ["--implicit"], ["-d"], ["--unknown"], ["a.txt", "b.txt"],
        ["--print=yes"], ["-x"], ["--command-timeout", "soon"], ["-f"],
    ])
    func anythingElseGoesToArgumentParser(_ arguments: [String]) {
        #expect(EditArguments.parse(arguments) == nil)
    }
}
