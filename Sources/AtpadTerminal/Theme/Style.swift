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
    /// A curly underline (`undercurl`); a terminal without one (no `Smulx` in its terminfo)
    /// draws a plain underline instead.
    public var undercurl = false
    public var reverse = false

    public init(foreground: TerminalColor? = nil, background: TerminalColor? = nil,
                bold: Bool = false, dim: Bool = false, underline: Bool = false, undercurl: Bool = false,
                reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.undercurl = undercurl
        self.reverse = reverse
    }
}

extension Style {
    /// The style as a terminal without curly underlines draws it: an undercurl is a plain
    /// underline there, so two roles that differ only so must not count as distinct.
    var withPlainUnderline: Style {
        guard undercurl else { return self }
        var s = self
        s.undercurl = false
        s.underline = true
        return s
    }
}
