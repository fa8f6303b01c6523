import AtpadCore

extension Config {
    /// `[formats]`: `"*.slack" = "slack"`, a glob of file names and a readable format each,
    /// kept in the order the file lists them, which decides the first match
    /// (docs/formats.md, "Which format a file is in"). TOMLKit hands a table's keys back
    /// sorted, so the order comes from the text (``TOMLReader/keysInFileOrder(at:)``),
    /// before `~/` is resolved in a glob.
    mutating func readFormatPatterns(_ c: KeyedDecodingContainer<CodingKeys>, _ reader: ConfigReader) {
        guard let table = try? c.nestedContainer(keyedBy: AnyTOMLKey.self, forKey: .formats) else {
            reader.fail(["formats"], "must be a table of file name patterns, such as [formats] \"*.slack\" = \"slack\"")
            return
        }
        let names = DocumentFormat.allCases.filter { !$0.isOutputOnly }.map(\.rawValue)
        var patterns: [FormatRule.Pattern] = []
        for key in reader.keysInFileOrder(at: ["formats"]) {
            let at = ["formats", key]
            guard !key.isEmpty else {
                reader.fail(at, "must be a file name pattern, such as \"*.slack\"")
                continue
            }
            guard let text = try? table.decode(String.self, forKey: AnyTOMLKey(stringValue: key)),
                  let format = DocumentFormat(rawValue: text.lowercased()), !format.isOutputOnly else {
                reader.fail(at, "must be one of \(names.joined(separator: ", "))")
                continue
            }
            // `~/` is the home folder, as in every path of the config.
            let glob = key.hasPrefix("~/") ? reader.paths.resolve(key) : key
            patterns.append(FormatRule.Pattern(glob: glob, format: format))
        }
        formatPatterns = patterns
    }
}
