@testable import AtpadApp
import AtpadCore
import AtpadTestSupport
import Foundation
import Testing

/// `atpad check` (docs/spelling.md, "`atpad check`"): its exit statuses with real Hunspell,
/// and its lines and JSON objects.
@Suite struct CheckCommandTests {
    /// The exit status of `atpad check ARGUMENTS` with an empty config file and en_US.
    static func status(_ folder: TemporaryFolder, _ arguments: [String]) async throws -> Int32 {
        let config = try folder.write("config.toml", "")
        return await AtpadMain.run(["check", "--config", config, "--spell", "en_US"] + arguments)
    }

    @Test func exitsOneForAMisspellingZeroForNoneTwoForUsage() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = try folder.write("good.md", "A fine comment with `codde` and https://exmaple.com in it.\n")
        let bad = try folder.write("bad.md", "A comment with a misteak.\n")
        #expect(try await Self.status(folder, [good]) == 0)
        #expect(try await Self.status(folder, [bad]) == 1)
        #expect(try await Self.status(folder, [folder.path("missing.md")]) == 2)
        #expect(try await Self.status(folder, [bad, "--from", "nosuchformat"]) == 2)
        #expect(await AtpadMain.run(["check", bad, "--spell", "../etc"]) == 2)
        #expect(await AtpadMain.run(["check"]) == 2)
    }

    @Test func offAndAMissingDictionaryCheckNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try folder.write("config.toml", "")
        let bad = try folder.write("bad.md", "A comment with a misteak.\n")
        #expect(await AtpadMain.run(["check", "--config", config, "--spell", "off", bad]) == 0)
        #expect(await AtpadMain.run(["check", "--config", config, "--spell", "xx_XX", bad]) == 0)
        let off = try folder.write("off.toml", "spell = \"off\"\n")
        #expect(await AtpadMain.run(["check", "--config", off, bad]) == 0)
    }

    @Test func gitsCommentLinesAreNotChecked() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let message = try folder.write("COMMIT_EDITMSG", "Fix the parser\n\n# Plese entr the mesage\n")
        #expect(try await Self.status(folder, [message]) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("typo"), withIntermediateDirectories: true)
        let typo = try folder.write("typo/COMMIT_EDITMSG", "Fix the parsre\n\n# Plese entr the mesage\n")
        #expect(try await Self.status(folder, [typo]) == 1)
    }

    @Test func directoryNamesAreKnownWords() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let people = try folder.write("people.json", #"[{"id": "1", "name": "Siobhán Okonkwo", "handle": "sokonkwo"}]"#)
        let text = try folder.write("note.md", "Thanks Okonkwo and sokonkwo.\n")
        #expect(try await Self.status(folder, [text]) == 1)
        #expect(try await Self.status(folder, [text, "-d", people]) == 0)
    }

    @Test func linesAndJSON() {
        let m = Misspelling(range: 4 ..< 11, word: "misteak", line: 2, column: 5)
        #expect(CheckCommand.line(m, ["mistake", "mist eak"], file: "a.md") == "a.md:2:5: misteak (mistake, mist eak)")
        #expect(CheckCommand.line(m, [], file: "-") == "-:2:5: misteak")
        #expect(CheckCommand.json(m, ["mistake"], file: "a \"b\".md")
                == #"{"file": "a \"b\".md", "line": 2, "column": 5, "word": "misteak", "suggestions": ["mistake"]}"#)
    }
}
