import AtpadCore

/// Remembers soft-wrapped lines between frames: a keystroke changes one line, so the
/// next frame re-wraps only that one. Transparent — the layout stays a function of the
/// editor and the view — and safe to use from several threads (tests lay out in parallel).
final class WrapCache: Sendable {
    struct Key: Hashable {
        var text: ExactText
        var width: Int
        var tabWidth: Int
        var atomic: [Range<Int>]
    }

    static let shared = WrapCache()

    /// Two generations of a few screens of lines each: the lines on screen stay cached
    /// while typing.
    private let lines = GenerationCache<Key, [SoftWrap.Row]>(capacity: 256)

    /// The rows of `text`, wrapped now or earlier.
    func rows(_ text: String, width: Int, tabWidth: Int, atomic: [Range<Int>]) -> [SoftWrap.Row] {
        // Long texts (a window of a huge line) are rarely seen twice: not cached.
        guard text.utf8.count <= 4096 else {
            return SoftWrap.rows(text, width: width, tabWidth: tabWidth, atomic: atomic)
        }
        return lines.value(for: Key(text: ExactText(text), width: width, tabWidth: tabWidth, atomic: atomic)) {
            SoftWrap.rows(text, width: width, tabWidth: tabWidth, atomic: atomic)
        }
    }
}
