import AtpadCore

/// How the folded names and handles are stored (what a scan of a million
/// people touches): back to back in one table of bytes, one entry after another, each
/// entry in as few bytes a scalar as its largest folded scalar needs: one (nearly every
/// name: folding leaves Latin names ASCII), two (Greek, Cyrillic, CJK, Hangul…: up to
/// U+FFFF) or three (emoji, CJK extension B: up to U+10FFFF), low byte first. Offsets into
/// an entry's text (name words, matched spans) count scalars whatever its width.
///
/// `starts[i]` is entry `i`'s first byte in its low 30 bits and its bytes a scalar, less
/// one, in the top two; `starts[i + 1]`'s low 30 bits are where it ends. The last start
/// has no width.
enum FoldedUnits {
    static let widthShift: UInt32 = 30
    static let offsetMask: UInt32 = (1 << 30) - 1
    /// The most bytes a table can hold.
    static let capacity = Int(offsetMask)

    /// Appends `scalars` to `bytes` in the fewest bytes a scalar; returns the start bits
    /// of that width (to OR into the entry's start).
    @discardableResult
    static func append(_ scalars: ArraySlice<UInt32>, to bytes: inout [UInt8]) -> UInt32 {
        let largest = scalars.max() ?? 0
        let width = largest <= 0xFF ? 1 : largest <= 0xFFFF ? 2 : 3
        for value in scalars {
            bytes.append(UInt8(truncatingIfNeeded: value))
            if width > 1 { bytes.append(UInt8(truncatingIfNeeded: value >> 8)) }
            if width > 2 { bytes.append(UInt8(truncatingIfNeeded: value >> 16)) }
        }
        return UInt32(width - 1) << widthShift
    }

    /// Entry `position`'s text.
    @inline(__always)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>,
                     _ position: Int) -> TextRef {
        let start = starts[position]
        let lower = Int(start & offsetMask)
        let upper = Int(starts[position + 1] & offsetMask)
        return TextRef(bytes: UnsafeBufferPointer(rebasing: bytes[lower ..< upper]),
                       width: Int(start >> widthShift) + 1)
    }
}
