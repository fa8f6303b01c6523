import ArgumentParser
import AtpadCore

/// `atpad render FILE --format F`: converts a saved comment to another format and writes
/// it to stdout, adding no newline (SPEC §8).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Convert a saved comment to a format, to stdout (adding no newline)."
    )

    @OptionGroup var input: CommentFileOptions

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "The format to write: \(DocumentFormat.names) (matrix: one Matrix event, output only).",
        valueName: "format"))
    var format: String

    @OptionGroup var directories: DirectoryOptions

    func run() throws {
        let target = try DocumentFormat(option: "--format", name: format)
        let comment = try input.read(directories: directories, encodingTo: target)
        try StandardOutput.writeAll(target.encodeUTF8(comment.document, lookup: comment.lookup))
    }
}
