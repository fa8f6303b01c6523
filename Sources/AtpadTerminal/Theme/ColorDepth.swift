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
