/// One of the files git opens in its editor, read as git reads it (docs/git.md): a commit,
/// merge, tag or squash message, or a rebase list. Lines that start with git's comment
/// string are git's — it strips them — and so is everything from the scissors line
/// `git commit -v` writes above the staged diff; the rest is the message (or the list).
///
/// What is git's is never read as Markdown, searched for triggers or decoded: it is drawn
/// in roles of its own (``GitSyntax``) and written back byte for byte.
public struct GitFile: Hashable, Sendable {
    /// Which of git's files.
    public enum Kind: Hashable, Sendable {
        /// `COMMIT_EDITMSG`, `MERGE_MSG`, `TAG_EDITMSG`, `SQUASH_MSG`.
        case message
        /// `git-rebase-todo`, the list `git rebase -i` opens.
        case rebaseList
    }

    public var kind: Kind
    /// The string that starts git's comment lines: `core.commentChar` / `core.commentString`
    /// (``commentString(configured:in:)``), `#` when neither is set.
    public var comment: String
    public init(kind: Kind, comment: String = "#") {
        self.kind = kind
        self.comment = comment.isEmpty ? "#" : comment
    }

    /// The message files git opens in its editor.
    public static let messageNames: Set<String> = ["COMMIT_EDITMSG", "MERGE_MSG", "TAG_EDITMSG", "SQUASH_MSG"]

    /// Which of git's files `path` is (by its name, in any folder), or nil.
    public static func kind(ofPath path: String) -> Kind? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if messageNames.contains(name) { return .message }
        if name == "git-rebase-todo" { return .rebaseList }
        return nil
    }

    /// What follows the comment string and a space on the scissors line.
    public static let scissorsText = "------------------------ >8 ------------------------"

    /// The characters `core.commentChar = auto` chooses from, in git's order.
    static let autoCandidates: [Character] = ["#", ";", "@", "!", "$", "%", "^", "&", "|", ":"]

    /// The comment string git uses for a file holding `text`, `configured` being the value
    /// of `core.commentChar` / `core.commentString` (nil: unset, `#`). With `auto`, git
    /// picked a character no line of the message starts with and wrote its help in it:
    /// the one its scissors line starts with, else the first character of the file's last
    /// line that starts with one of git's candidates followed by a blank or nothing (git's
    /// help closes the file), else `#`.
    public static func commentString(configured: String?, in text: Substring) -> String {
        guard let configured, !configured.isEmpty else { return "#" }
        guard configured.lowercased() == "auto" else { return configured }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            if let first = line.first, autoCandidates.contains(first),
               line.dropFirst().hasPrefix(" " + scissorsText) { return String(first) }
        }
        for line in lines.reversed() {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            guard let first = line.first else { continue }
            let rest = line.dropFirst()
            if autoCandidates.contains(first), rest.isEmpty || rest.first == " " || rest.first == "\t" {
                return String(first)
            }
        }
        return "#"
    }

    /// Whether `line` (without its line break) is one of git's comment lines: it starts
    /// with the comment string, at its first column (git's `strbuf_stripspace`).
    public func isComment(_ line: Substring) -> Bool {
        line.hasPrefix(comment)
    }

    /// The parts of `bytes` that are git's, as byte ranges, sorted: each comment line with
    /// its line break, and everything from the scissors line on.
    public func gitRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let comment = Array(comment.utf8)
        let scissors = comment + Array((" " + Self.scissorsText).utf8)
        func starts(_ prefix: [UInt8], at i: Int) -> Bool {
            i + prefix.count <= bytes.count && prefix.indices.allSatisfy { bytes[i + $0] == prefix[$0] }
        }
        var ranges: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            var end = i
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let next = min(end + 1, bytes.count)
            if kind == .message, starts(scissors, at: i) {
                ranges.append(i ..< bytes.count)
                return ranges
            }
            if starts(comment, at: i) {
                if let last = ranges.last, last.upperBound == i {
                    ranges[ranges.count - 1] = last.lowerBound ..< next
                } else {
                    ranges.append(i ..< next)
                }
            }
            i = next
        }
        return ranges
    }
}
