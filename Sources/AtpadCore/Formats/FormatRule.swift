/// Which format a file is read and written in when `-f` / `--from` does not say (SPEC §7):
/// its name decides, in this order — the `.atpad` and `.json` extensions, then the config's
/// `[formats]` patterns (first match in the file's order), then the config's `format`, then
/// `github` for everything else (Markdown, text, git's `COMMIT_EDITMSG`, `git-rebase-todo`,
/// no extension).
///
/// atpad markup reads `\\` as one backslash and `@[x](y)` as a mention, so a file atpad did
/// not name `.atpad` is never read as markup: `github` keeps every byte it does not
/// understand, and it is what people put in `core.editor` for. Opening, Save as and
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
    /// The config's `format`, for files no extension or pattern decides.
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
    /// format `-f` / `--from` gave, which wins over everything.
    public func format(of path: String?, named: DocumentFormat? = nil) -> DocumentFormat {
        if let named { return named }
        if let path {
            if let implied = DocumentFormat.implied(byPath: path) { return implied }
            let absolute = path.hasPrefix("/") || currentDirectory == nil ? path : currentDirectory! + "/" + path
            if let pattern = patterns.first(where: { FormatRule.matches(path: absolute, glob: $0.glob) }) {
                return pattern.format
            }
        }
        return fallback ?? .github
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

extension DocumentFormat {
    /// The format a file's extension names whatever else is configured: `.atpad` is atpad
    /// markup, `.json` is `json` (any case); nil for every other name.
    public static func implied(byPath path: String) -> DocumentFormat? {
        let name = FormatRule.fileName(path).lowercased()
        if name.hasSuffix(".atpad"), name.count > ".atpad".count { return .atpad }
        if name.hasSuffix(".json"), name.count > ".json".count { return .json }
        return nil
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
