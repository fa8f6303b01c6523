/// git's files in the editor (docs/git.md): what is git's — its comment lines, and in a
/// commit message the scissors line and the diff under it — where no search starts and
/// replace does not reach, and what the front end draws them in (``GitSyntax``).
extension Editor {
    /// Whether `position` is in git's part of a git file: on a comment line, or at or after
    /// the scissors line.
    public func isGitsText(_ position: Int) -> Bool {
        guard let git = config.git else { return false }
        if let s = gitScissors, position >= s { return true }
        return startsLine(at: storage.lineStart(position), with: git.comment.unicodeScalars)
    }

    /// Whether the text at `position` starts with `prefix`.
    private func startsLine(at position: Int, with prefix: String.UnicodeScalarView) -> Bool {
        var p = position
        for s in prefix {
            guard storage.scalar(at: p) == s else { return false }
            p += 1
        }
        return true
    }

    /// The line from `start` to its end, without the line break.
    private func line(at start: Int) -> Substring {
        Substring(storage.slice(start ..< storage.lineEnd(start)))
    }

    /// The start of the line after the one holding `position`, or nil on the last line.
    private func nextLine(after position: Int) -> Int? {
        let end = storage.lineEnd(position)
        let breakLength = storage.lineBreakLength(at: end)
        return breakLength == 0 ? nil : end + breakLength
    }

    /// The scissors line's start at or after line start `from` and before `limit`, or nil.
    private func firstScissors(from: Int, before limit: Int = .max) -> Int? {
        guard let git = config.git, git.kind == .message else { return nil }
        let prefix = (git.comment + " " + GitFile.scissorsText).unicodeScalars
        var p: Int? = from
        while let start = p, start < min(limit, storage.count) {
            if startsLine(at: start, with: prefix) { return start }
            p = nextLine(after: start)
        }
        return nil
    }

    /// Finds the scissors line of the whole text (a commit message; nil elsewhere).
    mutating func findGitScissors() {
        gitScissors = firstScissors(from: 0)
    }

    /// Follows the scissors line through `edits` (already applied): it moves with the
    /// text before it, an edit on or after it looks again from the edited line, and a
    /// line an edit touched may have become one.
    mutating func updateGitScissors(_ edits: [ChangeSet.Edit], delta: Int) {
        guard config.git?.kind == .message, let first = edits.first, let last = edits.last else { return }
        if let s = gitScissors, last.range.upperBound >= s {
            gitScissors = firstScissors(from: storage.lineStart(min(first.start, s)))
            return
        }
        var found = gitScissors.map { $0 + delta }
        for edit in edits {
            let from = storage.lineStart(edit.start)
            let through = storage.lineEnd(edit.start + edit.length)
            if let s = firstScissors(from: from, before: through + 1) {
                found = min(found ?? s, s)
                break
            }
        }
        gitScissors = found
    }

    /// The subject line of a commit message: the first line that is neither blank nor a
    /// comment (git strips those before it), as its start; nil without one or elsewhere.
    private func subjectStart() -> Int? {
        guard let git = config.git, git.kind == .message else { return nil }
        var p: Int? = 0
        while let start = p, start < (gitScissors ?? storage.count) {
            let text = line(at: start)
            if !git.isComment(text), text.contains(where: { $0 != " " && $0 != "\t" }) { return start }
            p = nextLine(after: start)
        }
        return nil
    }

    /// A commit message's subject length in characters and its limit (`[git] subject`),
    /// for the title bar; nil for every other file.
    public var gitSubject: (length: Int, limit: Int)? {
        guard config.git?.kind == .message else { return nil }
        let length = subjectStart().map { line(at: $0).count } ?? 0
        return (length, config.subjectLimit)
    }

    /// What git's parts of the lines reaching `range` are, as sorted, disjoint runs of
    /// document positions: comment lines, the diff under the scissors, the marks of the
    /// message's shape, a rebase list's commands, names and subjects.
    public func gitRuns(in range: Range<Int>) -> [(range: Range<Int>, kind: GitSyntax.Kind)] {
        guard let git = config.git, storage.count > 0 else { return [] }
        let subject = subjectStart()
        let secondLine = subject.flatMap { nextLine(after: $0) }
        var runs: [(range: Range<Int>, kind: GitSyntax.Kind)] = []
        var p: Int? = storage.lineStart(range.lowerBound)
        while let start = p, start < max(range.upperBound, range.lowerBound + 1), start <= storage.count {
            let text = line(at: start)
            let end = start + text.unicodeScalars.count
            if git.isComment(text) {
                if end > start { runs.append((start ..< end, .comment)) }
            } else if let s = gitScissors, start >= s {
                if let kind = GitSyntax.diffKind(text), end > start { runs.append((start ..< end, kind)) }
            } else if git.kind == .rebaseList {
                runs += GitSyntax.rebaseRuns(text).map { (start + $0.range.lowerBound ..< start + $0.range.upperBound, $0.kind) }
            } else if start == subject {
                runs += overflow(text, from: start, past: config.subjectLimit,
                                 strongly: max(config.subjectLimit, config.bodyWidth))
            } else if start == secondLine, text.contains(where: { $0 != " " && $0 != "\t" }) {
                runs.append((start ..< end, .warning))
            } else if let subject, start > subject {
                runs += overflow(text, from: start, past: config.bodyWidth, strongly: nil)
            }
            p = nextLine(after: start)
        }
        return runs
    }

    /// The runs marking the characters of `text` (a line starting at `start`) past
    /// `limit`, and past `strongly` more strongly.
    private func overflow(_ text: Substring, from start: Int, past limit: Int,
                          strongly: Int?) -> [(range: Range<Int>, kind: GitSyntax.Kind)] {
        guard text.count > limit else { return [] }
        var runs: [(range: Range<Int>, kind: GitSyntax.Kind)] = []
        var offset = 0, characters = 0
        var overflowStart: Int?, strongStart: Int?
        for c in text {
            if characters == limit { overflowStart = offset }
            if let strongly, characters == strongly { strongStart = offset }
            offset += c.unicodeScalars.count
            characters += 1
        }
        if let o = overflowStart {
            runs.append((start + o ..< start + (strongStart ?? offset), .overflow))
        }
        if let s = strongStart { runs.append((start + s ..< start + offset, .overflowStrong)) }
        return runs
    }
}
