import AtpadSystem

/// The values a source uses when nothing sets them: declared once here, and read by the
/// sources' initialisers, the config's table of keys (`atpad keys --config`, docs/config.md,
/// atpad.toml(5)) and the options' help.
public enum SourceDefaults {
    /// The most results kept for one query (`limit`).
    public static let limit = 50
    /// How long a directory command or URL may take to answer one query (`command_timeout`).
    public static let timeout: Duration = .seconds(5)
    /// The method a URL source sends (`method`).
    public static let method = "GET"
    /// The most pages one query follows (`max_pages`).
    public static let maxPages = 10
    /// The query parameter, or body member, that carries a cursor (`cursor_param`).
    public static let cursorParam = "cursor"
    /// The most people a cached list may hold (`list_limit`).
    public static let listLimit = 20_000

    /// A duration as the config and the options write it: whole seconds as `5`, else `2.5`.
    public static func seconds(_ duration: Duration) -> String {
        SourceError.decimalSeconds(duration)
    }
}
