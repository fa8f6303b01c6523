import FoundationEssentials
import Glibc

/// One cell of the screen: what it shows and in which role.
///
/// A wide character (2 columns) occupies its cell plus a continuation cell that shows
/// nothing; a control character is never stored raw (the layout stores its visible
/// escape, one printable character per cell).
///
/// Eight bytes and a plain value: a cluster of up to 4 UTF-8 bytes (every single scalar:
/// letters, CJK characters, most emoji) is stored inline; a longer one (a flag, a skin
/// tone, an emoji ZWJ sequence such as the 25-byte family 👨‍👩‍👧‍👦) is kept in the
/// `LongClusters` of the screen it is drawn into, and the cell holds its number there. A
/// 120×40 screen is made, compared and dropped every frame, so its size is what a
/// keystroke pays in memory traffic (see docs/benchmarks-history.md, "FoundationEssentials only, and eight-byte cells").
///
/// So a cell's text is known only together with its screen's table: read it through
/// `Screen.text(of:)` (or `LongClusters.text(of:)` for cells not yet put), and compare
/// cells of two screens with `ScreenCell.same(_:in:_:in:)`, which compares long clusters
/// by text, not by number (each frame's screen numbers its own from 0).
public struct ScreenCell: Sendable {
    /// Up to 4 UTF-8 bytes, little-endian; or, for a long cluster, its number.
    private var payload: UInt32
    /// Bits 0–7: the UTF-8 length (0 for a continuation cell), or `longMark` for a long
    /// cluster; bits 8–15: the role as its index in `Role.allCases`. A full word, so the
    /// cell has no padding and rows compare as raw memory.
    private var meta: UInt32

    private static let longMark: UInt32 = 0xFF

    public var role: Role {
        get { Role.byCode[Int((meta >> 8) & 0xFF)] }
        set { meta = (meta & ~0xFF00) | UInt32(newValue.code) << 8 }
    }

    /// The most UTF-8 bytes a long cluster keeps. The longest emoji sequences (a kiss
    /// with two skin tones, a subdivision flag) take under 40; past this only stacks of
    /// combining marks go, of which terminals draw a few.
    static let capacity = 64

    /// A cell showing the cluster `text` ("" for a continuation cell); a long cluster is
    /// numbered in `clusters`, which must be the table of the screen the cell is put into.
    init(_ text: String, _ role: Role, clusters: inout LongClusters) {
        var text = text
        var payload: UInt32 = 0
        var length: UInt32 = 0
        text.withUTF8 { bytes in
            if bytes.count <= 4 {
                for i in 0 ..< bytes.count { payload |= UInt32(bytes[i]) << UInt32(8 * i) }
                length = UInt32(bytes.count)
                return
            }
            var end = min(bytes.count, ScreenCell.capacity)
            // Cut a longer cluster at a scalar boundary.
            while end < bytes.count && end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            payload = UInt32(truncatingIfNeeded: clusters.number(of: UnsafeBufferPointer(rebasing: bytes[..<end])))
            length = ScreenCell.longMark
        }
        self.payload = payload
        meta = length | UInt32(role.code) << 8
    }

    /// A cell showing one scalar (a blank, a border, an ellipsis): never long, so it needs
    /// no table.
    public init(_ scalar: Unicode.Scalar, _ role: Role) {
        var payload: UInt32 = 0
        var length: UInt32 = 0
        for byte in UTF8.encode(scalar)! {
            payload |= UInt32(byte) << (8 * length)
            length += 1
        }
        self.payload = payload
        meta = length | UInt32(role.code) << 8
    }

    /// A cell showing one ASCII character (the fast path of the layout).
    public init(ascii byte: UInt8, _ role: Role) {
        payload = UInt32(byte)
        meta = 1 | UInt32(role.code) << 8
    }

    /// The continuation cell of a wide character.
    static func continuation(_ role: Role) -> ScreenCell {
        var cell = ScreenCell(ascii: 0, role)
        cell.meta &= ~0xFF
        return cell
    }

    /// The cluster shown, for a cell whose long cluster (if any) is numbered in `clusters`.
    func text(in clusters: LongClusters) -> String {
        let length = meta & 0xFF
        if length == ScreenCell.longMark { return clusters.text(of: UInt64(payload)) }
        if length == 0 { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(length))
        for i in 0 ..< Int(length) { bytes.append(UInt8(truncatingIfNeeded: payload >> UInt32(8 * i))) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The role's code (`Role.code`), read straight from the cell.
    var roleCode: Int { Int((meta >> 8) & 0xFF) }

    /// Appends the UTF-8 bytes the cell holds inline: all of them for a cell that is not a
    /// long cluster (none for a continuation cell).
    func appendInlineBytes(to out: inout [UInt8]) {
        let length = meta & 0xFF
        guard length != ScreenCell.longMark else { return }
        for i in 0 ..< Int(length) { out.append(UInt8(truncatingIfNeeded: payload >> UInt32(8 * i))) }
    }

    /// Whether the cell holds a long cluster's number rather than its bytes.
    var isLong: Bool { meta & 0xFF == ScreenCell.longMark }

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
        let expected: UInt32 = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard expected == count else { return nil }
        var value = lead & (0xFF >> (count + 1))
        for i in 1 ..< Int(count) {
            value = value << 6 | (payload >> UInt32(8 * i)) & 0x3F
        }
        return value
    }

    public static let blank = ScreenCell(ascii: 0x20, .text)

    /// Whether `a`, numbered in `ca`, shows the same as `b`, numbered in `cb`: long
    /// clusters compare by their exact bytes, since the two tables may number them apart.
    static func same(_ a: ScreenCell, in ca: LongClusters, _ b: ScreenCell, in cb: LongClusters) -> Bool {
        guard a.meta == b.meta else { return false }
        guard a.isLong else { return a.payload == b.payload }
        return ca.text(of: UInt64(a.payload)).utf8.elementsEqual(cb.text(of: UInt64(b.payload)).utf8)
    }

    public var isContinuation: Bool { meta & 0xFF == 0 }

    /// Adds the cell's bits to `hasher`, a long cluster as its text (for `Screen`'s hash,
    /// which must not depend on how a screen numbered its clusters).
    func hash(into hasher: inout Hasher, clusters: LongClusters) {
        hasher.combine(meta)
        if isLong {
            var text = clusters.text(of: UInt64(payload))
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            hasher.combine(payload)
        }
    }
}

/// The clusters of one screen too long to keep inside a cell, each stored once (by its
/// exact bytes: "é" and "e\u{301}" are different text to draw) and numbered in the order
/// first drawn; a long cell holds its number. A plain value owned by its `Screen` (copied
/// on write with it), so nothing is shared between screens or threads. Few ever exist (long
/// emoji sequences, stacks of combining marks), and the table is dropped with its screen.
struct LongClusters: Sendable {
    private var texts: [String] = []
    private var numbers: [[UInt8]: UInt64] = [:]

    /// How many clusters are numbered.
    var count: Int { texts.count }

    /// The number of the cluster `bytes` (valid UTF-8 of one cluster), numbering it now if new.
    mutating func number(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let key = Array(bytes)
        if let n = numbers[key] { return n }
        let n = UInt64(texts.count)
        texts.append(String(decoding: key, as: UTF8.self))
        numbers[key] = n
        return n
    }

    /// The cluster numbered `number`.
    func text(of number: UInt64) -> String {
        number < UInt64(texts.count) ? texts[Int(number)] : "\u{FFFD}"
    }

    /// The text of `cell` (for cells built against this table before they are put).
    func text(of cell: ScreenCell) -> String {
        cell.text(in: self)
    }
}

/// A whole frame as a grid of cells plus where the cursor goes: what the layout produces
/// and the backend draws. Each frame is laid out whole into a new screen; the backend
/// compares it with the last one it drew (`changedColumns(row:from:)`) and writes only
/// what changed. Tests assert it as lines of text and lines of role letters.
///
/// Two screens are equal when they show the same: same size, cursor, roles and text, long
/// clusters compared by text whatever their numbers.
public struct Screen: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Cells with long clusters are numbered in `clusters`: write here only cells built
    /// against this screen (`cell(_:_:)`, `clusters`) or that need no table.
    public var cells: [ScreenCell]
    /// This screen's long clusters.
    var clusters = LongClusters()
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

    /// A cell showing `text` for this screen (a long cluster is numbered in its table).
    mutating func cell(_ text: String, _ role: Role) -> ScreenCell {
        ScreenCell(text, role, clusters: &clusters)
    }

    /// The cluster `cell` of this screen shows ("" for a continuation cell).
    public func text(of cell: ScreenCell) -> String {
        cell.text(in: clusters)
    }

    /// The cluster shown at `row`, `column`.
    public func text(row: Int, column: Int) -> String {
        text(of: self[row, column])
    }

    /// The rows as text (continuation cells skipped), for tests.
    public var lines: [String] {
        (0..<height).map { r in (0..<width).map { text(row: r, column: $0) }.joined() }
    }

    /// The rows as role letters, one per cell, for tests.
    public var roleLines: [String] {
        (0..<height).map { r in String((0..<width).map { self[r, $0].role.letter }) }
    }

    /// The columns of `row`, from the first cell that differs from `previous`'s to the last
    /// one, or nil when the row is the same (`previous` has this screen's size). Each screen
    /// numbers its long clusters apart, so those compare by their bytes; every other cell,
    /// and most rows, compare as raw memory.
    public func changedColumns(row: Int, from previous: Screen) -> Range<Int>? {
        let base = row * width
        return cells.withUnsafeBufferPointer { all in
            previous.cells.withUnsafeBufferPointer { before in
                let new = UnsafeBufferPointer(rebasing: all[base ..< base + width])
                let old = UnsafeBufferPointer(rebasing: before[base ..< base + width])
                let sameMemory = width == 0
                    || memcmp(new.baseAddress!, old.baseAddress!, width * MemoryLayout<ScreenCell>.stride) == 0
                // A screen that numbered no long cluster has no long cell to look for.
                if sameMemory && (clusters.count == 0 || !new.contains(where: \.isLong)) { return nil }
                func same(_ i: Int) -> Bool { ScreenCell.same(old[i], in: previous.clusters, new[i], in: clusters) }
                var first = 0
                while first < width && same(first) { first += 1 }
                guard first < width else { return nil }
                var last = width - 1
                while last > first && same(last) { last -= 1 }
                return first ..< last + 1
            }
        }
    }

    public static func == (a: Screen, b: Screen) -> Bool {
        a.width == b.width && a.height == b.height && a.cursorRow == b.cursorRow && a.cursorColumn == b.cursorColumn
            && (0 ..< a.height).allSatisfy { a.changedColumns(row: $0, from: b) == nil }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cursorRow)
        hasher.combine(cursorColumn)
        for cell in cells { cell.hash(into: &hasher, clusters: clusters) }
    }
}
