extension String {
    /// This text with every occurrence of `target` replaced by `replacement`, matched scalar
    /// by scalar: a `\n` inside `\r\n`, or a `"` before a combining mark, is found too
    /// (the standard library's `replacing` matches whole characters and would skip them).
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        String(unicodeScalars.replacing(target.unicodeScalars, with: replacement.unicodeScalars))
    }
}
