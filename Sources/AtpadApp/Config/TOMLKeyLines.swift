/// Where each table and key of a TOML text is defined, by dotted path, so an error found
/// after parsing (TOMLKit keeps no positions for values) can name its line. Themes and
/// the config file share it.
///
/// A light reading of the text, not a parser: `[a.b]` headers and `key = …` lines, with
/// quoted parts. A path it does not find exactly is answered with the line of its
/// nearest enclosing definition (an inline table's key, say).
struct TOMLKeyLines: Sendable {
    // Only an error needs a line number, so the source is scanned then and not on every
    // load: a theme and the config are read on the way to the first frame.
    private let source: String

    /// Keeps `source` for later look-ups; nothing is scanned yet.
    init(_ source: String) {
        self.source = source
    }

    private var definitions: [(path: [String], line: Int)] {
        var definitions: [(path: [String], line: Int)] = []
        var table: [String] = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[[") { continue }
            if line.hasPrefix("[") {
                let inside = TOMLKeyLines.upTo("]", in: line.dropFirst())
                table = TOMLKeyLines.components(inside)
                definitions.append((table, index + 1))
            } else if let first = line.first, first != "#", line.contains("=") {
                let key = TOMLKeyLines.components(TOMLKeyLines.upTo("=", in: line))
                definitions.append((table + key, index + 1))
            }
        }
        return definitions
    }

    /// The 1-based line defining the dotted `path` (or its nearest enclosing definition);
    /// parts may be quoted (`triggers."@".url`).
    func line(of path: String) -> Int? {
        let wanted = TOMLKeyLines.components(Substring(path))
        var best: (length: Int, line: Int)?
        for d in definitions where d.path.count <= wanted.count && Array(wanted.prefix(d.path.count)) == d.path {
            if best == nil || d.path.count > best!.length { best = (d.path.count, d.line) }
        }
        return best?.line
    }

    /// The text before the first `stop` outside quotes.
    private static func upTo(_ stop: Character, in text: Substring) -> Substring {
        var quote: Character?
        for i in text.indices {
            let c = text[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == stop {
                return text[..<i]
            }
        }
        return text
    }

    /// A dotted key split into its parts, quotes and surrounding blanks removed. A quoted
    /// part with a dot in it (`["mention.selected"]`) splits too: it names the same role.
    private static func components(_ key: Substring) -> [String] {
        key.split(separator: ".", omittingEmptySubsequences: false).map { part in
            String(part.filter { $0 != "\"" && $0 != "'" }).trimmingBlanks
        }
    }
}

private extension String {
    var trimmingBlanks: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
