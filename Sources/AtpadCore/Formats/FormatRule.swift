/// Which format a file is read and written in when `-f` / `--from` does not say
/// (docs/formats.md, "Which format a file is in"): its name decides, in this order —
/// `.atpad` is atpad markup; `.json` is `json` when it holds atpad's comment object, any
/// other JSON `text`; the config's `[formats]` patterns (first match in the file's order);
/// Markdown and the message files of git and Jujutsu are `github`; a comment whose name
/// says nothing (no FILE, stdin, `.txt`) takes the config's `format`, else `github`; and
/// everything else — source code, data, patches, git's rebase list, files without an
/// extension — is `text`, whose bytes nothing decodes.
///
/// atpad markup reads `\\` as one backslash and `@[x](y)` as a mention, and `github` reads
/// `@login` as a person, so neither is assumed for a file that is not a comment: atpad is
/// people's `$EDITOR`, and a byte they did not type must not change. Opening, Save as and
/// `render --from` all ask this one rule.
public struct FormatRule: Hashable, Sendable {
    /// A config `[formats]` entry: files whose name matches `pattern` are in `format`.
    public struct Pattern: Hashable, Sendable {
        /// A glob: `*` (any run of characters but `/`), `?` (one character but `/`),
        /// `[abc]`, `[a-z]`, `[!abc]`. A pattern without `/` is matched against the file's
        /// name; one starting with `/` against its absolute path; any other with a `/`
        /// against the end of its absolute path, from a folder on (`chat/*` matches
        /// `/home/ana/chat/today`).
        public var glob: String
        public var format: DocumentFormat

        public init(glob: String, format: DocumentFormat) {
            self.glob = glob
            self.format = format
        }
    }

    /// The config's `[formats]` patterns, in the file's order.
    public var patterns: [Pattern]
    /// The config's `format`, for comments whose name says nothing (no FILE, stdin, `.txt`).
    public var fallback: DocumentFormat?
    /// What a relative path is relative to, for the patterns with a `/` (nil: paths are
    /// taken as given).
    public var currentDirectory: String?

    public init(patterns: [Pattern] = [], fallback: DocumentFormat? = nil, currentDirectory: String? = nil) {
        self.patterns = patterns
        self.fallback = fallback
        self.currentDirectory = currentDirectory
    }

    /// The format of `path` (nil: a comment with no file yet, or stdin), `named` being the
    /// format `-f` / `--from` gave, which wins over everything. `contents` are the file's
    /// bytes when it exists: a `.json` file that does not hold atpad's comment object
    /// (`package.json`) is `text`.
    public func format(of path: String?, named: DocumentFormat? = nil, contents: [UInt8]? = nil) -> DocumentFormat {
        if let named { return named }
        guard let path else { return fallback ?? .github }
        let name = FormatRule.fileName(path)
        let lowered = name.lowercased()
        if FormatRule.hasExtension(lowered, "atpad") { return .atpad }
        if FormatRule.hasExtension(lowered, "json") {
            return contents.map(MentionJSON.holdsComment) == false ? .text : .json
        }
        let absolute = path.hasPrefix("/") || currentDirectory == nil ? path : currentDirectory! + "/" + path
        if let pattern = patterns.first(where: { FormatRule.matches(path: absolute, glob: $0.glob) }) {
            return pattern.format
        }
        if FormatRule.isMessage(name: name, lowered: lowered) { return .github }
        if FormatRule.hasExtension(lowered, "txt") { return fallback ?? .github }
        return .text
    }

    /// Whether a file called `name` is a comment or message written in Markdown: `.md`,
    /// `.markdown`, git's `COMMIT_EDITMSG`, `MERGE_MSG`, `TAG_EDITMSG`, `SQUASH_MSG`, and
    /// Jujutsu's `*.jjdescription`.
    private static func isMessage(name: String, lowered: String) -> Bool {
        if GitFile.messageNames.contains(name) { return true }
        return hasExtension(lowered, "md") || hasExtension(lowered, "markdown") || hasExtension(lowered, "jjdescription")
    }

    /// Whether `name` (lower case) ends in `.ext` after at least one other character.
    private static func hasExtension(_ name: String, _ ext: String) -> Bool {
        name.utf8.count > ext.utf8.count + 1 && name.hasSuffix("." + ext)
    }

    /// Whether `path` (absolute, for globs with a `/`) matches `glob`: its name alone when
    /// the glob has no `/`, the whole path for a glob starting with `/`, else the path's
    /// end from any folder on.
    public static func matches(path: String, glob: String) -> Bool {
        let matcher = Glob(glob)
        guard glob.contains("/") else { return matcher.matches(Array(fileName(path).unicodeScalars)[...]) }
        let scalars = Array(path.unicodeScalars)
        if glob.hasPrefix("/") { return matcher.matches(scalars[...]) }
        if matcher.matches(scalars[...]) { return true }
        for (i, c) in scalars.enumerated() where c == "/" && matcher.matches(scalars[(i + 1)...]) { return true }
        return false
    }

    /// The last component of `path` (trailing slashes ignored).
    static func fileName(_ path: String) -> String {
        var scalars = Substring(path)
        while scalars.count > 1, scalars.hasSuffix("/") { scalars = scalars.dropLast() }
        if let slash = scalars.lastIndex(of: "/") { scalars = scalars[scalars.index(after: slash)...] }
        return String(scalars)
    }
}

/// A shell-style glob over Unicode scalars, as `fnmatch(3)` with `FNM_PATHNAME` reads one:
/// `*` and `?` never match `/`, `[…]` is a set (`!` or `^` negates it, `a-z` is a range),
/// `\` takes the next character literally.
struct Glob {
    private enum Part {
        case literal(Unicode.Scalar)
        case any
        case star
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    private let parts: [Part]

    init(_ pattern: String) {
        var parts: [Part] = []
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "*":
                if case .star = parts.last {} else { parts.append(.star) }
            case "?":
                parts.append(.any)
            case "\\" where i + 1 < scalars.count:
                i += 1
                parts.append(.literal(scalars[i]))
            case "[":
                if let (set, end) = Glob.set(scalars, from: i + 1) {
                    parts.append(set)
                    i = end
                } else {
                    parts.append(.literal(c))  // an unclosed `[` is itself
                }
            default:
                parts.append(.literal(c))
            }
            i += 1
        }
        self.parts = parts
    }

    /// The set starting after `[` at `from`, and the index of its `]`; nil when unclosed.
    private static func set(_ s: [Unicode.Scalar], from: Int) -> (Part, end: Int)? {
        var i = from
        var negated = false
        if i < s.count, s[i] == "!" || s[i] == "^" {
            negated = true
            i += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while i < s.count {
            if s[i] == "]" && !first { return (.set(ranges, negated: negated), i) }
            first = false
            let low = s[i]
            if i + 2 < s.count, s[i + 1] == "-", s[i + 2] != "]" {
                if low <= s[i + 2] { ranges.append(low ... s[i + 2]) }
                i += 3
            } else {
                ranges.append(low ... low)
                i += 1
            }
        }
        return nil
    }

    func matches(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        matches(parts[...], text)
    }

    private func matches(_ parts: ArraySlice<Part>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var parts = parts, text = text
        while let part = parts.first {
            switch part {
            case .star:
                let rest = parts.dropFirst()
                // Try every split up to the next `/` (a star never crosses one).
                var tail = text
                while true {
                    if matches(rest, tail) { return true }
                    guard let c = tail.first, c != "/" else { return false }
                    tail = tail.dropFirst()
                }
            case let .literal(c):
                guard text.first == c else { return false }
            case .any:
                guard let c = text.first, c != "/" else { return false }
            case let .set(ranges, negated):
                guard let c = text.first, c != "/", ranges.contains(where: { $0.contains(c) }) != negated else { return false }
            }
            parts = parts.dropFirst()
            text = text.dropFirst()
        }
        return text.isEmpty
    }
}
