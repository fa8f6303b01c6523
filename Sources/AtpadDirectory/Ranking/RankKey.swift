import AtpadCore

/// What orders results: class, then (within class 1) an exact word or handle match, then
/// higher frecency, then shorter name, then directory order: `<` ranks before.
struct RankKey: Comparable {
    var matchClass: UInt8
    var frecency: Double
    var length: Int32
    var position: Int32
    /// Class 1 only: a query word is a whole name word or the handle (``Buffers/isExact``).
    var exact: Bool = false

    /// Whether `a` ranks before `b`.
    static func < (a: RankKey, b: RankKey) -> Bool {
        if a.matchClass != b.matchClass { return a.matchClass < b.matchClass }
        if a.exact != b.exact { return a.exact }
        if a.frecency != b.frecency { return a.frecency > b.frecency }
        if a.length != b.length { return a.length < b.length }
        return a.position < b.position
    }
}
