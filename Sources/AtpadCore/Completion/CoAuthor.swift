/// Git's co-author trailers (docs/people.md, "Credit co-authors in a commit message"): in a
/// commit message, `@` right after `Co-authored-by: ` at the start of a line searches the
/// `@` directory, and picking a person inserts `Name <email>` as plain text — what git and
/// GitHub read as a co-author.
///
/// A search of this kind shows each result's email as its detail; a person without an
/// email is shown with the reason instead and cannot be picked (Enter does nothing), since
/// a trailer without an address credits no one.
public enum CoAuthor {
    /// Whether the file at `path` is a git commit or merge message (`COMMIT_EDITMSG`,
    /// `MERGE_MSG`, in any folder), where co-author trailers are typed.
    public static func isCommitMessage(path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return name == "COMMIT_EDITMSG" || name == "MERGE_MSG"
    }

    /// The detail of a person who cannot be credited.
    public static let noEmail = "no email address: cannot be a co-author"

    /// Whether `line` — the text from the start of a line up to a trigger — is a co-author
    /// trailer's key and the space after it: `Co-authored-by:` in any case (git compares
    /// trailer keys so), then one or more spaces or tabs.
    public static func isTrailerKey(_ line: Substring) -> Bool {
        let key = "co-authored-by:"
        guard line.count > key.count, line.prefix(key.count).lowercased() == key else { return false }
        return line.dropFirst(key.count).allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// The trailer's value for `entity`: `Name <email>`; nil without an email.
    public static func trailerValue(_ entity: Entity) -> String? {
        guard let email = entity.email, !email.isEmpty else { return nil }
        return "\(entity.name) <\(email)>"
    }

    /// `candidate` as a co-author search shows it: an insert completion of its trailer
    /// value with the email as detail, or, without an email, no insert and the reason.
    static func candidate(_ candidate: Candidate) -> Candidate {
        var c = candidate
        c.entity.insert = trailerValue(candidate.entity)
        c.entity.detail = c.entity.insert == nil ? noEmail : candidate.entity.email
        return c
    }
}
