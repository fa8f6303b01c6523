import AtpadCore

/// A mouse action at a screen cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press, drag, release, wheelUp, wheelDown
    }

    public var kind: Kind
    public var row: Int
    public var column: Int

    public init(kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }
}

/// What the terminal delivers: keys (a bracketed paste is one `.paste` key), mouse
/// actions, a resize, the end of input, or its answer to a question the backend asked.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize
    case endOfInput
    /// Whether the terminal clusters graphemes (see `Graphemes`); the backend notes it,
    /// and the frame drawn after it uses it.
    case graphemeClustering(GraphemeClusteringReport)
}
