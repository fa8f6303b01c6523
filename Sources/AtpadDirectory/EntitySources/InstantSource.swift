import AtpadCore

/// A source that can answer on the caller's thread, at once: a directory held in memory.
///
/// The editor answers such queries before it takes the next key, so keys that arrive in
/// one burst end in the state `atpad replay` gives for them (docs/behaviour.md, "Typing speed").
public protocol InstantSource: EntitySource {
    /// The whole answer to `query` now, or nil when it cannot be had at once (a directory
    /// still loading); then the query goes through ``EntitySource/search(_:trigger:)``.
    func answerNow(_ query: String) -> [Candidate]?
}

extension FileDirectory: InstantSource {
    public func answerNow(_ query: String) -> [Candidate]? {
        rank(query)
    }
}

extension LoadingDirectory: InstantSource {
    public func answerNow(_ query: String) -> [Candidate]? {
        instantNow?.answerNow(query)
    }
}
