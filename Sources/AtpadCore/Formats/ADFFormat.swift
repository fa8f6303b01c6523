/// The `adf` format, output only: the comment as an Atlassian Document Format document,
/// the body Jira Cloud's REST API v3 takes for a comment, on one line:
///
///     {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [
///      {"type": "text", "text": "Hi "},
///      {"type": "mention", "attrs": {"id": "5b10a2844c20165700ede21g", "text": "@John Doe"}}]}]}
///
/// - A comment in Markdown (the formats that read Markdown, and a document made in the
///   editor) is written with its structure and marks, as Jira's own editor makes it
///   (``ADFMarkdown``; docs/formats.md, "What each service receives").
/// - A comment that is not Markdown (read as `jira`, `slack` or `text`) is sent as
///   written: paragraphs are the blocks between blank lines (a line that is empty or
///   holds only spaces and tabs; several in a row are one break, none at the ends), each
///   single line break (`\n`, or `\r\n` as one) inside one a `hardBreak`, everything else
///   text, so `*`, `[~…]` or `<` arrive as typed.
/// - Each `@` mention is a `mention` node whose `attrs.id` is the id ``JiraFormat`` writes
///   for it (the person's `accounts.jira`, else their id) and `attrs.text` what it shows
///   (`@John Doe`), so Jira notifies the person. A person with accounts but none on Jira
///   is their name as text, without the trigger; other triggers (`#general`) and ids Jira
///   could not take are text as shown.
/// - Written by `JSONWriter`. An empty document is a `doc` with no content.
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

    static func encodeUTF8(_ doc: MarkedText, lookup: EntityLookup, markdown: Bool, reusing parse: ParsedMarkdown? = nil) -> [UInt8] {
        // ADF spells out every node, mark and break: a dense comment's document is about
        // eight times its text. Room that is never used costs nothing (its pages are never
        // touched); growing a large array copies it.
        var writer = JSONWriter(capacity: markdown ? doc.text.utf8.count * 8 + doc.mentions.count * 96 + 256
                                                   : MentionRuns.capacity(for: doc, perMention: 96) + 64)
        writer.object { writer in
            writer.key("type")
            writer.string("doc")
            writer.key("version")
            writer.number(1)
            writer.key("content")
            writer.array { writer in
                if markdown {
                    let composed = ComposedMarkdown(doc, format: .adf, reusing: parse)
                    var blocks = ADFMarkdown(composed: composed, lookup: lookup)
                    composed.withTree { root, _ in blocks.writeContent(of: root, to: &writer) }
                } else {
                    writeParagraphs(doc, lookup: lookup, to: &writer)
                }
            }
        }
        return writer.bytes
    }

    /// A person Jira can notify: an `@` mention whose id Jira can take.
    private static func accountID(of m: Mention, lookup: EntityLookup) -> String? {
        m.trigger == "@" ? JiraFormat.accountID(of: m, lookup: lookup) : nil
    }


    /// Writes a `mention` node.
    static func writeMention(id: String, text: String, to writer: inout JSONWriter) {
        write(.mention(id: id, text: text), to: &writer)
    }

    /// The comment as written: paragraphs of text, mentions and hard breaks.
    private static func writeParagraphs(_ doc: MarkedText, lookup: EntityLookup, to writer: inout JSONWriter) {
        // The document as lines of inline pieces, then grouped into paragraphs.
        var lines: [[Inline]] = [[]]
        var pending: [UInt8] = []
        func endText() {
            if !pending.isEmpty { lines[lines.count - 1].append(.text(pending)) }
            pending = []
        }
        MentionRuns.forEach(in: doc, format: .adf, plain: { run, _ in
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
            if let id = accountID(of: m, lookup: lookup) {
                endText()
                lines[lines.count - 1].append(.mention(id: id, text: String(Character(m.trigger)) + m.name))
            } else {
                pending += Array(lookup.textWithoutAccount(m, in: .jira).utf8)
            }
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
