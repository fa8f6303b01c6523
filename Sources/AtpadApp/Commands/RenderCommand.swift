import ArgumentParser
import AtpadCore
import AtpadSystem
import AtpadTerminal

/// `atpad render FILE --format F`: converts a saved comment to another format and writes
/// it to stdout, adding no newline (docs/commands.md, "`atpad render` and `atpad mentions`").
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Convert a saved comment to a format, to stdout (adding no newline)."
    )

    @OptionGroup var input: CommentFileOptions

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "The format to write: \(DocumentFormat.names) (matrix: one Matrix event; adf: a Jira document with mention nodes; both output only).",
        valueName: "format"))
    var format: String

    @OptionGroup var directories: DirectoryOptions

    func run() throws {
        HugePages.forHeap()
        let target = try DocumentFormat(option: "--format", name: format)
        let comment = try input.read(directories: directories, encodingTo: target)
        let bytes: [UInt8]
        do {
            // A json file rendered as json keeps its final newline, or its absence.
            bytes = try target.encodeBytes(comment.document, lookup: comment.lookup, from: comment.format,
                                           ending: target == comment.format ? comment.ending : [], reusing: comment.markdown)
        } catch {
            // json and matrix hold Unicode text only: nothing is written (docs/commands.md).
            StandardOutput.error("atpad: \(input.file): \(error.message)")
            throw ExitCode(1)
        }
        // A person with accounts elsewhere but none on the target's service is written as
        // shown, and would not be notified: said in one line
        // (docs/people.md, "One person, many accounts").
        if let note = comment.lookup.missingAccountNote(in: comment.document, format: target) {
            StandardOutput.error("atpad: \(input.file): \(note)")
        }
        try StandardOutput.writeAll(bytes)
        // Done: the process ends here rather than tearing down what it read, node by node
        // and mention by mention (a few milliseconds for a 1 MB comment; BENCHMARKS.md).
        ProcessEnd.now(0)
    }
}
