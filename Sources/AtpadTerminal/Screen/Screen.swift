import Foundation

/// One cell of the screen: what it shows and in which role.
///
/// A wide character (2 columns) occupies its cell plus a continuation cell whose `text`
/// is empty; a control character is never stored raw (the layout stores its visible
/// escape, one printable character per cell).
///
/// Sixteen bytes and a plain value: a cluster of up to 8 UTF-8 bytes (every letter, CJK
/// character and most emoji) is stored inline; a longer one (an emoji ZWJ sequence) is
/// kept once in `LongClusters` and the cell holds its number. A 120×40 screen is made,
/// compared and dropped every frame, so its size is what a keystroke pays in memory
/// traffic.
public struct ScreenCell: Hashable, Sendable {
    /// Up to 8 UTF-8 bytes, little-endian; or, for a long cluster, its number.
    private var payload: UInt64
    /// Bits 0–7: the UTF-8 length (0 for a continuation cell), or `longMark` for a long
    /// cluster; bits 8–15: the role as its index in `Role.allCases`. A full word, so the
    /// cell has no padding and rows compare as raw memory.
    private var meta: UInt64

    private static let longMark: UInt64 = 0xFF

    public var role: Role {
        get { Role.byCode[Int((meta >> 8) & 0xFF)] }
        set { meta = (meta & ~0xFF00) | UInt64(newValue.code) << 8 }
    }

    /// The most UTF-8 bytes a long cluster keeps (a terminal draws no more of it).
    static let capacity = 64

    public init(_ text: String, _ role: Role) {
        var text = text
        var payload: UInt64 = 0
        var length: UInt64 = 0
        text.withUTF8 { bytes in
            if bytes.count <= 8 {
                for i in 0 ..< bytes.count { payload |= UInt64(bytes[i]) << UInt64(8 * i) }
                length = UInt64(bytes.count)
                return
            }
            var end = min(bytes.count, ScreenCell.capacity)
            // Cut a longer cluster at a scalar boundary.
            while end < bytes.count && end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            payload = UInt64(LongClusters.shared.number(of: Array(bytes[..<end])))
            length = ScreenCell.longMark
        }
        self.payload = payload
        meta = length | UInt64(role.code) << 8
    }

    /// A cell showing one ASCII character (the fast path of the layout).
    public init(ascii byte: UInt8, _ role: Role) {
        payload = UInt64(byte)
        meta = 1 | UInt64(role.code) << 8
    }

    /// The grapheme cluster shown ("" for a continuation cell).
    public var text: String {
        let length = meta & 0xFF
        if length == ScreenCell.longMark { return LongClusters.shared.text(of: Int(payload)) }
        if length == 0 { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(length))
        for i in 0 ..< Int(length) { bytes.append(UInt8(truncatingIfNeeded: payload >> UInt64(8 * i))) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The one UTF-8 byte of an ASCII cell, or nil (for the backend's fast path).
    public var asciiByte: UInt8? {
        meta & 0xFF == 1 && payload < 0x80 ? UInt8(payload) : nil
    }

    /// The code point of a cell that holds exactly one non-ASCII scalar (a box-drawing
    /// line, an accented letter, a CJK character), or nil: the backend puts these
    /// without building a string.
    public var singleScalar: UInt32? {
        let count = meta & 0xFF
        guard count >= 2, count <= 4 else { return nil }
        let lead = UInt32(payload & 0xFF)
        let expected: UInt64 = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard expected == count else { return nil }
        var value = lead & (0xFF >> (count + 1))
        for i in 1 ..< Int(count) {
            value = value << 6 | UInt32((payload >> UInt64(8 * i)) & 0x3F)
        }
        return value
    }

    public static let blank = ScreenCell(ascii: 0x20, .text)

    /// Whether two runs of cells are the same, compared as raw memory (cells have no
    /// padding, so equal cells have equal bytes).
    static func same(_ a: UnsafeBufferPointer<ScreenCell>, _ b: UnsafeBufferPointer<ScreenCell>) -> Bool {
        a.count == b.count && memcmp(a.baseAddress!, b.baseAddress!, a.count * MemoryLayout<ScreenCell>.stride) == 0
    }
    public var isContinuation: Bool { meta & 0xFF == 0 }
}

/// The clusters too long to keep inside a cell, each stored once and numbered, so equal
/// cells stay equal as raw memory. Few ever exist (long emoji sequences); the table only
/// grows, and a cap keeps a hostile document from growing it without end.
final class LongClusters: @unchecked Sendable {
    static let shared = LongClusters()
    private let lock = NSLock()
    private var texts: [String] = []
    private var numbers: [[UInt8]: Int] = [:]

    func number(of bytes: [UInt8]) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let n = numbers[bytes] { return n }
        // Past the cap every further cluster shows as U+FFFD.
        guard texts.count < 65_536 else { return 0 }
        if texts.isEmpty { texts.append("\u{FFFD}") }
        let n = texts.count
        texts.append(String(decoding: bytes, as: UTF8.self))
        numbers[bytes] = n
        return n
    }

    func text(of number: Int) -> String {
        lock.lock()
        defer { lock.unlock() }
        return number < texts.count ? texts[number] : "\u{FFFD}"
    }
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
