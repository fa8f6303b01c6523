extension StringProtocol {
    /// The text without the whitespace (spaces, tabs, line breaks) at either end.
    public func trimmed() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first ... last])
    }
}
