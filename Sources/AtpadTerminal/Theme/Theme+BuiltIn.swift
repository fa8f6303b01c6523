/// The default theme, compiled in: an installation without its themes folder still
/// draws as intended (SPEC §13). `Resources/themes/default.toml` is the same theme as a
/// file to copy and change; a test keeps the two equal.
extension Theme {
    /// The name `--theme` and the config use for it.
    public static let defaultName = "default"

    /// The default theme's TOML.
    static let builtInDefaultSource = """
        [text]

        [mention]
        foreground = "cyan"
        attributes = ["bold"]

        [mention.selected]
        foreground = "black"
        background = "cyan"

        [search]
        foreground = "yellow"
        attributes = ["underline"]

        [selection]
        attributes = ["reverse"]

        [chooser]
        foreground = 252
        background = 236

        [chooser.selected]
        foreground = "black"
        background = "cyan"

        [chooser.match]
        foreground = "yellow"
        attributes = ["bold"]

        [chooser.detail]
        attributes = ["dim"]

        [chooser.status]
        foreground = "yellow"

        [title]
        attributes = ["reverse", "bold"]

        [status]
        attributes = ["bold"]

        [help]

        [help.key]
        attributes = ["reverse"]

        [match]
        foreground = "black"
        background = "yellow"

        [match.current]
        foreground = "black"
        background = "bright-green"
        attributes = ["bold"]

        [prompt]
        attributes = ["bold"]

        [verbatim]
        foreground = "green"
        """

    /// The built-in default theme.
    public static var builtInDefault: Theme {
        // The source is fixed and tested, so a failure here is a bug in atpad itself.
        do {
            return try parse(builtInDefaultSource, file: "(built-in default theme)", name: defaultName)
        } catch {
            preconditionFailure("the built-in default theme does not parse: \(error)")
        }
    }
}
