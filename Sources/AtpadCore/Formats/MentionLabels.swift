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
        var text = String.UnicodeScalarView()
        var mentions: [Mention] = []
        mentions.reserveCapacity(relabelled.count)
        let scalars = doc.text.unicodeScalars
        var index = scalars.startIndex
        var offset = 0
        var length = 0  // scalars in `text` (its `count` would walk it)
        let total = scalars.count  // walked once: in the loop, a walk per mention
        for (old, new) in zip(doc.mentions, relabelled) {
            // Tokens are sorted and inside the text (a document's invariant); one that is not
            // is left as plain text, as the writers do.
            guard old.range.lowerBound >= offset, old.range.upperBound <= total else { continue }
            let start = scalars.index(index, offsetBy: old.range.lowerBound - offset)
            text.append(contentsOf: scalars[index ..< start])
            length += old.range.lowerBound - offset
            var moved = new
            moved.range = length ..< length + new.range.count
            text.append(contentsOf: new.text.unicodeScalars)
            length += new.range.count
            mentions.append(moved)
            index = scalars.index(start, offsetBy: old.range.count)
            offset = old.range.upperBound
        }
        text.append(contentsOf: scalars[index...])
        return MarkedText(text: String(text), mentions: mentions)
    }
}
