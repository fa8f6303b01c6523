import AtpadCore
import AtpadTerminal

extension Config {
    /// This config with its `[formats]` patterns in the order the file lists them, which
    /// decides the first match (SPEC §7). TOMLKit hands a table's keys back sorted, so the
    /// order is found from the text's lines, and only when there are patterns to order.
    func formatPatternsInFileOrder(_ source: String) -> Config {
        guard let patterns = formatPatterns, patterns.count > 1 else { return self }
        let lines = TOMLKeyLines(source)
        var copy = self
        copy.formatPatterns = patterns.enumerated().sorted { a, b in
            let la = lines.line(of: ConfigReader.dotted(["formats", a.element.glob])) ?? .max
            let lb = lines.line(of: ConfigReader.dotted(["formats", b.element.glob])) ?? .max
            return (la, a.offset) < (lb, b.offset)
        }.map(\.element)
        return copy
    }
}
