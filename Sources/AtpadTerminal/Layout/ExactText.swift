#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        guard a.string.utf8.count == b.string.utf8.count else { return false }
        var x = a.string
        var y = b.string
        // Native strings are contiguous: one memcmp, not a byte-by-byte walk.
        return x.withUTF8 { p in y.withUTF8 { q in p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0 } }
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
