import AtpadTestSupport
import Testing
@testable import AtpadCore

/// docs/formats.md, "Files come back as they were (kept constructs)": for files made of
/// random pieces of each readable format — known and unknown mentions, Slack specials,
/// links, entities, Discord specials, escapes, code, CR LF, lone CR, no final newline —
/// opening and saving without edits gives the same bytes, and typing one character
/// changes the saved bytes only there.
@Suite("lossless formats")
struct LosslessFormatPropertyTests {
    static let cases = 1500

    /// What a file of each format is made of: text every format may hold, and that
    /// format's own constructs.
    static let shared: [String] = [
        "a", "b", "hello", " ", " ", "\n", "\r\n", "\r", "\t", "é", "e\u{301}", "\u{301}", "\u{200D}", "\u{600}",
        "👩‍💻", "🇫🇷", "王", "ש", "\\", "\\\\", "[", "]", "(", ")", "*", "_", "`", "|", "@", "#", ":", "<", ">", "&",
        ".", "!",
    ]

    static let pieces: [DocumentFormat: [String]] = [
        .json: ["@[John Doe](u1)", "#[general](C1)", "@[x](y)", "\"", "\u{0}", "\u{7F}", "\u{2028}"],
        .atpad: ["@[John Doe](u1)", "#[general](C1)", "\\@[", "@[", "@[x](y)", "@[a\\](b)", "@[a](b\\)", "](", "\\]",
                 "\\(", "@[Zoë \\[x\\] Ørsted](u4)", "~[k](v)"],
        .github: ["@jdoe", "@JDoe", "@jane.roe", "@ghost", "@jdoe.", "a@b.com", "`@jdoe`", "```\n", "#12", "@John Doe",
                  "@王伟", "@-x", "@ann-gh", "@ANN-GH", "@annl", "@p7", "@ann.gl", "@Ann.GL."],
        .slack: ["<@u1>", "<@u1|john>", "<@U9>", "<#C1>", "<#C1|general>", "<#C999|ops>", "<!here>", "<!channel>",
                 "<!subteam^S1|@team>", "<https://example.com|docs>", "<https://x.example?a=1&amp;b=2>",
                 "<mailto:a@b.example|a@b.example>", "&amp;", "&lt;", "&gt;", "&#39;", "&amp", "<>", "< x >", "<@U0123>", "<@p7>", "<@U0123|ann>"],
        .discord: ["<@1>", "<@!1>", "<@&2>", "<#3>", "<#C1>", "<@123456>", "<:party:4>", "<a:wave:5>",
                   "<t:1700000000:R>", "</deploy:6>", "\\<@1>", "\\\\<@1>", "\\<#3>", "<@", "<#", "<@ x>", "@everyone"],
        .markdown: ["[@John Doe](mention:u1)", "[@John Doe](https://example.com/jdoe)", "[@X](mention:zz)",
                    "[@Zoë \\[x\\] Ørsted](https://example.com/a_\\(b\\))", "[@Zo\\ë](mention:u4)", "[a](b)",
                    "![@x](mention:u1)", "\\[@y](mention:u1)", "`[@John Doe](mention:u1)`", "```\n"],
        .jira: ["[~accountid:u1]", "[~accountid:zz]", "[~jdoe]", "{code}", "[~accountid:]", "[~accountid:u1",
                "[~accountid:5b10ac8d]", "[~accountid:p7]"],
        .zulip: ["@**John Doe|u1**", "@**Johnny|u1**", "@**Nobody|zz**", "@**x**", "@_**John|u1**", "`@**John Doe|u1**`",
                 "**", "@**a|b c**", "@**Ann Lee|42**", "@**Ann|p7**"],
        .plain: [],
    ]

    /// The people of the format tests, Discord's `1`, and someone with accounts on the
    /// services (read by those accounts first, docs/people.md).
    static let directory = lookup(formatPeople + [Entity(id: "1", name: "Ana Lima", handle: "ana"), annWithAccounts],
                                  channels: formatChannels + [Entity(id: "3", name: "ops")])

    /// Every readable format; gitlab and mattermost read as github does.
    static let formats: [DocumentFormat] = [.atpad, .json, .github, .gitlab, .mattermost, .slack, .discord, .markdown,
                                            .jira, .zulip, .plain]

    /// A random file of `format`. Markup keeps escapes its writer would not write (`\\`
    /// before a letter, `\@[` that forms no mention) as they were, so any text comes back;
    /// with `canonical`, a markup file is first put in the form the writer gives it.
    static func file(_ format: DocumentFormat, rng: inout SeededRandom, canonical: Bool = false) -> String {
        let own = pieces[format] ?? pieces[.github] ?? []
        var s = ""
        for _ in 0 ..< rng.int(0 ..< 14) {
            s += !own.isEmpty && rng.chance(0.4) ? rng.pick(own) : rng.pick(shared)
        }
        switch format {
        case .atpad where canonical: return AtpadMarkup.encode(AtpadMarkup.decode(s))
        // json has one layout, atpad's: a file of it holds a document (its mentions from
        // markup pieces), and any other spacing is written that way on save.
        case .json: return MentionJSON.document(AtpadMarkup.decode(s).validMentionsOnly)
        default: return s
        }
    }

    @Test(arguments: formats)
    func openingAndSavingGivesTheSameBytes(format: DocumentFormat) throws {
        for n in 0 ..< Self.cases {
            let seed = 0x1055_1E55 &+ UInt64(n)
            var rng = SeededRandom(seed: seed)
            let file = Self.file(format, rng: &rng)
            let read = try format.decode(file, lookup: Self.directory).document
            let saved = format.encode(read, lookup: Self.directory)
            guard Array(saved.utf8) == Array(file.utf8) else {
                Issue.record("""
                    \(format), seed \(seed): saved bytes differ
                      file:  \(String(reflecting: file))
                      saved: \(String(reflecting: saved))
                      read:  \(String(reflecting: read.text)) \(read.mentions.map { "\($0.kind) \($0.range) \($0.text)" })
                    """)
                return
            }
        }
    }

    /// Not json: there every mention's offsets after the typed character move with it.
    @Test(arguments: formats.filter { $0 != .json })
    func typingOneCharacterChangesOnlyThatPlace(format: DocumentFormat) throws {
        for n in 0 ..< Self.cases {
            let seed = 0x1_0055_1E55 &+ UInt64(n)
            var rng = SeededRandom(seed: seed)
            let file = Self.file(format, rng: &rng)
            let read = try format.decode(file, lookup: Self.directory).document
            // Where a cursor may stand: a cluster boundary outside every token.
            let places = Self.cursorPlaces(in: read)
            // Markup reads a mention that a combining mark follows (or a prepended letter
            // precedes) as it is written: it is lenient on purpose (MarkupPropertyTests).
            // The editor makes such a mention text at the first edit next to it
            // (ARCHITECTURE.md, "The change value (`Sources/AtpadCore/Changes`)"). Every
            // other reader keeps such a construct as text to begin with.
            let offBoundary = read.mentions.contains { !places.contains($0.range.lowerBound) || !places.contains($0.range.upperBound) }
            if format == .atpad, offBoundary { continue }
            var editor = Editor(read)
            editor.selection = .cursor(rng.pick(places))
            let before = editor.marked
            _ = editor.handle(.char("x"))
            let saved = Array(format.encode(editor.marked, lookup: Self.directory).utf8)
            let old = Array(file.utf8)
            guard differsByOneInsertedX(old, saved) else {
                Issue.record("""
                    \(format), seed \(seed): typing x at \(editor.cursor - 1) changed more than one place
                      file:  \(String(reflecting: file))
                      saved: \(String(reflecting: String(decoding: saved, as: UTF8.self)))
                      read:  \(String(reflecting: before.text)) \(before.mentions.map { "\($0.kind) \($0.range) \($0.text)" })
                    """)
                return
            }
        }
    }

    /// The cluster boundaries of `doc` that are not strictly inside a token.
    static func cursorPlaces(in doc: MarkedText) -> [Int] {
        var places = [0]
        var offset = 0
        for character in doc.text {
            offset += character.unicodeScalars.count
            places.append(offset)
        }
        return places.filter { p in !doc.mentions.contains { $0.range.lowerBound < p && p < $0.range.upperBound } }
    }

    /// Whether `new` is `old` with one `x` inserted somewhere — give or take an escape
    /// backslash or two: typing between the `<` and the `@` of Discord's escaped
    /// `\\\<@1>` makes the escape unneeded, markup pairs backslashes by what follows them,
    /// and typing into `@[a](b\\)` completes a mention, whose trigger the writer then
    /// escapes. The edit made those escapes; nothing else may change.
    func differsByOneInsertedX(_ old: [UInt8], _ new: [UInt8]) -> Bool {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = old[prefix ..< old.count - suffix], newMiddle = new[prefix ..< new.count - suffix]
        let backslash = UInt8(ascii: "\\")
        guard abs(newMiddle.count - 1 - oldMiddle.count) <= 2 else { return false }
        var written = newMiddle.filter { $0 != backslash }
        guard let x = written.firstIndex(of: UInt8(ascii: "x")) else { return false }
        written.remove(at: x)
        return written == oldMiddle.filter { $0 != backslash }
    }
}

extension MarkedText {
    /// The document without the mentions whose edges are not cluster boundaries (which
    /// the json reader drops with a note).
    var validMentionsOnly: MarkedText {
        let places = Set(LosslessFormatPropertyTests.cursorPlaces(in: MarkedText(text: text)))
        return MarkedText(text: text, mentions: mentions.filter { places.contains($0.range.lowerBound) && places.contains($0.range.upperBound) })
    }
}

/// A person with an account on most services (none on matrix), whose directory id and
/// handle are not any of them.
let annWithAccounts = Entity(id: "p7", name: "Ann Lee", handle: "annl", email: "ann@example.com",
                             accounts: [.github: "ann-gh", .gitlab: "ann.gl", .slack: "U0123", .jira: "5b10ac8d", .zulip: "42"])
