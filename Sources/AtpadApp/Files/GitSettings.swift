import AtpadCore
import AtpadDirectory

/// What atpad asks git when it is git's editor (docs/git.md): the comment string of the
/// repository's config and the committer `git commit -s` signs off as. Each is one run of
/// `git`, made only for git's own files.
enum GitSettings {
    /// The git file `path` is, read as git reads it: its kind by name, its comment string
    /// from `core.commentChar` / `core.commentString` (the one set last wins, as in git;
    /// `auto` looks at `bytes`). Nil for any other file.
    static func file(path: String?, bytes: [UInt8]?, environment: [String: String]) -> GitFile? {
        guard let path, let kind = GitFile.kind(ofPath: path) else { return nil }
        let text = String(decoding: bytes ?? [], as: UTF8.self)
        return GitFile(kind: kind, comment: GitFile.commentString(configured: commentSetting(environment), in: text[...]))
    }

    /// The value of `core.commentChar` or `core.commentString`, whichever git's config
    /// sets last; nil when neither is set or git cannot say.
    static func commentSetting(_ environment: [String: String]) -> String? {
        guard let output = run(["git", "config", "--get-regexp", #"^core\.comment(char|string)$"#], environment) else {
            return nil
        }
        // `core.commentchar ;` — the name, a space, the value (which may hold spaces).
        guard let last = output.split(separator: "\n").last, let space = last.firstIndex(of: " ") else { return nil }
        let value = String(last[last.index(after: space)...])
        return value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? nil : value
    }

    /// git's committer, `Name <email>`, as `git commit -s` signs off with
    /// (`git var GIT_COMMITTER_IDENT`, without its date); nil when git has none.
    static func committer(_ environment: [String: String]) -> String? {
        guard let text = run(["git", "var", "GIT_COMMITTER_IDENT"], environment),
              let close = text.firstIndex(of: ">") else { return nil }
        let ident = String(text[...close])
        // Never a control character into the text (a name is the person's to write).
        return ident.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? nil : ident
    }

    /// What `arguments` print when they exit 0 in time, as UTF-8; nil otherwise.
    private static func run(_ arguments: [String], _ environment: [String: String]) -> String? {
        let reply = PostTransport.perform(.program(arguments: arguments, stdin: []), timeout: .seconds(2),
                                          environment: environment)
        guard case let .program(0?, output, _) = reply else { return nil }
        return String(validating: output, as: UTF8.self)
    }
}
