/// Who a post will notify, for the question asked before posting (`Post to TARGET?`):
/// every person mentioned, each once, in order of first mention; teams (`@org/team`)
/// apart; and every `@word` in the text that looks like a mention but is not one, so a
/// ping that will not happen (or, on GitHub, one that may reach a stranger) is seen
/// before the comment goes.
public struct NotifyList: Equatable, Sendable {
    /// The people, as the text shows them (`@John Doe`).
    public var people: [String] = []
    /// The teams (`@org/team`): a mention whose handle or name has a `/`, or on GitHub and
    /// GitLab, which read teams from the text, a typed `@org/team`.
    public var teams: [String] = []
    /// `@word`s of plain text that are not mentions (`@ghost`), each once.
    public var notMentions: [String] = []
    /// Whole channels a Slack file's own `<!here>`, `<!channel>` or `<!everyone>` pings
    /// (kept as they were, they reach Slack as they were).
    public var channels: [String] = []
    /// People mentioned who have accounts on other services but none on the target's:
    /// written as shown, so not notified (`@Ann Lee`).
    public var withoutAccount: [String] = []
    /// The target's service, as `withoutAccount`'s note names it.
    private var service: Service?

    /// Reads `doc` as it will be posted to `target`. Only `@` mentions are people (a `#`
    /// channel notifies nobody). Words inside Markdown code, links and HTML are skipped for
    /// GitHub and GitLab, which do not read mentions there.
    /// `lookup` is the directory the body is written with: a person it knows accounts of,
    /// but none on the target's service, is listed apart (not notified).
    public init(_ doc: MarkedText, target: PostTarget, lookup: EntityLookup = .empty) {
        var seen: Set<String> = []
        let unreachable = Set(lookup.mentionsWithoutAccount(in: doc, format: target.format).map(\.id))
        service = target.format.service
        for m in doc.listedMentions where m.trigger == "@" {
            let isTeam = (m.handle ?? "").contains("/") || m.name.contains("/")
            guard seen.insert(m.id).inserted else { continue }
            if unreachable.contains(m.id) {
                withoutAccount.append("@" + m.name)
            } else if isTeam {
                teams.append("@" + (m.handle.flatMap { $0.contains("/") ? $0 : nil } ?? m.name))
            } else {
                people.append("@" + m.name)
            }
        }
        // Constructs a file of the target's own format kept as they were are sent as they
        // were: Slack's `<!here>` and `<!subteam^S1|@team>`, an id the directory lacks.
        if case .slack = target {
            for m in doc.mentions where m.isKept {
                guard let source = m.source(in: .slack) else { continue }
                for group in ["here", "channel", "everyone"] where source.hasPrefix("<!\(group)") {
                    if !channels.contains("@" + group) { channels.append("@" + group) }
                }
                if source.hasPrefix("<!subteam^"), let bar = source.firstIndex(of: "|") {
                    let name = String(source[source.index(after: bar)...].dropLast())
                    if !name.isEmpty, !teams.contains(name) { teams.append(name) }
                }
                if source.hasPrefix("<@"), seen.insert(source).inserted { people.append(source + " (not in the directory)") }
            }
        }
        var words: Set<String> = []
        var text = doc.text
        // Mentions are not words; nor are the constructs of the target's own format, sent
        // as they were read and named above (Slack's `<@U9>`). But GitHub and GitLab read
        // logins from the text: there an unknown `@login` kept from a file is still a word
        // that is not a mention.
        let skipped = doc.mentions.filter { m in
            !m.isKept || (!target.readsMentionsFromText && m.source(in: target.format) != nil)
        }
        let mentionBytes = Self.byteRanges(of: skipped.map(\.range), in: doc.text)
        text.withUTF8 { bytes in
            // Where GitHub and GitLab read no mention: code, links and URLs, HTML.
            let code = target.readsMentionsFromText
                ? MarkdownSyntax(bytes).spans.filter { $0.kind == .code || $0.kind == .link || $0.kind == .html }.map(\.range)
                : []
            var skip = (mentionBytes + code).sorted { $0.lowerBound < $1.lowerBound }[...]
            var i = 0
            while i < bytes.count {
                while let first = skip.first, first.upperBound <= i { skip.removeFirst() }
                if let first = skip.first, first.contains(i) {
                    i = first.upperBound
                    continue
                }
                guard bytes[i] == UInt8(ascii: "@"), i == 0 || !Self.isWordByte(bytes[i - 1]) && bytes[i - 1] != UInt8(ascii: "@"),
                      let word = Self.word(in: bytes, after: i) else {
                    i += 1
                    continue
                }
                let end = i + 1 + word.utf8.count
                i = end
                if word.contains("/") {
                    if target.readsMentionsFromText {
                        if !teams.contains("@" + word) { teams.append("@" + word) }
                        continue
                    }
                }
                if words.insert(word.lowercased()).inserted { notMentions.append("@" + word) }
            }
        }
    }

    /// One line: `Notifies @John Doe, @Jane Roe and the team @org/team; @ghost is not a
    /// mention` (`Notifies nobody` when so).
    public var summary: String {
        var parts: [String] = []
        let teamWords = teams.map { "the team \($0)" }
        let all = people + teamWords + channels.map { "everyone in the channel (\($0))" }
        parts.append(all.isEmpty ? "Notifies nobody" : "Notifies " + Self.list(all))
        if !withoutAccount.isEmpty, let service {
            parts.append(Self.list(withoutAccount) + (withoutAccount.count == 1 ? " has" : " have")
                + " no \(service.rawValue) account (written as shown, not notified)")
        }
        if !notMentions.isEmpty {
            parts.append(Self.list(notMentions) + (notMentions.count == 1 ? " is not a mention" : " are not mentions"))
        }
        return parts.joined(separator: "; ")
    }

    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// The login-like word after the `@` at `at`: letters, digits, `_`, `-`, inner `.`s,
    /// and one `/` followed by more of them (a team); nil when there is none.
    private static func word(in bytes: UnsafeBufferPointer<UInt8>, after at: Int) -> String? {
        var j = at + 1
        var slash = false
        while j < bytes.count {
            let b = bytes[j]
            if isWordByte(b) || b == UInt8(ascii: "-") {
                j += 1
            } else if b == UInt8(ascii: "."), j + 1 < bytes.count, isWordByte(bytes[j + 1]) {
                j += 1
            } else if b == UInt8(ascii: "/"), !slash, j > at + 1, j + 1 < bytes.count, isWordByte(bytes[j + 1]) {
                slash = true
                j += 1
            } else {
                break
            }
        }
        guard j > at + 1 else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1) ..< j]), as: UTF8.self)
    }

    /// ASCII letters, digits and `_`; and any byte of a non-ASCII character, so that
    /// `@王伟` is a word too.
    private static func isWordByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: b >= 0x80
        }
    }

    /// The UTF-8 byte ranges of sorted scalar ranges of `text`.
    private static func byteRanges(of ranges: [Range<Int>], in text: String) -> [Range<Int>] {
        guard !ranges.isEmpty else { return [] }
        var out: [Range<Int>] = []
        var scalar = 0, byte = 0
        var pending = ranges[...]
        var start: Int?
        for s in text.unicodeScalars {
            guard let current = pending.first else { break }
            if scalar == current.lowerBound { start = byte }
            byte += s.utf8.count
            scalar += 1
            if scalar == current.upperBound, let from = start {
                out.append(from ..< byte)
                start = nil
                pending.removeFirst()
            }
        }
        return out
    }
}
