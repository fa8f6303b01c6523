import ArgumentParser

/// `atpad [FILE]`: the full-screen editor (its terminal front end is the next milestone).
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit FILE in the full-screen editor.",
        shouldDisplay: false
    )

    @Argument(help: "The comment to edit (atpad markup).")
    var file: String?

    func run() async throws {
        throw UsageError("the full-screen editor is not built yet; try `atpad replay --keys '@jo<Enter>'`")
    }
}
