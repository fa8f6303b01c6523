import CCmarkGFM
import Foundation
import Testing
@testable import AtpadCore

/// atpad's mentions in Markdown against GitHub's parser as the judge: every example of the
/// CommonMark 0.31.2 and GFM specifications (vendored in `MarkdownSpecs/` with their
/// licences), with `@jdoe` placed wherever a mention could start — in text, emphasis, code
/// spans, code blocks, link texts, destinations, autolinks, bare URLs and HTML. The judge
/// is cmark-gfm's own HTML rendering (safe mode, so raw HTML is left out): `@jdoe` is a
/// mention when it stands in the rendered text outside `code`, `pre` and `a`.
@Suite("Markdown against cmark-gfm")
struct MarkdownSpecTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MarkdownSpecs")

    static let people = lookup(formatPeople)

    /// The Markdown of each example in a spec file (`→` stands for a tab).
    static func examples(_ file: String) throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        var examples: [String] = []
        var current: [Substring]?
        var inMarkdown = false
        let fence = String(repeating: "`", count: 32)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(fence + " example") {
                current = []
                inMarkdown = true
            } else if current != nil, inMarkdown, line == "." {
                examples.append(current!.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t"))
                inMarkdown = false
            } else if line == fence {
                current = nil
            } else if inMarkdown {
                current?.append(line)
            }
        }
        return examples
    }

    /// The example with `@jdoe` inserted at each place a mention could start: after the
    /// start, a blank, a line break or opening punctuation, and before a blank, a line
    /// break, the end or closing punctuation. (Not before `&`: a handle that a character
    /// reference follows, `@jdoe&AElig;`, is read up to the `&`, where GitHub reads the
    /// decoded letter as part of the handle — a known difference.)
    static func variants(of example: String) -> [String] {
        let scalars = Array(example.unicodeScalars)
        let before: Set<Unicode.Scalar> = [" ", "\t", "\n", "(", "[", "<", "`", "*", "_", "~", "\"", ">", "=", "/", "|", "#"]
        let after: Set<Unicode.Scalar> = [" ", "\t", "\n", ")", "]", ">", "`", "*", "_", "~", "\"", ",", "|", "/"]
        var out: [String] = []
        for i in 0 ... scalars.count {
            guard i == 0 || before.contains(scalars[i - 1]), i == scalars.count || after.contains(scalars[i]) else { continue }
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[..<i])
            s.append(contentsOf: "@jdoe".unicodeScalars)
            s.append(contentsOf: scalars[i...])
            out.append(String(s))
        }
        return out
    }

    /// How many times cmark-gfm's rendering of `markdown` shows `@jdoe` as a mention.
    static func judge(_ markdown: String) -> Int {
        let html = render(markdown)
        var count = 0
        var hidden = 0
        var segment = ""
        var i = html.startIndex
        func flush() {
            if hidden == 0 { count += mentions(in: decodeEntities(segment)) }
            segment = ""
        }
        while i < html.endIndex {
            if html[i] == "<", let close = html[i...].firstIndex(of: ">") {
                flush()
                let tag = html[html.index(after: i) ..< close].lowercased()
                let name = tag.prefix { $0.isLetter || $0 == "/" }
                switch name {
                case "code", "pre", "a": hidden += 1
                case "/code", "/pre", "/a": hidden -= 1
                default: break
                }
                i = html.index(after: close)
            } else {
                segment.append(html[i])
                i = html.index(after: i)
            }
        }
        flush()
        return count
    }

    /// GitHub's rule within one run of rendered text: `@jdoe` not after a word character
    /// or one of `. - + / \ @`, its handle run (`[\w.-]`) being `jdoe` once trailing `.`,
    /// `-` and `_` are dropped.
    static func mentions(in text: String) -> Int {
        let s = Array(text.unicodeScalars)
        var count = 0
        var i = 0
        while i < s.count {
            defer { i += 1 }
            guard s[i] == "@" else { continue }
            if i > 0 {
                var j = i - 1
                // Emphasis marks that stayed text at the start of a word are looked through.
                if s[j] == "_" {
                    while j > 0, i - j < 8, CharacterClass.isEmphasisMark(s[j - 1]) { j -= 1 }
                    if j > 0 { j -= 1 } else { j = -1 }
                }
                if j >= 0 && (CharacterClass.isWord(s[j]) || ".-+/\\@".unicodeScalars.contains(s[j])) { continue }
            }
            var end = i + 1
            while end < s.count, CharacterClass.isWord(s[end]) || s[end] == "." || s[end] == "-" { end += 1 }
            var handle = String(String.UnicodeScalarView(s[(i + 1) ..< end]))
            while let last = handle.last, ".-_".contains(last) { handle.removeLast() }
            if handle.lowercased() == "jdoe" { count += 1 }
        }
        return count
    }

    static func decodeEntities(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// cmark-gfm's HTML for `markdown`, with GitHub's extensions, in safe mode.
    static func render(_ markdown: String) -> String {
        // cmark-gfm shares state between threads while it parses: one parse at a time,
        // with atpad's own (the tests run in parallel).
        MarkdownSyntax.withParser { renderAlone(markdown) }
    }

    private static func renderAlone(_ markdown: String) -> String {
        cmark_gfm_core_extensions_ensure_registered()
        let parser = cmark_parser_new(CMARK_OPT_DEFAULT)
        defer { cmark_parser_free(parser) }
        for name in ["autolink", "strikethrough", "table", "tagfilter", "tasklist"] {
            cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name))
        }
        var markdown = markdown
        markdown.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        let document = cmark_parser_finish(parser)
        defer { cmark_node_free(document) }
        guard let html = cmark_render_html(document, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(html) }
        return String(cString: html)
    }

    /// atpad's mentions of John Doe when it reads `markdown` as `github`.
    static func atpad(_ markdown: String) throws -> (count: Int, roundTrips: Bool) {
        let read = try DocumentFormat.github.decode(markdown, lookup: people)
        let count = read.document.mentions.filter { $0.id == "u1" }.count
        return (count, DocumentFormat.github.encode(read.document, lookup: people) == markdown)
    }

    func check(_ file: String) throws {
        var disagreements: [String] = []
        var total = 0
        for example in try Self.examples(file) {
            for variant in Self.variants(of: example) {
                total += 1
                let expected = Self.judge(variant)
                let (count, roundTrips) = try Self.atpad(variant)
                #expect(roundTrips, "round trip: \(variant.debugDescription)")
                if count != expected {
                    disagreements.append("atpad \(count), cmark-gfm \(expected): \(variant.debugDescription)")
                }
            }
        }
        #expect(total > 4000)
        let report = "\(disagreements.count) of \(total) differ:\n" + disagreements.prefix(ProcessInfo.processInfo.environment["ATPAD_SPEC_SHOW"].flatMap(Int.init) ?? 40).joined(separator: "\n")
        #expect(disagreements.isEmpty, Comment(rawValue: report))
    }

    @Test func commonMarkExamples() throws {
        try check("commonmark-0.31.2-spec.txt")
    }

    @Test func gfmExamples() throws {
        try check("gfm-spec.txt")
    }

    /// The judge itself tells a mention from code, a link and HTML.
    @Test func theJudgeSeesWhatGitHubShows() {
        #expect(Self.judge("hi @jdoe") == 1)
        #expect(Self.judge("*@jdoe* and **@jdoe**") == 2)
        #expect(Self.judge("`@jdoe`\n\n    @jdoe\n\n```\n@jdoe\n```") == 0)
        #expect(Self.judge("[@jdoe](x) [x](@jdoe) <http://a/@jdoe> https://x.example/?u=@jdoe") == 0)
        #expect(Self.judge("<span title=\"@jdoe\">@jdoe</span>") == 1)
        #expect(Self.judge("<div>\n@jdoe\n</div>") == 0)
        #expect(Self.judge("a@jdoe x/@jdoe") == 0)
    }
}
