import CNcursesw

/// ncurses colour pairs, allocated lazily, one per (foreground, background) a theme uses.
struct ColorPairs {
    private struct Colors: Hashable {
        var foreground: Int16
        var background: Int16
    }

    private var pairs: [Colors: Int16] = [:]
    private var nextPair: Int16 = 1
    /// How many colours the terminal has (`COLORS`).
    let colorCount: Int
    /// Whether `-1` means "the terminal's own colour" (`use_default_colors` succeeded).
    let hasDefaultColors: Bool
    private let pairLimit: Int

    init(colorCount: Int, pairLimit: Int, hasDefaultColors: Bool) {
        self.colorCount = colorCount
        self.pairLimit = min(pairLimit, Int(Int16.max))
        self.hasDefaultColors = hasDefaultColors
    }

    /// The pair for these colours (nil = the terminal's default), initialising it on first
    /// use; pair 0 (default colours) when the terminal has run out of pairs.
    mutating func pair(foreground: TerminalColor?, background: TerminalColor?) -> Int16 {
        if foreground == nil && background == nil { return 0 }
        // Without default-colour support, "default" has to be a real colour.
        let fallbackForeground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_WHITE)
        let fallbackBackground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_BLACK)
        let colors = Colors(
            foreground: foreground.map { Self.clamp($0.index, colorCount: colorCount) } ?? fallbackForeground,
            background: background.map { Self.clamp($0.index, colorCount: colorCount) } ?? fallbackBackground
        )
        if let pair = pairs[colors] { return pair }
        guard Int(nextPair) < pairLimit,
              init_pair(nextPair, colors.foreground, colors.background) == OK
        else { return 0 }
        let pair = nextPair
        pairs[colors] = pair
        nextPair += 1
        return pair
    }

    /// A 256-colour index the terminal can show: itself when it has that many colours,
    /// else the nearest of its 16 (or 8) basic colours by the xterm palette.
    static func clamp(_ index: Int, colorCount: Int) -> Int16 {
        let index = min(max(index, 0), 255)
        if index < colorCount { return Int16(index) }
        let basic = colorCount >= 16 ? 16 : 8
        // A bright colour on an 8-colour terminal is its plain twin.
        if index < 16 { return Int16(index % 8) }
        let target = rgb(index)
        var best = 0
        var bestDistance = Int.max
        for candidate in 0..<basic {
            let c = rgb(candidate)
            let distance = (c.0 - target.0) * (c.0 - target.0) + (c.1 - target.1) * (c.1 - target.1)
                + (c.2 - target.2) * (c.2 - target.2)
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return Int16(best)
    }

    /// xterm's default palette.
    private static func rgb(_ index: Int) -> (Int, Int, Int) {
        let basic: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        if index < 16 { return basic[index] }
        if index >= 232 {
            let level = 8 + (index - 232) * 10
            return (level, level, level)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let cube = index - 16
        return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    }
}
