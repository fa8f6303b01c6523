/// How clusters of several code points — an emoji with a skin tone (👍🏽), a ZWJ family
/// (👩‍👩‍👧‍👦), a flag (🇫🇷), a letter with marks — are sent to the terminal: the config's
/// `[terminal] graphemes`. The layout is the same either way (a cell holds a whole cluster,
/// an emoji cluster takes two columns); only what is written for such a cell differs.
///
/// `auto`, the default, does not wait for the terminal at start-up (start-up is measured
/// against nano's, and a terminal behind ssh answers a network round trip later). The
/// first frame asks with DECRQM whether the terminal clusters graphemes (mode 2027:
/// `CSI ? 2027 $ p`) and is drawn as `first`; the answer comes back among the keys
/// (`InputEvent.graphemeClustering`), and from the next frame clusters are drawn whole
/// where the terminal said it clusters them (mode set, or permanently set) or can (mode
/// reset: atpad sets it, and resets it on exit). A terminal that does not know the
/// question — xterm, tmux 3.3, GNU screen, the Linux console — answers nothing or "not
/// recognised", and stays with `first`.
public enum Graphemes: String, CaseIterable, Codable, Sendable {
    /// Whole where the terminal says it clusters graphemes, else `first`.
    case auto
    /// Whole, always: for a terminal that clusters graphemes but does not say so. On one
    /// that does not, a ZWJ family shows as several emoji and pushes the rest of its row.
    case whole
    /// One glyph per spacing code point, as many as fit the cluster's cells
    /// (`CellGlyphs`): a family shows its first emoji, a flag its two letters. Right for
    /// a terminal that measures each code point on its own; the terminal is not asked.
    case first

    /// Whether clusters are sent whole, given what the terminal answered (nil: nothing yet).
    func drawsWhole(reported: GraphemeClusteringReport?) -> Bool {
        switch self {
        case .whole: true
        case .first: false
        case .auto: reported == .on || reported == .available
        }
    }
}

/// The terminal's answer to DECRQM for mode 2027, grapheme clustering
/// (`CSI ? 2027 ; Ps $ y`).
public enum GraphemeClusteringReport: Hashable, Sendable {
    /// Set (Ps 1) or permanently set (Ps 3): the terminal draws clusters whole.
    case on
    /// Reset (Ps 2): the terminal clusters graphemes once the mode is set.
    case available
    /// Not recognised (Ps 0) or permanently reset (Ps 4).
    case unsupported

    /// The report for the answer's `Ps`.
    init(_ ps: Int) {
        switch ps {
        case 1, 3: self = .on
        case 2: self = .available
        default: self = .unsupported
        }
    }

    /// DECRQM for mode 2027: the question.
    static let query = Array("\u{1B}[?2027$p".utf8)
    /// Sets and resets mode 2027 (DECSET / DECRST).
    static let set = Array("\u{1B}[?2027h".utf8)
    static let reset = Array("\u{1B}[?2027l".utf8)
}
