/// One laid-out frame: the cells to draw, the scroll state to keep for the next frame,
/// and the map the mouse needs.
public struct Frame: Sendable {
    public var screen: Screen
    /// The app stores this in its `EditorView` and passes it to the next layout.
    public var viewport: Viewport
    public var map: LayoutMap
    /// What changed since the frame before it (`FrameLayout.frame(for:view:width:height:after:)`);
    /// everything, for a frame laid out on its own.
    public var damage: ScreenDamage = .full
    /// What the frame was laid out from, when the next frame may start from it (nil while
    /// the chooser, an overlay, a prompt, find matches, a message on more than one row or
    /// the too-small notice is up: the next one starts over).
    var basis: FrameBasis?
    /// Made from the last frame by `FrameUpdate` rather than laid out whole (for tests).
    var isUpdate = false
}

/// The inputs a frame was laid out from, beyond the rows in its map: the next frame
/// compares its own with these to tell which rows it must draw again.
struct FrameBasis: Sendable {
    var version: Int
    var width: Int
    var height: Int
    var tabWidth: Int
    var fileName: String?
    var isModified: Bool
    var isReadOnly: Bool
    var mentionCount: Int
    /// The cursor's line and column, which the title shows.
    var line: Int
    var column: Int
    var message: String
    var help: [KeyHelp.Entry]
    var roles: RoleSpans
}
