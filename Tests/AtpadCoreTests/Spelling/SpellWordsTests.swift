import AtpadCore
import AtpadTestSupport
import CCmarkGFM
import Testing

/// A tiny dictionary standing in for Hunspell: the words it holds, in any case.
struct WordListSpeller: Speller {
    var words: Set<String>
    init(_ words: [String]) { self.words = Set(words.map { $0.lowercased() }) }
    func knows(_ word: String) -> Bool { words.contains(word.lowercased()) }
    func suggestions(for word: String) -> [String] {
        words.filter { $0.first == word.lowercased().first }.sorted()
    }
}

/// What spelling checks (docs/spelling.md, "What is checked"): words of prose and links' text only.
@Suite struct SpellWordsTests {
    /// The words checked in `text`, as written, read in `format` (no mentions).
    static func words(_ text: String, _ format: DocumentFormat = .github, git: GitFile? = nil) -> [String] {
        SpellWords.words(in: MarkedText(text: text), format: format, git: git).map(\.text)
    }

    @Test func proseWordsAreChecked() {
        #expect(Self.words("Teh quick brown fox") == ["Teh", "quick", "brown", "fox"])
        #expect(Self.words("don't stop, O’Neil-less well-known.") == ["don't", "stop", "less", "well", "known"])
        #expect(Self.words("# A heading wiht words\n\n> quoted txet") == ["heading", "wiht", "words", "quoted", "txet"])
    }

    @Test func codeIsNever() {
        #expect(Self.words("see `mispeled` here") == ["see", "here"])
        #expect(Self.words("para\n\n```\nbadwurd in fence\n```\n\nafter") == ["para", "after"])
        #expect(Self.words("para\n\n    indentd code\n\nafter") == ["para", "after"])
        #expect(Self.words("~~~swift\nlet wrng = 1\n~~~") == [])
    }

    @Test func linksURLsAndHTMLAreNever() {
        #expect(Self.words("go https://exmaple.com/pth now") == ["go", "now"])
        #expect(Self.words("go <https://exmaple.com> now") == ["go", "now"])
        #expect(Self.words("go www.exmaple.com now") == ["go", "now"])
        #expect(Self.words("<span class=\"clss\">ok</span>") == ["ok"])
        // In text (not Markdown) the same by their shape.
        #expect(Self.words("go https://exmaple.com/pth now", .text) == ["go", "now"])
        #expect(Self.words("go www.exmaple.com now", .text) == ["go", "now"])
    }

    @Test func linksTextIsCheckedAndTheirDestinationsNever() {
        #expect(Self.words("see [teh docs](https://exmaple.com/pth \"a titel\") now") == ["see", "teh", "docs", "now"])
        #expect(Self.words("see [teh *docs*][lbl] now\n\n[lbl]: https://exmaple.com/pth") == ["see", "teh", "docs", "now"])
        #expect(Self.words("a [link with `cde` in it](x)") == ["link", "with", "in", "it"])
        // An image's text is not shown; an autolink's and a bare URL's is the address.
        #expect(Self.words("an ![imgae of it](pic.png) <https://exmaple.com> www.exmaple.com") == ["an"])
        // No mention in a link's text on GitHub, but a word to check.
        #expect(Self.words("[thnaks @someone](https://exmaple.com)") == ["thnaks"])
    }

    @Test func slacksAndJirasOwnCodeIsNever() {
        #expect(Self.words("run `mispeled` then ```blok\nof cde``` and ```inlne``` ok", .slack) == ["run", "then", "and", "ok"])
        // Without its closer a backtick is text, and so are the words after it.
        #expect(Self.words("a lone ` tick\nand ```unclsed", .slack) == ["lone", "tick", "and", "unclsed"])
        #expect(Self.words("two `` empty then `cde` end", .slack) == ["two", "empty", "then", "end"])
        let jira = "{code:java}\nint wrng;\n{code}\nthen {{monspace}} and {noformat}nof ormat{noformat} txt {code}unclsed"
        #expect(Self.words(jira, .jira) == ["then", "and", "txt", "code", "unclsed"])
        // Markdown's backticks are not Jira's code, nor Jira's braces Slack's.
        #expect(Self.words("a `wrod` {{mnoo}}", .jira) == ["wrod"])
        #expect(Self.words("a `wrod` {{mnoo}}", .slack) == ["mnoo"])
    }

    @Test func addressesPathsAndHandlesAreNever() {
        #expect(Self.words("mail jdoe@exmaple.org or mailto:jdoe@exmaple.org", .text) == ["mail", "or"])
        #expect(Self.words("see src/mian.swift and ~/nots and C:\\tmpp", .text) == ["see", "and", "and"])
        #expect(Self.words("thanks @someonne", .text) == ["thanks"])
        #expect(Self.words("open setup.pyy then", .text) == ["open", "then"])
    }

    @Test func mentionsAndKeptConstructsAreNever() {
        let doc = AtpadMarkup.decode("ask @[Jhon Doee](u1) and abuot it")
        let words = SpellWords.words(in: doc, format: .atpad).map(\.text)
        #expect(words == ["ask", "and", "abuot", "it"])
        let slack = try! DocumentFormat.slack.decode("hi <!channle> and <@U1> thre")
        #expect(!slack.document.mentions.isEmpty)
        #expect(SpellWords.words(in: slack.document, format: .slack).map(\.text) == ["hi", "and", "thre"])
    }

    @Test func emojiAndShortcodesAreNever() {
        #expect(Self.words("great 👍🏽 job :tada: and :white_check_mark: :thumbsupp:") == ["great", "job", "and"])
        #expect(Self.words("nice👍wrok") == ["nice", "wrok"])
    }

    @Test func identifiersAndWordsWithDigitsAreNever() {
        #expect(Self.words("call fooBar and foo_bar, HTTPS, HTTPServer, iPhone, v2, 3rd, x86 ok", .text) == ["call", "and", "ok"])
        #expect(Self.words("Capitalised Words stay") == ["Capitalised", "Words", "stay"])
        #expect(Self.words("#general $HOME %s &amp; ~user", .text) == [])
    }

    @Test func singleLettersAreNotAsked() {
        #expect(Self.words("a b I x") == [])
    }

    @Test func gitsCommentLinesAndDiffAreNever() {
        let message = """
            Fix teh parser

            # Plese enter the commit message
            Body txet here
            # ------------------------ >8 ------------------------
            diff --git a/x b/x
            +addded line
            """
        #expect(Self.words(message, git: GitFile(kind: .message)) == ["Fix", "teh", "parser", "Body", "txet", "here"])
        #expect(Self.words("; a commnt\nreal wrods", git: GitFile(kind: .message, comment: ";")) == ["real", "wrods"])
        // A comment line inside a fence does not end the fence (git strips it first).
        let fenced = "```\ncoode\n# note\nmore coode\n```\nafter"
        #expect(Self.words(fenced, git: GitFile(kind: .message)) == ["after"])
    }

    @Test func rangesAreTheWordsScalars() {
        let doc = MarkedText(text: "é `x` wrold 👍 naïve")
        let words = SpellWords.words(in: doc, format: .github)
        let scalars = Array(doc.text.unicodeScalars)
        for word in words {
            #expect(String(String.UnicodeScalarView(scalars[word.range])) == word.text)
        }
        #expect(words.map(\.text) == ["wrold", "naïve"])
    }

    /// cmark-gfm is the judge of code: a word found in a code node's literal by cmark-gfm
    /// itself is never checked, and one found only in text nodes always is.
    @Test func cmarkGFMJudgesCode() throws {
        let documents = [
            "A `zqcode` span and zqprose.",
            "- item zqprose\n\n      zqcode indented in a list\n",
            "> quote zqprose\n>\n> ```\n> zqcode\n> ```\n",
            "``` zqcode info\nzqcode\n```\nzqprose",
            "*zqprose* and **`zqcode`** and ``zqcode ` zqcode``",
            "1. zqprose\n   ```\n   zqcode\n   ```",
        ]
        for text in documents {
            let (code, prose) = Self.cmarkLiterals(text)
            let found = Set(Self.words(text))
            for word in code where !prose.contains(word) { #expect(!found.contains(word), "\(word) in \(text)") }
            for word in prose where !code.contains(word) && word.hasPrefix("zq") { #expect(found.contains(word), "\(word) in \(text)") }
            #expect(code.contains("zqcode") && prose.contains("zqprose"), "\(text)")
        }
    }

    /// The words of cmark-gfm's code literals (spans, blocks and their info strings) and of
    /// its text literals (cmark-gfm's core parse: code needs no extension).
    static func cmarkLiterals(_ text: String) -> (code: Set<String>, prose: Set<String>) {
        cmark_gfm_core_extensions_ensure_registered()
        let root = cmark_parse_document(text, text.utf8.count, CMARK_OPT_DEFAULT)!
        defer { cmark_node_free(root) }
        var code: Set<String> = [], prose: Set<String> = []
        let iterator = cmark_iter_new(root)!
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            func words(_ s: UnsafePointer<CChar>?) -> [String] {
                guard let s else { return [] }
                return String(cString: s).split(whereSeparator: { !$0.isLetter }).map(String.init)
            }
            if type == CMARK_NODE_CODE || type == CMARK_NODE_CODE_BLOCK {
                code.formUnion(words(cmark_node_get_literal(node)))
                if type == CMARK_NODE_CODE_BLOCK { code.formUnion(words(cmark_node_get_fence_info(node))) }
            } else if type == CMARK_NODE_TEXT {
                prose.formUnion(words(cmark_node_get_literal(node)))
            }
        }
        return (code, prose)
    }
}

/// Misspellings: the words no dictionary and no known word holds, with their places.
@Suite struct MisspellingTests {
    static let speller = WordListSpeller(["the", "quick", "brown", "fox", "hello", "world", "and", "ask", "it"])

    @Test func placesAreOneBasedLinesAndCharacterColumns() {
        let doc = MarkedText(text: "the quikc fox\r\nhello 👍🏽 wrold\né wrold")
        let found = Misspelling.find(in: doc, format: .text, speller: Self.speller)
        #expect(found.map { "\($0.line):\($0.column) \($0.word)" } == ["1:5 quikc", "2:9 wrold", "3:3 wrold"])
    }

    @Test func namesAndHandlesAreKnownWords() {
        let people = [Entity(id: "1", name: "Siobhán Nguyen-Okafor", handle: "snok"),
                      Entity(id: "2", name: "Ana O'Brien")]
        let known = KnownWords(entities: people)
        let doc = MarkedText(text: "ask Siobhán and nguyen and Okafor and snok and O'Brien and Brian")
        let found = Misspelling.find(in: doc, format: .text, speller: Self.speller, known: known)
        #expect(found.map(\.word) == ["Brian"])
        #expect(Misspelling.find(in: doc, format: .text, speller: Self.speller).map(\.word)
                == ["Siobhán", "nguyen", "Okafor", "snok", "Brian"])
    }

    @Test func thePersonalListIsKnown() {
        let known = KnownWords(entities: [], list: "atpad\n  frobnicate \n\nrefactr\r\n")
        let doc = MarkedText(text: "the atpad and Frobnicate and refactr and wrold")
        let found = Misspelling.find(in: doc, format: .text, speller: Self.speller, known: known)
        #expect(found.map(\.word) == ["wrold"])
    }

    /// Checking never changes the document, and finds only words of its text outside its
    /// tokens, each unknown to the speller.
    @Test func checkingChangesNothingAndFindsOnlyText() throws {
        var random = NastyDocuments(rng: SeededRandom(seed: 36))
        let people = formatPeople
        for _ in 0 ..< 400 {
            let doc = random.document(entities: people)
            let before = doc
            for format in [DocumentFormat.github, .text, .atpad] {
                let found = Misspelling.find(in: doc, format: format, git: GitFile(kind: .message),
                                             speller: Self.speller, known: KnownWords(entities: people))
                #expect(doc == before)
                let scalars = Array(doc.text.unicodeScalars)
                for m in found {
                    #expect(m.range.upperBound <= scalars.count)
                    #expect(String(String.UnicodeScalarView(scalars[m.range])) == m.word)
                    #expect(!doc.mentions.contains { $0.range.overlaps(m.range) }, "\(m.word) in a token of \(doc.text)")
                    #expect(!Self.speller.knows(m.word))
                }
            }
        }
    }
}
