import CNcursesw

/// How the frame writer draws a cell whose text is more than one printable character on a
/// terminal that does not cluster graphemes (`[terminal] graphemes = "first"`, the
/// default until a terminal says it clusters them): one glyph per spacing code point with
/// its zero-width marks attached, measured with `wcwidth`, as many as fit the cell — an
/// emoji with a skin tone or a ZWJ family shows its first emoji, a flag its two letters.
/// It is what ncurses draws (its `cchar_t` holds one spacing code point and up to four
/// marks), so such terminals show every cell where the layout put it.
enum CellGlyphs {
    /// One glyph: a spacing code point, then its marks.
    struct Glyph: Equatable {
        var characters: [wchar_t]
        var width: Int
    }

    /// At most 4 marks on a glyph (ncurses' CCHARW_MAX of 5 less the spacing one).
    static let maximumMarks = 4

    /// The glyphs to draw for `text` in a cell spanning `columns` columns. Control
    /// characters become `?`, unprintable ones U+FFFD, and a code point that would not fit
    /// the cell is dropped with what follows, so the row never shifts.
    static func glyphs(for text: String, columns: Int) -> [Glyph] {
        guard columns > 0 else { return [] }
        var glyphs: [Glyph] = []
        var used = 0
        for scalar in text.unicodeScalars {
            var code = scalar.value
            var width: Int
            if code < 0x20 || (0x7F...0x9F).contains(code) {
                // Never send a control character (or Esc) to the terminal.
                code = 0x3F
                width = 1
            } else {
                width = Int(wcwidth(wchar_t(bitPattern: code)))
                if width < 0 {
                    code = 0xFFFD
                    width = 1
                }
            }
            if width == 0 {
                if glyphs.isEmpty {
                    // A mark with no base would join the previous cell: give it a space.
                    glyphs.append(Glyph(characters: [0x20], width: 1))
                    used = 1
                }
                if glyphs[glyphs.count - 1].characters.count <= maximumMarks {
                    glyphs[glyphs.count - 1].characters.append(wchar_t(bitPattern: code))
                }
                continue
            }
            guard used + width <= columns else { break }
            glyphs.append(Glyph(characters: [wchar_t(bitPattern: code)], width: width))
            used += width
        }
        // A joiner whose partner was dropped must not reach out to the next cell.
        if var last = glyphs.last, last.characters.count > 1, last.characters.last == 0x200D {
            last.characters.removeLast()
            glyphs[glyphs.count - 1] = last
        }
        if glyphs.isEmpty && !text.isEmpty {
            // A wide character in a one-column cell: show that something is there.
            glyphs.append(Glyph(characters: [0x3F], width: 1))
        }
        return glyphs
    }
}
