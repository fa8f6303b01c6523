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

    /// The document version and geometry for which `top` is known to be a row start, so
    /// the next frame of an unchanged document need not wrap backwards to check it.
    var verified: Stamp?

    struct Stamp: Hashable, Sendable {
        var version: Int
        var width: Int
        var tabWidth: Int
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
