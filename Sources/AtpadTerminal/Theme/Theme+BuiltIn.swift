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

    /// The built-in default theme, as values: the editor starts with it, and parsing its
    /// TOML took as many instructions as drawing the first frame. A test keeps it equal
    /// to `builtInDefaultSource` and to `Resources/themes/default.toml`.
    public static let builtInDefault: Theme = {
        let black = Color.indexed(0), yellow = Color.indexed(3), cyan = Color.indexed(6)
        let brightGreen = Color.indexed(10), green = Color.indexed(2)
        return Theme(name: defaultName, entries: [
            .mention: Entry(foreground: cyan, attributes: [.bold]),
            .mentionSelected: Entry(foreground: black, background: cyan),
            .search: Entry(foreground: yellow, attributes: [.underline]),
            .selection: Entry(attributes: [.reverse]),
            .chooser: Entry(foreground: .indexed(252), background: .indexed(236)),
            .chooserSelected: Entry(foreground: black, background: cyan),
            .chooserMatch: Entry(foreground: yellow, attributes: [.bold]),
            .chooserDetail: Entry(attributes: [.dim]),
            .chooserStatus: Entry(foreground: yellow),
            .title: Entry(attributes: [.reverse, .bold]),
            .status: Entry(attributes: [.bold]),
            .helpKey: Entry(attributes: [.reverse]),
            .match: Entry(foreground: black, background: yellow),
            .matchCurrent: Entry(foreground: black, background: brightGreen, attributes: [.bold]),
            .prompt: Entry(attributes: [.bold]),
            .verbatim: Entry(foreground: green),
        ])
    }()

    /// The built-in default theme read from its TOML (for the test that keeps the two equal).
    static var builtInDefaultParsed: Theme {
        // The source is fixed and tested, so a failure here is a bug in atpad itself.
        do {
            return try parse(builtInDefaultSource, file: "(built-in default theme)", name: defaultName)
        } catch {
            preconditionFailure("the built-in default theme does not parse: \(error)")
        }
    }
}
