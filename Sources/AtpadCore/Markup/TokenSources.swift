/// What atpad markup does not carry about a document's tokens — which of them are kept
/// constructs, and the text each was read from (`Mention.source`) — as one line of JSON,
/// so that a recovery draft (markup plus this line) brings a Slack file's `<!here>` and
/// `<@U1|ana>` back as they were, and saving the recovered file still gives its bytes.
///
/// The line is an array of `[start, end, kind, format, text]` with scalar offsets, `kind`
/// `"kept"`, `"mention"` or `"bytes"` (bytes that are not UTF-8, `text` their stand-ins):
/// `[[0, 7, "kept", "slack", "<!here>"]]`.
public enum TokenSources {
    /// The line for `doc`, or nil when no token has a source (nothing to add to markup).
    public static func line(_ doc: MarkedText) -> String? {
        var entries: [JSONValue] = []
        for m in doc.mentions {
            guard let source = m.source else { continue }
            let kind = m.kind == .bytes ? "bytes" : m.isKept ? "kept" : "mention"
            entries.append([.number(m.range.lowerBound), .number(m.range.upperBound), .string(kind),
                            .string(source.format.rawValue), .string(source.text)])
        }
        return entries.isEmpty ? nil : JSONWriter.text(.array(entries))
    }

    /// `doc` (read from markup) with the tokens `line` describes restored: a kept construct
    /// where the text still reads as it and no mention is, the source of a mention whose
    /// range it names. Whatever does not fit — a damaged line, an entry the text no longer
    /// matches — is left out: the text is never changed, only tokens are added back.
    public static func apply(_ line: String, to doc: MarkedText) -> MarkedText {
        var line = line
        guard let entries = line.withUTF8({ try? JSONReader.value(of: $0) }), case .array(let items) = entries.kind
        else { return doc }
        let scalars = Array(doc.text.unicodeScalars)
        var mentions = doc.mentions
        var kept: [Mention] = []
        for item in items {
            guard case .array(let fields) = item.kind, fields.count == 5,
                  case .number(let startValue) = fields[0].kind, case .number(let endValue) = fields[1].kind,
                  case .string(let kind) = fields[2].kind, case .string(let formatName) = fields[3].kind,
                  case .string(let text) = fields[4].kind,
                  let start = Int(startValue), let end = Int(endValue),
                  let format = DocumentFormat(rawValue: formatName), 0 <= start, start < end, end <= scalars.count
            else { continue }
            let source = TokenSource(format: format, text: text)
            if kind == "bytes" {
                let token = Mention(bytes: text, start: start)
                if token.range == start ..< end, scalars[start ..< end].elementsEqual(token.text.unicodeScalars),
                   !mentions.contains(where: { $0.range.overlaps(start ..< end) }),
                   !kept.contains(where: { $0.range.overlaps(start ..< end) }) {
                    kept.append(token)
                }
            } else if kind == "mention" {
                if let k = mentions.firstIndex(where: { $0.range == start ..< end && !$0.isKept }) { mentions[k].source = source }
            } else if kind == "kept", let shown = shown(scalars[start ..< end], source: text, format: format),
                      !mentions.contains(where: { $0.range.overlaps(start ..< end) }),
                      !kept.contains(where: { $0.range.overlaps(start ..< end) }) {
                kept.append(Mention(kept: shown, source: text, format: format, start: start))
            }
        }
        guard !kept.isEmpty else { return MarkedText(text: doc.text, mentions: mentions) }
        return MarkedText(text: doc.text, mentions: (mentions + kept).sorted { $0.range.lowerBound < $1.range.lowerBound })
    }

    /// The text a kept construct read from `source` shows, when the document still shows it
    /// at its place (`scalars`): its own text, or for markup's kept escapes (`\\` shown as
    /// `\`) what the escape stands for. Nil when the text there is something else now.
    private static func shown(_ scalars: ArraySlice<Unicode.Scalar>, source: String, format: DocumentFormat) -> String? {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let text = String(view)
        if text == source { return text }
        if format == .atpad, AtpadMarkup.decode(source).text == text { return text }
        return nil
    }
}
