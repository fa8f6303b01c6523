extension DocumentFormat {
    /// Whether `bytes` hold anything this format could read as a mention with the
    /// directory's help: a trigger character for the `@handle` formats, `<` for Slack and
    /// Discord, `[~` for Jira, `@**` for Zulip, `](` for Markdown links. A cheap scan, so
    /// that a file without any opens without waiting for a large directory to load.
    public func mayReadMentions(in bytes: [UInt8]) -> Bool {
        switch self {
        case .github, .gitlab, .mattermost:
            return bytes.contains { AtpadMarkup.isTrigger(Unicode.Scalar($0)) }
        case .slack, .discord:
            return bytes.contains(UInt8(ascii: "<"))
        case .jira:
            return contains(bytes, "[~")
        case .zulip:
            return contains(bytes, "@**")
        case .markdown:
            return contains(bytes, "](")
        case .atpad, .json, .plain, .text, .matrix, .adf:
            return false
        }
    }

    private func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var i = 0
        while i <= bytes.count - pattern.count {
            if bytes[i] == first, bytes[i ..< i + pattern.count].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }
}
