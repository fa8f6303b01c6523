/// The cells of short texts drawn outside the document (names, details, the title, the
/// help bar), which come back frame after frame.
enum VisibleTextCache {
    struct Key: Hashable {
        var text: ExactText
        var role: Role
        var emphasis: [Range<Int>]
        var emphasisRole: Role?
    }

    static let shared = GenerationCache<Key, [ScreenCell]>(capacity: 512)
    /// Longer texts (a message, say) are converted each time.
    static let longest = 256
}
