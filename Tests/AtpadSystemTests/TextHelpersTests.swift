import Testing
@testable import AtpadSystem

/// A path's parts as text, and `~` standing for the home folder: the answers Foundation's
/// `NSString` path methods gave.
@Suite struct SystemTextHelpersTests {
    @Test(arguments: [
        ("a/b/c", "a/b", "c"), ("/a", "/", "a"), ("c", "", "c"), ("a/b/", "a", "b"), ("/", "/", "/"),
        ("/tmp//x.md", "/tmp", "x.md"), ("./x", ".", "x"), ("", "", ""),
    ])
    func pathParts(path: String, folder: String, name: String) {
        #expect(PathName.folder(of: path) == folder)
        #expect(PathName.name(of: path) == name)
    }

    @Test func tildeStandsForHome() {
        #expect(PathName.expandingTilde("~/t.toml", home: "/home/me") == "/home/me/t.toml")
        #expect(PathName.expandingTilde("~", home: "/home/me") == "/home/me")
        #expect(PathName.expandingTilde("~x/t.toml", home: "/home/me") == "~x/t.toml")
        #expect(PathName.expandingTilde("~/t.toml", home: nil) == "~/t.toml")
    }

    @Test func trimmedDropsWhitespaceAtBothEnds() {
        #expect("  a b \t".trimmed() == "a b")
        #expect(" \n ".trimmed() == "")
        #expect("x".trimmed() == "x")
        #expect(Substring(" 30s ").trimmed() == "30s")
    }
}
