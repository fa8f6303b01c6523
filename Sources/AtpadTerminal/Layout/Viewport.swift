/// The scroll state of the text area: the document position where the first visible
/// screen row starts.
///
/// The layout reads it, scrolls it as little as possible to keep the cursor visible, and
/// hands the new one back in `Frame.viewport` for the app to keep. A viewport the app
/// builds itself (`Viewport(top:)`) may be any position: the layout first moves it back
/// to the start of the row that holds it.
public struct Viewport: Hashable, Sendable {
    /// Document position (Unicode-scalar offset) of the first visible row's start.
    public var top: Int

    /// What the layout knew when it made `top`: it lets the next frame skip checking
    /// that `top` is still a row start (which in a long line means wrapping back from the
    /// line's start) when nothing before the end of the top row can have changed.
    var verified: Stamp?

    struct Stamp: Hashable, Sendable {
        var version: Int
        var width: Int
        var tabWidth: Int
        var top: Int
        /// The end of the first visible row: edits at or after it cannot move its start.
        var topRowEnd: Int
        /// The lowest position the editor could edit from in that state (cursor, selection,
        /// search trigger, selected mention).
        var editFloor: Int
        /// A hash of the text just before `top` through `topRowEnd`, which an edit before
        /// the top row shifts or changes.
        var fingerprint: Int
    }

    public init(top: Int = 0) {
        self.top = top
        verified = nil
    }

    init(top: Int, verified: Stamp) {
        self.top = top
        self.verified = verified
    }
}
