/// How a mention is shown (docs/formats.md, "How a mention is shown"): as its readers will
/// see it. Where the place a comment goes renders handles (`github`, `gitlab`,
/// `mattermost`, and `text`, which writes mentions as GitHub does) a mention shows its
/// trigger and handle, `@jdoe`, exactly the bytes the file gets; where it renders names
/// (Slack, Discord, Jira, Zulip, Matrix, Markdown links, atpad's own formats) it shows
/// `@John Doe`.
extension EntityLookup {
    /// What `m` shows after its trigger in a document whose readers see `format`: the
    /// text `format` writes for it — the spelling a file of that format gave it, else the
    /// handle (or the account on the format's service) — or nil for its name (a format
    /// that renders names, a person without a handle, a kept construct).
    public func label(of m: Mention, in format: DocumentFormat) -> String? {
        guard format.showsHandles, !m.isKept else { return nil }
        if let source = m.source(in: format) {
            let trigger = String(Character(m.trigger))
            return source.hasPrefix(trigger) ? String(source.dropFirst(trigger.count)) : nil
        }
        if case let .id(handle) = writtenID(of: m, in: format), !handle.isEmpty { return handle }
        return nil
    }

    /// `m`, showing what its readers see in `format` (``label(of:in:)``), at the same start.
    public func shown(_ m: Mention, in format: DocumentFormat) -> Mention {
        m.labelled(label(of: m, in: format))
    }

    /// `doc` with every mention shown as its readers see it in `format`: the text of each
    /// mention whose label changes is replaced, and the mentions after it move. Kept
    /// constructs and plain text are untouched.
    public func showing(_ doc: MarkedText, in format: DocumentFormat) -> MarkedText {
        let relabelled = doc.mentions.map { shown($0, in: format) }
        guard relabelled != doc.mentions else { return doc }
        // Built as UTF-8 bytes: appending to a String's scalars copies it each time.
        var text = doc.text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + relabelled.count * 16)
            var mentions: [Mention] = []
            mentions.reserveCapacity(relabelled.count)
            var byte = 0, scalar = 0
            var length = 0  // scalars in `out`
            for (old, new) in zip(doc.mentions, relabelled) {
                // Tokens are sorted and inside the text (a document's invariant); one that
                // is not is left as plain text, as the writers do.
                guard old.range.lowerBound >= scalar else { continue }
                let runStart = byte, runScalars = scalar
                var endByte = byte, endScalar = scalar
                guard let start = UTF8Scan.advance(bytes, byte: &byte, scalar: &scalar, to: old.range.lowerBound),
                      UTF8Scan.advance(bytes, byte: &endByte, scalar: &endScalar, to: old.range.upperBound) != nil
                        || old.range.upperBound == endScalar else {
                    byte = runStart
                    scalar = runScalars
                    break
                }
                out.append(contentsOf: bytes[runStart ..< start])
                length += old.range.lowerBound - runScalars
                var moved = new
                moved.range = length ..< length + new.range.count
                out.append(contentsOf: new.text.utf8)
                length += new.range.count
                mentions.append(moved)
                byte = endByte
                scalar = endScalar
            }
            out.append(contentsOf: bytes[byte...])
            return MarkedText(text: String(decoding: out, as: UTF8.self), mentions: mentions)
        }
    }
}
