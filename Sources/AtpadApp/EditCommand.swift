import ArgumentParser
import AtpadCore
import AtpadTerminal
import Foundation

/// `atpad [FILE]`: the full-screen editor.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit FILE (created on first save) in the full-screen editor; the default command."
    )

    @Argument(help: "The comment to edit (any bytes, a regular file), in the format its name gives it (.atpad markup, .json json, the config's [formats], else github) or -f's; created on first save.")
    var file: String?

    @OptionGroup var directories: DirectoryOptions

    @Option(help: "Word characters that start an implicit search (0 = off; default 3).")
    var implicit: Int?

    @Flag(help: "Backspace on a selected mention trims it to its first word first.")
    var trimMentions = false

    @Option(help: "A bundled theme name (default, mono) or a theme file path.")
    var theme: String?

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "The file's format, to open and save it, whatever its name: \(DocumentFormat.names) (matrix: output only, with --print and no FILE).",
        valueName: "format"))
    var format: String?

    @Option(help: "The config file to read instead of ~/.config/atpad/config.toml.")
    var config: String?

    @Flag(help: "Draw with attributes only (also set by the NO_COLOR environment variable).")
    var noColor = false

    @Flag(help: "On a successful exit also write the comment to stdout.")
    var print = false

    @Option(help: "Where copies go: terminal (atpad's clipboard and the terminal's, with OSC 52; the default) or internal (atpad's only).")
    var clipboard: String?

    /// The same values the fast reader of ``EditArguments`` produces.
    var arguments: EditArguments {
        EditArguments(file: file, directory: directories.directory, trigger: directories.trigger,
                      directoryCommand: directories.directoryCommand, directoryURL: directories.directoryURL,
                      items: directories.items, map: directories.map, preset: directories.preset,
                      commandTimeout: directories.commandTimeout,
                      implicit: implicit, trimMentions: trimMentions, theme: theme,
                      noColor: noColor, format: format, config: config, print: print, clipboard: clipboard)
    }

    func run() async throws {
        let arguments = arguments
        let status = try await MainActor.run { try arguments.run() }
        if status != 0 { throw ExitCode(status) }
    }
}
