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
/// - Everything else is `text` nodes (written by `JSONWriter`); ADF text is not markup,
///   so `*`, `[~…]` or `<` arrive as typed. An empty document is a `doc` with no content.
///
/// There is no reader: a document for Jira's API is not a file atpad edits.
enum ADFFormat {
    /// An inline node: a piece of a line (text, or a mention's id and shown text), or the
    /// break written between two lines of a paragraph.
    private enum Inline {
        case text([UInt8])
        case mention(id: String, text: String)
        case hardBreak
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

        // Paragraphs: runs of lines that are not blank.
        var paragraphs: [[[Inline]]] = [[]]
        for line in lines {
            if !isBlank(line) {
                paragraphs[paragraphs.count - 1].append(line)
            } else if !paragraphs[paragraphs.count - 1].isEmpty {
                paragraphs.append([])
            }
        }
        if paragraphs[paragraphs.count - 1].isEmpty { paragraphs.removeLast() }

        var writer = JSONWriter(capacity: MentionRuns.capacity(for: doc, perMention: 96) + 64)
        writer.object { writer in
            writer.key("type")
            writer.string("doc")
            writer.key("version")
            writer.number(1)
            writer.key("content")
            writer.array { writer in
                for paragraph in paragraphs {
                    writer.object { writer in
                        writer.key("type")
                        writer.string("paragraph")
                        writer.key("content")
                        writer.array { writer in
                            for (index, line) in paragraph.enumerated() {
                                if index > 0 { write(.hardBreak, to: &writer) }
                                for piece in line { write(piece, to: &writer) }
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// Writes one inline node.
    private static func write(_ piece: Inline, to writer: inout JSONWriter) {
        writer.object { writer in
            writer.key("type")
            switch piece {
            case let .text(bytes):
                writer.string("text")
                writer.key("text")
                bytes.withUnsafeBufferPointer { writer.string(utf8: $0) }
            case let .mention(id, text):
                writer.string("mention")
                writer.key("attrs")
                writer.object { writer in
                    writer.key("id")
                    writer.string(id)
                    writer.key("text")
                    writer.string(text)
                }
            case .hardBreak:
                writer.string("hardBreak")
            }
        }
    }

    /// Whether a line has no mention and only spaces and tabs.
    private static func isBlank(_ line: [Inline]) -> Bool {
        line.allSatisfy { piece in
            if case let .text(bytes) = piece { return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
            return false
        }
    }
}
