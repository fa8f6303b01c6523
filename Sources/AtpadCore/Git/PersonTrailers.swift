/// git's trailers that name a person (docs/git.md, "People in trailers"): in a commit
/// message, `@` right after `Co-authored-by: `, `Signed-off-by: `, `Reviewed-by: ` and
/// the like at the start of a line searches the `@` directory, and picking a person
/// inserts `Name <email>` as plain text — what git, GitHub and the kernel's tools read.
///
/// A search of this kind shows each result's email as its detail; a person without an
/// email is shown with the reason instead and cannot be picked (Enter does nothing), since
/// a trailer without an address credits no one.
public struct PersonTrailers: Equatable, Sendable {
    /// The trailers git itself, the Linux kernel and GitHub use for people.
    public static let standard = ["Co-authored-by", "Signed-off-by", "Reviewed-by", "Acked-by", "Tested-by",
                                  "Reported-by", "Suggested-by", "Helped-by", "Cc"]

    /// The keys, lower case (git compares trailer keys without regard to case).
    public let keys: [String]

    /// The standard trailers and `extra` (the config's `[git] person_trailers`).
    public init(extra: [String] = []) {
        var keys: [String] = []
        for key in Self.standard + extra where !keys.contains(key.lowercased()) { keys.append(key.lowercased()) }
        self.keys = keys
    }

    /// Whether `key` can be a trailer's key: letters, digits and `-`, starting with a letter
    /// or digit (what `git interpret-trailers` reads as one).
    public static func isValidKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.isASCII, CharacterClass.isWord(first), first != "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "-" || (CharacterClass.isWord($0) && $0 != "_")) }
    }

    /// The detail of a person who cannot be credited.
    public static let noEmail = "no email address: cannot be named in a trailer"

    /// Whether `line` — the text from the start of a line up to a trigger — is a person
    /// trailer's key and the space after it: a key in any case, `:`, then one or more
    /// spaces or tabs.
    public func isTrailerKey(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":"), keys.contains(line[..<colon].lowercased()) else { return false }
        let rest = line[line.index(after: colon)...]
        return !rest.isEmpty && rest.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// The trailer's value for `entity`: `Name <email>`; nil without an email.
    public static func trailerValue(_ entity: Entity) -> String? {
        guard let email = entity.email, !email.isEmpty else { return nil }
        return "\(entity.name) <\(email)>"
    }

    /// `candidate` as a trailer search shows it: an insert completion of its trailer value
    /// with the email as detail, or, without an email, no insert and the reason.
    static func candidate(_ candidate: Candidate) -> Candidate {
        var c = candidate
        c.entity.insert = trailerValue(candidate.entity)
        c.entity.detail = c.entity.insert == nil ? noEmail : candidate.entity.email
        return c
    }
}

extension PersonTrailers {
    /// The trailer `git commit -s` adds: `Signed-off-by: IDENT`.
    public static func signOffLine(_ ident: String) -> String { "Signed-off-by: \(ident)" }

    /// Where `git commit -s` would add `line` to the message `text`, and what it inserts
    /// there (docs/git.md, "Signing off"): after the message's last line — its lines
    /// before the comment lines git strips (`commentPrefix`) — on a line of its own when
    /// that last paragraph is a block of trailers (not the subject), else after a blank
    /// line; before everything in a message that has no line yet. Nil when the last
    /// trailer is `line` already.
    public static func signOff(_ line: String, in text: String, commentPrefix: String = "#") -> (at: Int, insert: String)? {
        // Each line with the scalar offset of its end.
        var lines: [(text: Substring, end: Int)] = []
        var offset = 0
        for piece in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var content = piece
            if content.hasSuffix("\r") { content = content.dropLast() }
            lines.append((content, offset + content.unicodeScalars.count))
            offset += piece.unicodeScalars.count + 1
        }
        func isBlank(_ s: Substring) -> Bool { s.allSatisfy { $0 == " " || $0 == "\t" } }
        func isComment(_ s: Substring) -> Bool { s.hasPrefix(commentPrefix) }
        guard let last = lines.lastIndex(where: { !isBlank($0.text) && !isComment($0.text) }) else {
            return (0, "\n\n" + line)
        }
        var first = last
        while first > 0, !isBlank(lines[first - 1].text), !isComment(lines[first - 1].text) { first -= 1 }
        let isSubject = !lines[..<first].contains { !isBlank($0.text) && !isComment($0.text) }
        let isTrailers = !isSubject && lines[first ... last].allSatisfy { isTrailer($0.text) }
        if isTrailers, lines[last].text.trimmingTrailingBlanks == Substring(line) { return nil }
        return (lines[last].end, (isTrailers ? "\n" : "\n\n") + line)
    }

    /// Whether `line` reads as a trailer: `Key: value`, the key letters, digits and `-`.
    static func isTrailer(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        return isValidKey(String(line[..<colon]))
    }
}

private extension Substring {
    var trimmingTrailingBlanks: Substring {
        var s = self
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
