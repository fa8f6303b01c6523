/// How the semantic roles look (SPEC §10): a theme sets colours and attributes for some
/// roles; every field a role leaves unset comes from its parent role (`chooser.match` →
/// `chooser`) and finally from `text`.
///
/// Inheritance is per field, so `[chooser.match] attributes = ["bold"]` keeps the
/// chooser's background. Whatever the theme says, the result always keeps mentions,
/// selected mentions, the search, the selection and the chosen row visibly different from
/// what surrounds them — with colours, with 16 or 8, and with none at all.
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
        case bold, dim, underline, reverse
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
        var style = resolved(role, colors: colors)
        guard let rule = Theme.distinctness[role] else { return style }
        let others = rule.from.map { self.style(for: $0, colors: colors) }  // the rules form no cycle
        for attribute in rule.additions where others.contains(style) {
            style = Theme.adding(attribute, to: style)
        }
        return style
    }

    /// Every role's style at once, for a backend that sets colour pairs up front.
    public func styles(colors: Int) -> [Role: Style] {
        Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, style(for: $0, colors: colors)) })
    }

    // MARK: - Resolving

    /// The role's own style: its fields, else its ancestors', else `text`'s, with colours
    /// brought down to what the terminal has.
    private func resolved(_ role: Role, colors: Int) -> Style {
        var foreground: Color?
        var background: Color?
        var attributes: Set<Attribute>?
        for r in lineage(of: role) {
            guard let entry = entries[r] else { continue }
            foreground = foreground ?? entry.foreground
            background = background ?? entry.background
            attributes = attributes ?? entry.attributes
        }
        let set = attributes ?? []
        return Style(foreground: Theme.terminalColor(foreground, colors: colors),
                     background: Theme.terminalColor(background, colors: colors),
                     bold: set.contains(.bold), dim: set.contains(.dim),
                     underline: set.contains(.underline), reverse: set.contains(.reverse))
    }

    /// `role`, its parents, then `text`.
    private func lineage(of role: Role) -> [Role] {
        var chain: [Role] = []
        var r: Role? = role
        while let current = r {
            chain.append(current)
            r = current.parent
        }
        if chain.last != .text { chain.append(.text) }
        return chain
    }

    private static func terminalColor(_ color: Color?, colors: Int) -> TerminalColor? {
        guard case let .indexed(index)? = color else { return nil }
        return ColorDepth.reduce(index, colors: colors).map(TerminalColor.init)
    }

    // MARK: - Staying distinguishable

    /// A role that must look different from some others, and the attributes to add, in
    /// order, while it still looks the same as one of them.
    private struct Distinctness: Sendable {
        var from: [Role]
        var additions: [Attribute]
    }

    /// Mentions must stand out from text; a selected mention from a mention; the search
    /// from text and mentions; the selection from text; the chosen row from the others.
    private static let distinctness: [Role: Distinctness] = [
        .mention: Distinctness(from: [.text], additions: [.underline]),
        .mentionSelected: Distinctness(from: [.mention, .text], additions: [.reverse, .underline]),
        .search: Distinctness(from: [.text, .mention], additions: [.underline, .bold]),
        .selection: Distinctness(from: [.text], additions: [.reverse]),
        .chooserSelected: Distinctness(from: [.chooser], additions: [.reverse]),
        .chooserMatch: Distinctness(from: [.chooser], additions: [.bold]),
        .helpKey: Distinctness(from: [.help], additions: [.reverse]),
    ]

    /// `style` with `attribute` added (reverse toggles: on a reversed style, off is the
    /// difference that shows).
    private static func adding(_ attribute: Attribute, to style: Style) -> Style {
        var s = style
        switch attribute {
        case .bold: s.bold = true
        case .dim: s.dim = true
        case .underline: s.underline = true
        case .reverse: s.reverse.toggle()
        }
        return s
    }
}
