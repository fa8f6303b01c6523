import ArgumentParser
import AtpadCore
import AtpadTerminal
import Foundation

/// `atpad [FILE]`: the full-screen editor.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit FILE (atpad markup; created on first save) in the full-screen editor.",
        shouldDisplay: false
    )

    @Argument(help: "The comment to edit, in atpad markup (created on first save).")
    var file: String?

    @OptionGroup var directories: DirectoryOptions

    @Option(help: "Word characters that start an implicit search (0 = off).")
    var implicit: Int = 3

    @Flag(help: "Backspace on a selected mention trims it to its first word first.")
    var trimMentions = false

    @Option(help: "A bundled theme name (default, mono) or a theme file path.")
    var theme: String = "default"

    @Flag(help: "Draw with attributes only (also set by the NO_COLOR environment variable).")
    var noColor = false

    @Flag(help: "On a successful exit also write the comment to stdout.")
    var print = false

    func run() async throws {
        guard implicit >= 0 else { throw UsageError("--implicit must be 0 or more") }
        var document = MarkedText()
        if let file {
            do {
                if let text = try DocumentFile.read(file) { document = AtpadMarkup.decode(text) }
            } catch let error as DocumentFile.Failure {
                throw UsageError(error.message)
            }
        }
        let sources = try directories.load().sources
        let loadedTheme: Theme
        do {
            loadedTheme = try Theme.load(theme, themesIn: [try BundledResources.themes()])
        } catch {
            throw UsageError("\(error)")
        }
        let noColorEnv = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let options = EditOptions(
            path: file, document: document, sources: sources,
            config: EditorConfig(triggers: sources.keys.sorted { $0.value < $1.value },
                                 implicitThreshold: implicit, trimMentions: trimMentions),
            theme: loadedTheme, noColor: noColor || noColorEnv, print: print)
        let (status, printed) = await MainActor.run { EditSession(options).run() }
        if let printed {
            FileHandle.standardOutput.write(Data(printed.utf8))
        }
        if status != 0 { throw ExitCode(status) }
    }
}
