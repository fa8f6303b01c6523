/// How the semantic roles look (docs/config.md, "Themes"): a theme sets colours and
/// attributes for some roles; every field a role leaves unset comes from its parent role
/// (`chooser.match` → `chooser`) and finally from `text`.
///
/// Inheritance is per field, so `[chooser.match] attributes = ["bold"]` keeps the
/// chooser's background (`attributes`, when given, replace the inherited set). Whatever
/// the theme says, mentions, selected mentions, the search, the selection and the chosen
/// row stay visibly different from what surrounds them — with 256 colours, 16, 8, or none.
public struct Theme: Hashable, Sendable {
    /// A colour as a theme states it.
    public enum Color: Hashable, Sendable {
        /// The terminal's own foreground or background.
        case terminalDefault
        /// One of the 256 indexed colours.
        case indexed(Int)
    }

    /// A text attribute a theme may set.
    public enum Attribute: String, CaseIterable, Hashable, Sendable {
        case bold, dim, underline, undercurl, reverse
    }

    /// What a theme says about one role; nil fields are inherited.
    public struct Entry: Hashable, Sendable {
        public var foreground: Color?
        public var background: Color?
        /// When set, replaces the inherited attributes (an empty set clears them).
        public var attributes: Set<Attribute>?

        public init(foreground: Color? = nil, background: Color? = nil, attributes: Set<Attribute>? = nil) {
            self.foreground = foreground
            self.background = background
            self.attributes = attributes
        }
    }

    public var name: String
    public var entries: [Role: Entry]

    public init(name: String, entries: [Role: Entry] = [:]) {
        self.name = name
        self.entries = entries
    }

    /// A theme that sets nothing: the terminal's colours, with only the attributes that
    /// keep mentions and selections distinguishable.
    public static let plain = Theme(name: "plain")

    /// The style of `role` on a terminal with `colors` colours (256, 16, 8; fewer than 8
    /// — `--no-color`, `NO_COLOR`, a terminal without colours — means attributes only).
    public func style(for role: Role, colors: Int) -> Style {
        // Unset fields come from the parent's finished style, so a selected mention starts
        // from whatever made mentions stand out.
        var style = role == .text ? Style() : self.style(for: role.parent ?? .text, colors: colors)
        if let entry = entries[role] {
            if let fg = entry.foreground { style.foreground = Theme.terminalColor(fg, colors: colors) }
            if let bg = entry.background { style.background = Theme.terminalColor(bg, colors: colors) }
            if let set = entry.attributes {
                style.bold = set.contains(.bold)
                style.dim = set.contains(.dim)
                style.underline = set.contains(.underline)
                style.undercurl = set.contains(.undercurl)
                style.reverse = set.contains(.reverse)
            }
        }
        guard let rule = Theme.distinctness[role] else { return style }
        let others = rule.from.map { self.style(for: $0, colors: colors) }  // the rules form no cycle
        // An undercurl may be drawn as a plain underline: it alone tells no roles apart.
        for attribute in rule.additions where others.contains(where: { $0.withPlainUnderline == style.withPlainUnderline }) {
            style = Theme.adding(attribute, to: style)
        }
        return style
    }

    /// Every role's style at once, for a backend that works out each role's escape sequence up front.
    public func styles(colors: Int) -> [Role: Style] {
        Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, style(for: $0, colors: colors)) })
    }

    private static func terminalColor(_ color: Color, colors: Int) -> TerminalColor? {
        guard case let .indexed(index) = color else { return nil }
        return ColorDepth.reduce(index, colors: colors).map(TerminalColor.init)
    }

    // MARK: - Staying distinguishable

    /// A role that must look different from some others, and the attributes to add, in
    /// order, while it still looks the same as one of them.
    private struct Distinctness: Sendable {
        var from: [Role]
        var additions: [Attribute]
    }

    /// Mentions must stand out from text, and from the bold of a heading or of strong text
    /// they may stand in (without colour the default theme's bold mention becomes bold and
    /// underlined, docs/config.md); a selected mention from a mention; the search from text
    /// and mentions; the selection from text; the chosen row from the others; find matches
    /// from text, mentions, headings and strong text, and the current match from those,
    /// the other matches and the selection; kept constructs (`verbatim`) from text; a
    /// misspelt word from text, mentions, links and the search (docs/spelling.md).
    private static let distinctness: [Role: Distinctness] = [
        .mention: Distinctness(from: [.text, .markupHeading, .markupStrong], additions: [.underline, .bold]),
        .mentionSelected: Distinctness(from: [.mention, .text], additions: [.reverse, .underline]),
        .search: Distinctness(from: [.text, .mention], additions: [.underline, .bold]),
        .selection: Distinctness(from: [.text], additions: [.reverse]),
        .chooserSelected: Distinctness(from: [.chooser], additions: [.reverse]),
        .chooserMatch: Distinctness(from: [.chooser], additions: [.bold]),
        .helpKey: Distinctness(from: [.help], additions: [.reverse]),
        .match: Distinctness(from: [.text, .mention, .markupHeading, .markupStrong], additions: [.underline, .bold]),
        .matchCurrent: Distinctness(from: [.match, .text, .mention, .selection, .markupHeading, .markupStrong],
                                    additions: [.reverse, .bold]),
        .verbatim: Distinctness(from: [.text], additions: [.dim]),
        .misspelled: Distinctness(from: [.text, .mention, .markupLink, .search], additions: [.undercurl, .dim, .bold]),
    ]

    /// `style` with `attribute` added (reverse toggles: on a reversed style, off is the
    /// difference that shows).
    private static func adding(_ attribute: Attribute, to style: Style) -> Style {
        var s = style
        switch attribute {
        case .bold: s.bold = true
        case .dim: s.dim = true
        case .underline: s.underline = true
        case .undercurl: s.undercurl = true
        case .reverse: s.reverse.toggle()
        }
        return s
    }
}

/// Brings a 256-colour index down to what a terminal has: the nearest of the 16 basic
/// colours (by the xterm palette), then the 8 (bright ones lose their brightness), or
/// none at all.
enum ColorDepth {
    /// The index to use on a terminal with `colors` colours, or nil when it has fewer than 8.
    static func reduce(_ index: Int, colors: Int) -> Int? {
        guard colors >= 8, (0...255).contains(index) else { return nil }
        var i = index
        if colors < 256 && i >= 16 { i = nearestBasic(rgb(i)) }
        if colors < 16 && i >= 8 { i -= 8 }
        return i
    }

    /// xterm's default RGB for the 16 basic colours.
    private static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The RGB of an index of the 6×6×6 cube (16–231) or the grey ramp (232–255).
    private static func rgb(_ index: Int) -> (Int, Int, Int) {
        if index >= 232 {
            let v = 8 + 10 * (index - 232)
            return (v, v, v)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let c = index - 16
        return (levels[c / 36], levels[(c / 6) % 6], levels[c % 6])
    }

    private static func nearestBasic(_ color: (Int, Int, Int)) -> Int {
        func distance(_ a: (Int, Int, Int)) -> Int {
            let (r, g, b) = (a.0 - color.0, a.1 - color.1, a.2 - color.2)
            return r * r + g * g + b * b
        }
        var best = 0
        for i in 1..<basic.count where distance(basic[i]) < distance(basic[best]) { best = i }
        return best
    }
}
