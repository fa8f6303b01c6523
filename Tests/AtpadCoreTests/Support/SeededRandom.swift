import AtpadCore

/// A seedable generator (SplitMix64) for property tests: every failing case can be
/// replayed from the seed printed with it.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}

/// Pieces of text that stress grapheme handling: combining marks, ZWJ emoji, flags, CJK,
/// right-to-left script, triggers, markup characters, backticks, whitespace.
let nastyPieces: [String] = [
    "a", "b", "z", "é", "e\u{301}", "👩‍💻", "🇫🇷", "❤️", "王", "伟", "ש", "ל", "م",
    " ", " ", "\n", "\t", "@", "#", "(", ")", "[", "]", "\\", "`", ".", "|", "ﬁ", "\u{200D}",
]

/// Entities whose names and ids are hard too.
let nastyPeople: [Entity] = [
    Entity(id: "1", name: "John Doe"),
    Entity(id: "a](b)", name: "Zoë [x] Ørsted"),
    Entity(id: "\\", name: "王伟"),
    Entity(id: "e", name: "👩‍💻 Dev"),
    Entity(id: "f", name: "Ab\u{301}c"),
]
