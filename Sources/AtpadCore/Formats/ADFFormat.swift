/// The `adf` format, output only: the comment as an Atlassian Document Format document,
/// the body Jira Cloud's REST API v3 takes for a comment, on one line:
///
///     {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [
///      {"type": "text", "text": "Hi "},
///      {"type": "mention", "attrs": {"id": "5b10a2844c20165700ede21g", "text": "@John Doe"}}]}]}
///
/// - Paragraphs are the blocks between blank lines (a line that is empty or holds only
///   spaces and tabs); several blank lines in a row are one break, and blank lines at the
///   start and end make no empty paragraphs. Inside a paragraph each single line break
///   (`\n`, or `\r\n` as one) is a `hardBreak` node.
/// - Each mention is a `mention` node whose `attrs.id` is the id ``JiraFormat`` writes for
///   it (the account id Jira notifies) and `attrs.text` what it shows (`@John Doe`), so Jira
///   notifies the person. A mention whose id Jira could not take is written as text, as
///   the `jira` format does.
/// - Everything else is `text` nodes, JSON-escaped by `JSONText`; ADF text is not markup,
///   so `*`, `[~…]` or `<` arrive as typed. An empty document is a `doc` with no content.
///
/// There is no reader: a document for Jira's API is not a file atpad edits.
enum ADFFormat {
    /// A piece of a line: text, or a mention's id and shown text.
    private enum Inline {
        case text([UInt8])
        case mention(id: String, text: String)
    }

    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup) -> [UInt8] {
        // The document as lines of inline pieces, then grouped into paragraphs.
        var lines: [[Inline]] = [[]]
        var pending: [UInt8] = []
        func endText() {
            if !pending.isEmpty { lines[lines.count - 1].append(.text(pending)) }
            pending = []
        }
        MentionRuns.forEach(in: doc, format: .adf, accept: { JiraFormat.accountID(of: $0, lookup: lookup) != nil },
                            plain: { run, _ in
            var i = 0
            while i < run.count {
                let b = run[i]
                if b == 0x0A {
                    endText()
                    lines.append([])
                } else if b == 0x0D, i + 1 < run.count, run[i + 1] == 0x0A {
                    // The LF that follows ends the line.
                } else {
                    pending.append(b)
                }
                i += 1
            }
        }, token: { m in
            endText()
            lines[lines.count - 1].append(.mention(id: JiraFormat.accountID(of: m, lookup: lookup) ?? m.id, text: String(Character(m.trigger)) + m.name))
        })
        endText()

        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 96) + 64)
        append(#"{"type": "doc", "version": 1, "content": ["#, to: &out)
        var paragraph: [[Inline]] = []
        var paragraphs = 0
        func endParagraph() {
            guard !paragraph.isEmpty else { return }
            if paragraphs > 0 { append(", ", to: &out) }
            paragraphs += 1
            append(#"{"type": "paragraph", "content": ["#, to: &out)
            var nodes = 0
            for (index, line) in paragraph.enumerated() {
                if index > 0 {
                    if nodes > 0 { append(", ", to: &out) }
                    append(#"{"type": "hardBreak"}"#, to: &out)
                    nodes += 1
                }
                for piece in line {
                    if nodes > 0 { append(", ", to: &out) }
                    nodes += 1
                    switch piece {
                    case let .text(bytes):
                        append(#"{"type": "text", "text": "#, to: &out)
                        bytes.withUnsafeBufferPointer { JSONText.appendQuoted($0, to: &out) }
                        append("}", to: &out)
                    case let .mention(id, text):
                        append(#"{"type": "mention", "attrs": {"id": "#, to: &out)
                        JSONText.appendQuoted(id, to: &out)
                        append(#", "text": "#, to: &out)
                        JSONText.appendQuoted(text, to: &out)
                        append("}}", to: &out)
                    }
                }
            }
            append("]}", to: &out)
            paragraph = []
        }
        for line in lines {
            if isBlank(line) {
                endParagraph()
            } else {
                paragraph.append(line)
            }
        }
        endParagraph()
        append("]}", to: &out)
        return out
    }

    /// Whether a line has no mention and only spaces and tabs.
    private static func isBlank(_ line: [Inline]) -> Bool {
        line.allSatisfy { piece in
            if case let .text(bytes) = piece { return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
            return false
        }
    }

    private static func append(_ s: StaticString, to out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
