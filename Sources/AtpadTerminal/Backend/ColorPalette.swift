/// The colours a terminal can show: a theme's 256-colour index brought down to the
/// terminal's 16 or 8 by xterm's palette.
enum ColorPalette {
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
