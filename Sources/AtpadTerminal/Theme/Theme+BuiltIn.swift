/// The default theme, compiled in: an installation without its themes folder still
/// draws as intended (docs/install.md). `Resources/themes/default.toml` is the same theme as a
/// file to copy and change; a test keeps the two equal.
extension Theme {
    /// The name `--theme` and the config use for it.
    public static let defaultName = "default"

    /// The built-in default theme, as values: the editor starts with it, and parsing its
    /// TOML would cost start-up about as much as drawing the first frame. A test keeps it equal
    /// to `Resources/themes/default.toml`.
    public static let builtInDefault: Theme = {
        let black = Color.indexed(0), yellow = Color.indexed(3), cyan = Color.indexed(6)
        let brightGreen = Color.indexed(10), green = Color.indexed(2)
        let blue = Color.indexed(4), magenta = Color.indexed(5), red = Color.indexed(1)
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
            .markupCode: Entry(foreground: magenta, attributes: [.dim]),
            .markupLink: Entry(foreground: blue, attributes: [.underline]),
            .markupHeading: Entry(foreground: yellow, attributes: [.bold]),
            .markupEmphasis: Entry(foreground: yellow),
            .markupStrong: Entry(attributes: [.bold]),
            .markupQuote: Entry(foreground: .indexed(8)),
            .comment: Entry(foreground: .indexed(8)),
            .diffAdded: Entry(foreground: green),
            .diffRemoved: Entry(foreground: red),
            .diffHeader: Entry(attributes: [.bold]),
            .commitOverflow: Entry(foreground: red),
            .commitOverflowStrong: Entry(foreground: black, background: red),
            .commitWarning: Entry(foreground: yellow, attributes: [.underline]),
            .rebaseCommand: Entry(foreground: yellow, attributes: [.bold]),
            .rebaseHash: Entry(foreground: blue),
            .rebaseSubject: Entry(attributes: [.bold]),
            .misspelled: Entry(foreground: red, attributes: [.undercurl]),
        ])
    }()
}
