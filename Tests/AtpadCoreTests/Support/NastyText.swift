import AtpadCore
@_exported import AtpadTestSupport

/// Pieces of text that stress grapheme handling: combining marks, ZWJ emoji, flags, CJK,
/// right-to-left script, triggers, markup characters, backticks, whitespace, CR LF line
/// breaks and lone CRs (docs/editor.md).
let nastyPieces: [String] = [
    "a", "b", "z", "é", "e\u{301}", "👩‍💻", "🇫🇷", "❤️", "王", "伟", "ש", "ל", "م",
    " ", " ", "\n", "\r\n", "\r", "\t", "@", "#", "(", ")", "[", "]", "\\", "`", ".", "|", "ﬁ", "\u{200D}",
]

/// Entities whose names and ids are hard too.
let nastyPeople: [Entity] = [
    Entity(id: "1", name: "John Doe"),
    Entity(id: "a](b)", name: "Zoë [x] Ørsted"),
    Entity(id: "\\", name: "王伟"),
    Entity(id: "e", name: "👩‍💻 Dev"),
    Entity(id: "f", name: "Ab\u{301}c"),
]
