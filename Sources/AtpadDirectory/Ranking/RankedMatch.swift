import AtpadCore

/// One ranked result together with why and where it ranked.
public struct RankedMatch: Hashable, Sendable {
    /// The entry's position in directory order.
    public var position: Int
    /// The class it matched in; nil for the empty query, which lists everything.
    public var matchClass: MatchClass?
    /// The entity and the ranges of its name that matched.
    public var candidate: Candidate
}
