import AtpadCore

/// A document value the draft writer can take on the loop's thread and encode on its own
/// queue: copying it must be cheap (the loop pays for the copy), encoding may not be.
public protocol DraftContent: Sendable {
    /// The document in atpad markup.
    func draftMarkup() -> String
}

extension TextStorage: DraftContent {
    /// Copy-on-write chunks make the copy O(1); walking them happens on the writer's queue.
    public func draftMarkup() -> String { AtpadMarkup.encode(marked) }
}

extension MarkedText: DraftContent {
    public func draftMarkup() -> String { AtpadMarkup.encode(self) }
}
