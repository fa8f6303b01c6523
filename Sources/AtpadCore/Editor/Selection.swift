/// The cursor and selection: `head` is where the cursor is, `anchor` where a
/// Shift-selection started. They are equal when nothing is selected.
public struct Selection: Hashable, Sendable {
    public var anchor: Int
    public var head: Int

    public init(anchor: Int, head: Int) {
        self.anchor = anchor
        self.head = head
    }

    public static func cursor(_ position: Int) -> Selection {
        Selection(anchor: position, head: position)
    }

    public var isEmpty: Bool { anchor == head }
    public var range: Range<Int> { min(anchor, head) ..< max(anchor, head) }
}
