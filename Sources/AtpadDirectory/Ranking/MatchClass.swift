import AtpadCore

/// How an entry matched a query (docs/directories.md, "Ranking and frecency"); a lower raw
/// value ranks first.
public enum MatchClass: Int, Sendable, Comparable, CaseIterable {
    /// A name word or the handle starts with the query; several query words start
    /// different name words, in order.
    case prefix = 1
    /// The query is the initials of two or more consecutive name words (`jd` → John Doe).
    case initials = 2
    /// The query is a substring of the name or the handle (how CJK names match).
    case substring = 3
    /// The query's characters, spaces aside, appear in order in the name or the handle.
    case fuzzy = 4

    public static func < (lhs: MatchClass, rhs: MatchClass) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
