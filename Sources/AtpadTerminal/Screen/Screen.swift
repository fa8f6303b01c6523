/// One cell of the screen: what it shows and in which role.
///
/// A wide character (2 columns) occupies its cell plus a continuation cell whose `text`
/// is empty; a control character is never stored raw (the layout stores its visible
/// escape, one printable character per cell).
public struct ScreenCell: Hashable, Sendable {
    /// One grapheme cluster of printable text ("" for a continuation cell).
    public var text: String
    public var role: Role

    public init(_ text: String, _ role: Role) {
        self.text = text
        self.role = role
    }

    public static let blank = ScreenCell(" ", .text)
    public var isContinuation: Bool { text.isEmpty }
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
