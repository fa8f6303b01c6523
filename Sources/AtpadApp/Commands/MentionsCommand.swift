import ArgumentParser
import AtpadCore

/// `atpad mentions FILE`: the mentions of a saved comment as a JSON array of the mention
/// objects of the `json` format, on one line
/// (docs/commands.md, "`atpad render` and `atpad mentions`").
struct MentionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mentions",
        abstract: "Print the mentions of a saved comment as a JSON array."
    )

    @OptionGroup var input: CommentFileOptions

    @OptionGroup var directories: DirectoryOptions

    func run() throws {
        let comment = try input.read(directories: directories)
        StandardOutput.printLine(MentionJSON.array(comment.document))
    }
}
