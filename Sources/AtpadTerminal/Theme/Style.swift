/// A terminal colour: one of the 256 indexed colours (0–7 the basic ones, 8–15 bright).
public struct TerminalColor: Hashable, Sendable {
    public var index: Int
    public init(_ index: Int) { self.index = index }
}

/// How one role looks: colours and attributes, resolved by a theme.
public struct Style: Hashable, Sendable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false

    public init(foreground: TerminalColor? = nil, background: TerminalColor? = nil,
                bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }
}
