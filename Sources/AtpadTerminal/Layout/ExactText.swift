/// A string as a cache key: equal only to the same UTF-8 bytes. Swift's `String` equality
/// is canonical equivalence ("é" == "e\u{301}"), but the two wrap into rows of different
/// scalar offsets and draw as different bytes, so a cache keyed by `String` would hand one
/// the other's cells.
struct ExactText: Hashable, Sendable {
    var string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (a: ExactText, b: ExactText) -> Bool {
        a.string.utf8.elementsEqual(b.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
