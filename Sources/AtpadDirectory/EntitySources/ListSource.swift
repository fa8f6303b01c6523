import AtpadCore
import AtpadSystem

/// A source that can hand over its whole list at once (asked with an empty query), for
/// a ``CachedSource`` (`cache` in docs/directories.md, "Connect your directory").
protocol ListSource: EntitySource {
    /// Every entity the source lists: up to `items` of them, within `timeout`, following
    /// every page. Nil-free: cancellation ends it with what was read.
    func list(items: Int, timeout: Duration, cancellation: Cancellation) throws(SourceError) -> ListAnswer
    /// What identifies the source's list (URL, method, body, mapping; never a header value).
    var listKey: String { get }
}

/// A whole list, and why it stopped short when it did.
struct ListAnswer: Sendable {
    var entities: [Entity]
    /// Set when the list is not the whole of it (`stopped at 100000 items`).
    var stoppedShort: String?
}
