/// What the front end draws git's files in (docs/git.md, "How git's files are drawn"):
/// git's comment lines, the diff under a commit message's scissors line, the shape of the
/// message (a subject past its limit, a second line that is not blank, body lines past the
/// body width) and the three parts of a rebase list's lines. Roles are the front end's:
/// this says only what each run is.
public enum GitSyntax {
    public enum Kind: Hashable, Sendable {
        /// A line git strips (its comment string first), the scissors line among them.
        case comment
        /// A diff line under the scissors: added, removed, or a header (`diff --git`,
        /// `index`, `---`, `+++`, `@@`, modes, renames).
        case diffAdded, diffRemoved, diffHeader
        /// Characters of the subject past the subject limit, and past the body width.
        case overflow, overflowStrong
        /// A second line of the message that is not blank (git joins it to the subject).
        case warning
        /// A rebase list line's command word (`pick`, `fixup -C`), object name, and the rest.
        case rebaseCommand, rebaseHash, rebaseSubject
    }

    /// The kind of a diff line (under the scissors) that is not a comment; nil for context.
    public static func diffKind(_ line: Substring) -> Kind? {
        guard let first = line.first else { return nil }
        if line.hasPrefix("+++ ") || line.hasPrefix("--- ") { return .diffHeader }
        switch first {
        case "+": return .diffAdded
        case "-": return .diffRemoved
        case "@" where line.hasPrefix("@@"): return .diffHeader
        case " ": return nil
        default:
            let headers = ["diff --git ", "index ", "new file mode ", "deleted file mode ", "old mode ", "new mode ",
                           "similarity index ", "dissimilarity index ", "rename from ", "rename to ", "copy from ",
                           "copy to ", "Binary files ", "diff --cc ", "diff --combined "]
            return headers.contains(where: { line.hasPrefix($0) }) ? .diffHeader : nil
        }
    }

    /// The rebase list's commands, long and short (git's `sequencer.c`).
    static let rebaseCommands: Set<Substring> = [
        "pick", "p", "reword", "r", "edit", "e", "squash", "s", "fixup", "f", "exec", "x", "break", "b", "drop", "d",
        "label", "l", "reset", "t", "merge", "m", "update-ref", "u", "noop",
    ]

    /// The runs of a rebase list's `line` (not a comment), as scalar offsets in it: the
    /// command word with its `-C`/`-c` option, the object name (or label or ref) after it,
    /// and the rest (the subject git wrote, or an `exec` command). A line whose first word
    /// is no command of git's is left as text.
    public static func rebaseRuns(_ line: Substring) -> [(range: Range<Int>, kind: Kind)] {
        let scalars = Array(line.unicodeScalars)
        func isBlank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }
        var i = 0
        while i < scalars.count, isBlank(scalars[i]) { i += 1 }
        func word(from start: Int) -> Range<Int> {
            var e = start
            while e < scalars.count, !isBlank(scalars[e]) { e += 1 }
            return start ..< e
        }
        func skipBlanks(_ p: Int) -> Int {
            var p = p
            while p < scalars.count, isBlank(scalars[p]) { p += 1 }
            return p
        }
        let commandWord = word(from: i)
        let command = Substring(String(String.UnicodeScalarView(scalars[commandWord])))
        guard !commandWord.isEmpty, rebaseCommands.contains(command) else { return [] }
        var runs: [(range: Range<Int>, kind: Kind)] = []
        var commandEnd = commandWord.upperBound
        var next = skipBlanks(commandEnd)
        // `fixup -C`, `merge -c <commit>`: the option belongs to the command word.
        if ["fixup", "f", "merge", "m"].contains(command), next < scalars.count, scalars[next] == "-" {
            let option = word(from: next)
            commandEnd = option.upperBound
            next = skipBlanks(commandEnd)
        }
        runs.append((commandWord.lowerBound ..< commandEnd, .rebaseCommand))
        guard next < scalars.count else { return runs }
        if command == "exec" || command == "x" {
            runs.append((next ..< scalars.count, .rebaseSubject))
            return runs
        }
        let object = word(from: next)
        runs.append((object, .rebaseHash))
        let rest = skipBlanks(object.upperBound)
        if rest < scalars.count { runs.append((rest ..< scalars.count, .rebaseSubject)) }
        return runs
    }
}
