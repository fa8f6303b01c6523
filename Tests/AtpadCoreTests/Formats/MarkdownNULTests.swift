import Testing
@testable import AtpadCore

/// A NUL byte in Markdown (issue 32): cmark-gfm reads it as U+FFFD, three bytes, in its
/// literals and its byte columns. `MarkdownSyntax` reads that U+FFFD as the one NUL it
/// stands for, so a NUL on a line hides none of its mentions, in reading and in the
/// editor's search-start rule (docs/markdown.md).
@Suite("Markdown with NUL bytes")
struct MarkdownNULTests {
    let people = lookup(formatPeople, channels: formatChannels)

    func prose(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return MarkdownSyntax(text).prose.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func aNULIsProseLikeAnyCharacter() {
        #expect(prose("hi @jdoe\0 x") == ["hi @jdoe\0 x"])
        #expect(prose("\0 a `c` b\0") == ["\0 a ", " b\0"])
        #expect(prose("> q\0 @jdoe\n> r\0") == ["q\0 @jdoe", "r\0"])
        #expect(prose("*e\0* <span>\0</span> x") == ["e\0", " ", "\0", " x"])
    }

    @Test func columnsAfterANULOnTheLineStayExact() {
        // Table cells start at byte columns cmark-gfm counts with U+FFFD's three bytes.
        let text = "| a\0 | b @jdoe |\n|---|---|\n| \0c | d |\n"
        #expect(prose(text) == ["a\0", "b @jdoe", "\0c", "d"])
    }

    @Test func readingFindsTheMentionsOfALineWithANUL() throws {
        for text in ["hi @jdoe\0 x", "\0hi @jdoe", "hi \0@jdoe", "a\0\0\0 @jdoe and @jroe\0", "# T\0 @jdoe", "- \0 @jdoe",
                     "| \0 | @jdoe |\n|---|---|\n"] {
            let read = try DocumentFormat.github.decode(text, lookup: people)
            #expect(read.document.listedMentions.map(\.id).contains("u1"), "\(text.debugDescription)")
            #expect(DocumentFormat.github.encode(read.document, lookup: people) == text)
        }
    }

    @Test func theEditorSearchesOnALineWithANUL() throws {
        let config = EditorConfig(triggers: ["@", "#"], implicitThreshold: 0, format: .markdown)
        for start in ["hi \0 |", "\0 |", "a\0b |", "\0\0 |", "# T\0 |", "> \0\n> |"] {
            var h = try Harness(start, config: config)
            try h.keys("@jo")
            #expect(h.editor.search != nil, "\(start.debugDescription)")
        }
    }

    // MARK: - Property

    static let pieces = [
        "hi", "@jdoe", "@jroe", "@JDoe.", "`@jdoe code`", "[@jdoe](u)", "<span title=\"@jdoe\">s</span>", "**b @jdoe**",
        "_@jroe_", "x@jdoe", "https://x.example/@jdoe", "#general", "word", "(@jdoe)", "~~@jdoe~~", "&amp;", "\\*",
    ]
    static let lines = ["", "# ", "## ", "- ", "> ", "1. ", "| ", "    "]

    /// A NUL inserted in prose where a word ends (between a letter and a blank) changes no
    /// mention that is read: the same ids, at the same places moved by the one byte, and
    /// the editor's rule says the same at every trigger.
    @Test func aNULElsewhereNeverChangesWhichMentionsAreRead() throws {
        var rng = SeededRandom(seed: 3200)
        func words() -> String { (0 ..< rng.int(1 ..< 6)).map { _ in rng.pick(Self.pieces) }.joined(separator: " ") }
        for round in 0 ..< 200 {
            var text = ""
            for line in 0 ..< rng.int(1 ..< 5) {
                if line > 0 { text += rng.chance(0.3) ? "\n\n" : "\n" }
                let start = rng.pick(Self.lines)
                text += start == "| " ? "| \(words()) | \(words()) |\n|---|---|\n| \(words()) | x |" : start + words()
            }
            let scalars = Array(text.unicodeScalars)
            let syntax = MarkdownSyntax(text)
            // All of it ASCII but the pieces' own: byte offsets are scalar offsets.
            let places = scalars.indices.dropFirst().filter { i in
                scalars[i] == " " && scalars[i - 1].properties.isAlphabetic && syntax.proseRun(containing: i - 1) != nil
            }
            guard let at = places.isEmpty ? nil : rng.pick(Array(places)) else { continue }
            var withNUL = scalars
            withNUL.insert("\0", at: at)
            let other = String(String.UnicodeScalarView(withNUL))
            let before = try DocumentFormat.github.decode(text, lookup: people).document
            let after = try DocumentFormat.github.decode(other, lookup: people).document
            // The same document once the NUL is taken out again (reading turns handles into
            // names, so positions are compared in the documents, not the files).
            let nulScalar = try #require(after.text.unicodeScalars.firstIndex(of: "\0"))
            let place = after.text.unicodeScalars.distance(from: after.text.unicodeScalars.startIndex, to: nulScalar)
            #expect(after.removingScalars(at: [place]) == before, "\(round): \(text.debugDescription) NUL at \(at)")
            // The editor's rule at every trigger.
            let config = EditorConfig(triggers: ["@", "#"], implicitThreshold: 0, format: .markdown)
            let plain = Editor(MarkedText(text: text), config: config)
            let nul = Editor(MarkedText(text: other), config: config)
            for (i, s) in scalars.enumerated() where s == "@" || s == "#" {
                #expect(plain.isMarkdownProse(i) == nul.isMarkdownProse(i >= at ? i + 1 : i),
                        "\(round): \(text.debugDescription) NUL at \(at), trigger at \(i)")
            }
        }
    }
}
