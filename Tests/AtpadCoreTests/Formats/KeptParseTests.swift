import Testing
import AtpadTestSupport
@testable import AtpadCore

/// docs/formats.md, "What each service receives": a Markdown file converted for Matrix,
/// Jira or Slack is parsed once — its reader's parse is kept and the mentions' placeholders
/// are written into it — and what is sent is byte for byte what parsing the text again,
/// with the mentions set apart, gives.
@Suite("kept Markdown parse")
struct KeptParseTests {
    static let people = ComposerFormatsTests.people
    static let targets: [DocumentFormat] = [.matrix, .adf, .slack]

    /// The file read as GitHub Markdown keeping its parse for `target`.
    static func read(_ source: String, for target: DocumentFormat) throws -> DecodedDocument {
        try DocumentFormat.github.decode(bytes: Array(source.utf8), lookup: people, writingTo: target)
    }

    /// `target`'s bytes for `source`, from its kept parse and from a parse of its own.
    static func bothWays(_ source: String, _ target: DocumentFormat) throws -> (kept: [UInt8], parsed: [UInt8], read: DecodedDocument) {
        let read = try read(source, for: target)
        let kept = try target.encodeBytes(read.document, lookup: people, from: .github, reusing: read.markdown)
        let parsed = try target.encodeBytes(read.document, lookup: people, from: .github)
        return (kept, parsed, read)
    }

    @Test func aMarkdownFileKeepsItsParseOnlyForTheComposedFormats() throws {
        let text = "Thanks @jdoe for **this**"
        for target in Self.targets { #expect(try Self.read(text, for: target).markdown != nil, "\(target)") }
        for target: DocumentFormat in [.github, .jira, .discord, .atpad] {
            #expect(try Self.read(text, for: target).markdown == nil, "\(target)")
        }
        #expect(try DocumentFormat.github.decode(bytes: Array(text.utf8), lookup: Self.people).markdown == nil)
        // No trigger: nothing parsed while reading, nothing kept.
        #expect(try Self.read("no one here", for: .matrix).markdown == nil)
    }

    @Test func theKeptParseIsWrittenIntoAndUsedOnce() throws {
        let (kept, parsed, read) = try Self.bothWays("Thanks @jdoe for **this**, @ann-gh\n\n- @bo in a list", .matrix)
        #expect(kept == parsed)
        // Used by the writer, so a second write parses the text itself.
        let parse = try #require(read.markdown)
        #expect(parse.use { _ in true } == nil)
        #expect(try DocumentFormat.matrix.encodeBytes(read.document, lookup: Self.people, from: .github, reusing: parse) == parsed)
    }

    @Test func emphasisRightAgainstAMentionIsReadAsThePlaceholderIsRead() {
        func alike(_ text: String, _ mention: String) -> Bool {
            let bytes = Array(text.utf8)
            let range = bytes.firstRange(of: Array(mention.utf8))!
            return bytes.withUnsafeBufferPointer { ComposedMarkdown.flankedAlike($0, range) }
        }
        #expect(alike("hi @jdoe there", "@jdoe"))
        #expect(alike("**@jdoe** and", "@jdoe"))
        #expect(alike("a **@jdoe**", "@jdoe"))
        #expect(!alike("a**@jdoe**", "@jdoe"))
        #expect(!alike("(*@jdoe*)", "@jdoe"))
        #expect(!alike("\\@jdoe", "@jdoe"))
        #expect(alike("@jdoe**x**", "@jdoe"))
        #expect(!alike("@jdoe.**x**", "@jdoe."))
    }

    // Swift's literals refuse noncharacters: made from their values.
    static let noncharacters = String(Character(Unicode.Scalar(0xFDD0 as UInt32)!))
    static let closing = String(Character(Unicode.Scalar(0xFDD1 as UInt32)!))

    static let fragments = [
        "Thanks @jdoe for this", "**@jdoe**", "a**@jdoe**b", "_@ann-gh_", "x_@bo_", "@bo**bold**", "~~@cy-gh~~", "~@bo~",
        "`@jdoe`", "[@jdoe](https://x.org)", "[see](https://x.org/@jdoe)", "https://x.org/@bo", "<https://x.org/@bo>",
        "mail a@b.com and @bo", "\\@jdoe", "\\*@jdoe", "&amp; @jdoe &copy;", "&ngE; @bo", "@jdoe.", "@jdoe-", "@jdoe_",
        "@unknown and @jdoe", "# Heading @jdoe", "Setext @bo\n===", "> quoted @ann-gh\n> lazy @bo", ">@bo", "- @jdoe\n- @bo",
        "1. @cy-gh\n   - @bo", "| a | @jdoe |\n|---|---|\n| @bo | `@cy-gh` |", "```\n@jdoe in code\n```", "    @bo indented code",
        "<b>@jdoe</b> html", "<div>\n@bo\n</div>", "line  \n@jdoe hard break", "@jdoe\\\nnext", "***@bo***", "*a @bo*",
        "[ref @bo]\n\n[ref @bo]: https://x.org", "![@jdoe](https://x.org/i.png)", "- [ ] @bo task", "@jdoe @jdoe @bo",
        noncharacters + "0" + closing + " @jdoe", "@bo\u{0}x", "tab\t@jdoe", "<!-- a comment -->\n| a |\n|---|\n| @bo |", "é@bo", "«@jdoe»", "@jdoe's", "(@bo)", "@ann-gh, @cy-gh!",
    ]

    @Test(arguments: 0 ..< 4)
    func whatIsSentFromTheKeptParseIsWhatAParseOfItsOwnSends(chunk: Int) throws {
        var rng = SeededRandom(seed: 0x4B_E9_70 &+ UInt64(chunk))
        var mentions = 0
        for round in 0 ..< 120 {
            var parts: [String] = []
            for _ in 0 ..< rng.int(1 ..< 6) {
                var part = rng.pick(Self.fragments)
                switch rng.int(0 ..< 5) {
                case 0: part = "- " + part.replacing("\n", with: "\n  ")
                case 1: part = "> " + part.replacing("\n", with: "\n> ")
                case 2: part = rng.pick(["", " ", "x", "*", "_", "**", "~"]) + part + rng.pick(["", " ", "x", "*", "_", "**", "."])
                default: break
                }
                parts.append(part)
            }
            let source = parts.joined(separator: rng.pick(["\n\n", "\n", " "]))
            let target = rng.pick(Self.targets)
            let (kept, parsed, read) = try Self.bothWays(source, target)
            mentions += read.document.mentions.count
            #expect(String(decoding: kept, as: UTF8.self) == String(decoding: parsed, as: UTF8.self),
                    "round \(round) of chunk \(chunk), \(target): \(source.debugDescription)")
        }
        #expect(mentions > 100)
    }
}
