extension FrameLayout {
    /// Whether a `width`×`height` terminal only shows the "terminal too small" notice (the
    /// app then ignores every key but Ctrl-Q, docs/editor.md).
    public static func isTooSmall(width: Int, height: Int) -> Bool {
        TooSmallNotice.applies(width: width, height: height)
    }
}
