import Foundation

/// One cell of the screen: what it shows and in which role.
///
/// A wide character (2 columns) occupies its cell plus a continuation cell whose `text`
/// is empty; a control character is never stored raw (the layout stores its visible
/// escape, one printable character per cell).
///
/// The cluster's UTF-8 is stored inline (at most 23 bytes; a longer cluster — a long
/// emoji ZWJ sequence — keeps the scalars that fit, which is all a terminal draws of it
/// anyway), so a cell is a plain value: a 120×40 screen is made and dropped every frame
/// without reference counting 4,800 strings.
public struct ScreenCell: Hashable, Sendable {
    /// UTF-8 bytes, little-endian from `b0` through `b2`; the top byte of `b2` is the
    /// length (so at most 23 bytes are kept).
    private var b0: UInt64
    private var b1: UInt64
    private var b2: UInt64
    /// The role as its index in `Role.allCases`, a full word so that the cell has no
    /// padding and rows can be compared as raw memory.
    private var roleCode: UInt64

    public var role: Role {
        get { Role.byCode[Int(roleCode)] }
        set { roleCode = UInt64(newValue.code) }
    }

    /// The most UTF-8 bytes a cell keeps.
    static let capacity = 23

    public init(_ text: String, _ role: Role) {
        roleCode = UInt64(role.code)
        b0 = 0
        b1 = 0
        b2 = 0
        var text = text
        var count = 0
        text.withUTF8 { bytes in
            var end = min(bytes.count, ScreenCell.capacity)
            // Cut a longer cluster at a scalar boundary.
            while end < bytes.count && end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            for i in 0..<end {
                let shift = UInt64(8 * (i % 8))
                switch i / 8 {
                case 0: b0 |= UInt64(bytes[i]) << shift
                case 1: b1 |= UInt64(bytes[i]) << shift
                default: b2 |= UInt64(bytes[i]) << shift
                }
            }
            count = end
        }
        b2 |= UInt64(count) << 56
    }

    /// A cell showing one ASCII character (the fast path of the layout).
    public init(ascii byte: UInt8, _ role: Role) {
        roleCode = UInt64(role.code)
        b0 = UInt64(byte)
        b1 = 0
        b2 = 1 << 56
    }

    /// The grapheme cluster shown ("" for a continuation cell).
    public var text: String {
        let count = Int(b2 >> 56)
        if count == 0 { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for i in 0..<count {
            let word = i < 8 ? b0 : i < 16 ? b1 : b2
            bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * (i % 8))))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The one UTF-8 byte of an ASCII cell, or nil (for the backend's fast path).
    public var asciiByte: UInt8? {
        b2 >> 56 == 1 && b0 < 0x80 ? UInt8(b0) : nil
    }

    /// The code point of a cell that holds exactly one non-ASCII scalar (a box-drawing
    /// line, an accented letter, a CJK character), or nil: the backend puts these
    /// without building a string.
    public var singleScalar: UInt32? {
        let count = b2 >> 56
        guard count >= 2, count <= 4 else { return nil }
        let lead = UInt32(b0 & 0xFF)
        let expected: UInt64 = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard expected == count else { return nil }
        var value = lead & (0xFF >> (count + 1))
        for i in 1 ..< Int(count) {
            value = value << 6 | UInt32((b0 >> UInt64(8 * i)) & 0x3F)
        }
        return value
    }

    public static let blank = ScreenCell(ascii: 0x20, .text)

    /// Whether two runs of cells are the same, compared as raw memory (cells have no
    /// padding, so equal cells have equal bytes).
    static func same(_ a: UnsafeBufferPointer<ScreenCell>, _ b: UnsafeBufferPointer<ScreenCell>) -> Bool {
        a.count == b.count && memcmp(a.baseAddress!, b.baseAddress!, a.count * MemoryLayout<ScreenCell>.stride) == 0
    }
    public var isContinuation: Bool { b2 >> 56 == 0 }
}

/// A whole frame as a grid of cells plus where the cursor goes: what the layout produces
/// and the backend draws. Tests assert it as lines of text and lines of role letters.
public struct Screen: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var cells: [ScreenCell]
    /// Row and column of the terminal cursor, or nil to hide it.
    public var cursor: (row: Int, column: Int)? {
        get { cursorRow.map { ($0, cursorColumn) } }
        set { cursorRow = newValue?.row; cursorColumn = newValue?.column ?? 0 }
    }
    private var cursorRow: Int?
    private var cursorColumn = 0

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> ScreenCell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// The rows as text (continuation cells skipped), for tests.
    public var lines: [String] {
        (0..<height).map { r in (0..<width).map { self[r, $0].text }.joined() }
    }

    /// The rows as role letters, one per cell, for tests.
    public var roleLines: [String] {
        (0..<height).map { r in String((0..<width).map { self[r, $0].role.letter }) }
    }
}
