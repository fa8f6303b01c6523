/// The words of a document that spelling checks (docs/spelling.md, "What is checked"):
/// words of prose and links' text only. Never code (code spans, fenced and indented code,
/// as cmark-gfm reads Markdown; Slack's and Jira's in their own markup), link
/// destinations, URLs, autolinks and HTML, e-mail addresses, paths, mentions
/// and kept constructs (the document's tokens), emoji and `:shortcodes:`, git's comment
/// lines and everything from the scissors line, words with digits, and identifiers:
/// `camelCase`, `snake_case`, `ALLCAPS`.
///
/// A pure function of the document, its format and its git file: it reads no dictionary,
/// so the editor and `atpad check` find the same words.
public enum SpellWords {
    /// A word to check: its scalars in the document, and its text.
    public struct Word: Hashable, Sendable {
        public var range: Range<Int>
        public var text: String
    }

    /// The words of `doc` (in `format`; `git` when the file is one of git's) to check, in
    /// document order, their ranges in Unicode scalars.
    public static func words(in doc: MarkedText, format: DocumentFormat, git: GitFile? = nil) -> [Word] {
        let bytes = Array(doc.text.utf8)
        let gitParts = git.map { git in bytes.withUnsafeBufferPointer { git.gitRanges($0) } } ?? []
        // Slack's and Jira's own markup and `text` (code, data) are not Markdown: the other
        // formats' comments are, and cmark-gfm says where their code and links are. Slack
        // and Jira say where their code is in markup of their own.
        let prose = format.isMarkdownSource ? markdownProse(bytes, without: gitParts) : nil
        let skipped = union(gitParts, ChatMarkupCode.ranges(bytes, format: format))
        var words: [Word] = []
        var run: [(scalar: Unicode.Scalar, offset: Int)] = []
        var b = 0, s = 0
        var g = 0, p = 0, m = 0
        let mentions = doc.mentions
        for u in doc.text.unicodeScalars {
            while g < skipped.count, skipped[g].upperBound <= b { g += 1 }
            var checked = !(g < skipped.count && skipped[g].contains(b))
            if checked, let prose {
                while p < prose.count, prose[p].upperBound <= b { p += 1 }
                checked = p < prose.count && prose[p].contains(b)
            }
            if checked {
                while m < mentions.count, mentions[m].range.upperBound <= s { m += 1 }
                checked = !(m < mentions.count && mentions[m].range.contains(s))
            }
            if checked && !CharacterClass.isWhitespace(u) {
                run.append((u, s))
            } else if !run.isEmpty {
                addWords(of: run, to: &words)
                run.removeAll(keepingCapacity: true)
            }
            b += UTF8.width(u)
            s += 1
        }
        if !run.isEmpty { addWords(of: run, to: &words) }
        return words
    }

    /// The byte ranges of prose and links' text in Markdown `bytes`, read as git hands the
    /// message on when `cuts` are git's parts (so a comment line in a paragraph does not
    /// end it): the parse is of the bytes without them, and its ranges are mapped back.
    static func markdownProse(_ bytes: [UInt8], without cuts: [Range<Int>]) -> [Range<Int>] {
        func checked(_ syntax: MarkdownSyntax) -> [Range<Int>] { union(syntax.prose, syntax.linkText) }
        guard !cuts.isEmpty else { return bytes.withUnsafeBufferPointer { checked(MarkdownSyntax($0)) } }
        var message: [UInt8] = []
        message.reserveCapacity(bytes.count)
        // Each kept part: where it is in the message, where in `bytes`, how long.
        var parts: [(message: Int, bytes: Int, count: Int)] = []
        var at = 0
        for cut in cuts + [bytes.count ..< bytes.count] {
            if cut.lowerBound > at {
                parts.append((message.count, at, cut.lowerBound - at))
                message += bytes[at ..< cut.lowerBound]
            }
            at = max(at, cut.upperBound)
        }
        let syntax = message.withUnsafeBufferPointer { MarkdownSyntax($0) }
        var out: [Range<Int>] = []
        var k = 0
        for range in checked(syntax) {
            while k < parts.count, parts[k].message + parts[k].count <= range.lowerBound { k += 1 }
            var j = k
            while j < parts.count, parts[j].message < range.upperBound {
                let part = parts[j]
                let low = max(range.lowerBound, part.message), high = min(range.upperBound, part.message + part.count)
                if low < high { out.append(low - part.message + part.bytes ..< high - part.message + part.bytes) }
                j += 1
            }
        }
        return out
    }

    /// The union of two lists of sorted, disjoint ranges: sorted, overlapping and touching
    /// ranges joined.
    static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        guard !a.isEmpty else { return b }
        guard !b.isEmpty else { return a }
        var out: [Range<Int>] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            let next: Range<Int>
            if j == b.count || i < a.count && a[i].lowerBound <= b[j].lowerBound {
                next = a[i]
                i += 1
            } else {
                next = b[j]
                j += 1
            }
            if let last = out.last, next.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound ..< max(last.upperBound, next.upperBound)
            } else {
                out.append(next)
            }
        }
        return out
    }

    /// The words of one run of checked text without blanks (`run`, each scalar with its
    /// offset), unless the run is a URL, an address, a mention or a path.
    static func addWords(of run: [(scalar: Unicode.Scalar, offset: Int)], to words: inout [Word]) {
        let scalars = run.map(\.scalar)
        if isAddressOrPath(scalars) { return }
        let n = scalars.count
        var i = 0
        while i < n {
            guard CharacterClass.isWord(scalars[i]) else {
                i += 1
                continue
            }
            // A compound: word characters joined by single connectors (`don't`,
            // `well-known`, `file.txt`, `key:value`).
            let start = i
            var j = i
            var joinedByDotOrColon = false
            while j < n {
                if CharacterClass.isWord(scalars[j]) {
                    j += 1
                } else if j + 1 < n, isConnector(scalars[j]), CharacterClass.isWord(scalars[j + 1]) {
                    if scalars[j] == "." || scalars[j] == ":" { joinedByDotOrColon = true }
                    j += 1
                } else {
                    break
                }
            }
            defer { i = j }
            let before = start > 0 ? scalars[start - 1] : nil
            let after = j < n ? scalars[j] : nil
            // `file.txt`, `example.com`, `e.g`, `std:vector`: names, not words.
            if joinedByDotOrColon { continue }
            // `#general`, `$HOME`, `%d`, `&amp;`, `~user`: references and escapes.
            if let before, "#$%&~^".unicodeScalars.contains(before) { continue }
            // `:shortcode:` (an emoji's name).
            if before == ":", after == ":" { continue }
            // Each part of a hyphenated compound is a word of its own.
            var partStart = start
            for k in start ... j {
                if k == j || scalars[k] == "-" {
                    if isCheckable(scalars[partStart ..< k]) {
                        words.append(Word(range: run[partStart].offset ..< run[k - 1].offset + 1,
                                          text: String(String.UnicodeScalarView(scalars[partStart ..< k]))))
                    }
                    partStart = k + 1
                }
            }
        }
    }

    /// Whether a run of text without blanks is a URL, an e-mail address, a mention or
    /// handle not in the directory (`@someone`), or a path (`src/main.swift`, `~/notes`,
    /// `C:\temp`): none of it is checked. `and/or` goes with the paths.
    static func isAddressOrPath(_ scalars: [Unicode.Scalar]) -> Bool {
        if scalars.count > 4, String(String.UnicodeScalarView(scalars[0 ..< 4])).lowercased() == "www." { return true }
        if scalars.first == "~" { return true }
        // `https://…` has its `/`; `mailto:` and e-mail addresses their `@`.
        return scalars.contains { $0 == "@" || $0 == "/" || $0 == "\\" }
    }

    /// The characters that join the parts of a compound: apostrophes, `-`, `.` and `:`.
    static func isConnector(_ u: Unicode.Scalar) -> Bool {
        isApostrophe(u) || u == "-" || u == "." || u == ":"
    }

    /// `'` and `’`, which belong to a word between its letters (`don't`, `O’Neil`).
    static func isApostrophe(_ u: Unicode.Scalar) -> Bool {
        u == "'" || u == "\u{2019}"
    }

    /// Whether a word is one the dictionaries are asked about: two letters or more, no
    /// digit or `_` (`v2`, `snake_case`), and no capital but the first letter
    /// (`camelCase`, `ALLCAPS`, `HTTPServer` and `iPhone` are identifiers or names).
    static func isCheckable(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        guard word.count >= 2 else { return false }
        var first = true
        for u in word {
            if u == "_" { return false }
            let v = u.value
            if v < 0x80 {
                if v >= 0x30 && v <= 0x39 { return false }
                if !first && v >= 0x41 && v <= 0x5A { return false }
            } else {
                switch u.properties.generalCategory {
                case .decimalNumber, .letterNumber, .otherNumber: return false
                case .uppercaseLetter, .titlecaseLetter: if !first { return false }
                default: break
                }
            }
            first = false
        }
        return true
    }
}
