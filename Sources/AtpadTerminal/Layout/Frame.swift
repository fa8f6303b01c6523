/// One laid-out frame: the cells to draw, the scroll state to keep for the next frame,
/// and the map the mouse needs.
public struct Frame: Sendable {
    public var screen: Screen
    /// The app stores this in its `EditorView` and passes it to the next layout.
    public var viewport: Viewport
    public var map: LayoutMap
}
