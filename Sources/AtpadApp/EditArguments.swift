import AtpadCore
import AtpadTerminal
import Foundation

/// The editor's command line as plain values, and the start of an editing session.
///
/// `atpad FILE` is the command people run most, and its start-up is a measured budget:
/// swift-argument-parser's reflection costs about a third of the instructions before the
/// first frame. So the editor's own options are read by ``parse(_:)`` below, and anything
/// it does not recognise (`--help`, a subcommand, a malformed option) goes to
/// ArgumentParser, which owns the help text and the error messages. `EditCommand` fills
/// the same struct, and a test checks that both readings agree.
struct EditArguments: Equatable {
    var file: String?
    var directory: [String] = []
    var trigger: [String] = []
    var implicit = 3
    var trimMentions = false
    var theme = "default"
    var noColor = false
    var print = false

    /// The editor's arguments, or nil when ArgumentParser should read them: a subcommand,
    /// help, version, an unknown or malformed option, a second FILE.
    static func parse(_ arguments: [String]) -> EditArguments? {
        var result = EditArguments()
        var rest = arguments[...]
        var optionsEnded = false
        if let first = rest.first, AtpadMain.subcommandNames.contains(first) { return nil }
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                guard result.file == nil else { return nil }
                result.file = argument
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            // `--name=value` or `--name value`; short options take `-d value` only.
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                attached = String(argument[argument.index(after: eq)...])
            }
            func value() -> String? {
                if let attached { return attached }
                guard let next = rest.first, !next.hasPrefix("-") || next == "-" else { return nil }
                rest.removeFirst()
                return next
            }
            func flag() -> Bool { attached == nil }
            switch name {
            case "-d", "--directory":
                guard let v = value() else { return nil }
                result.directory.append(v)
            case "-t", "--trigger":
                guard let v = value() else { return nil }
                result.trigger.append(v)
            case "--implicit":
                guard let v = value(), let n = Int(v) else { return nil }
                result.implicit = n
            case "--theme":
                guard let v = value() else { return nil }
                result.theme = v
            case "--trim-mentions":
                guard flag() else { return nil }
                result.trimMentions = true
            case "--no-color":
                guard flag() else { return nil }
                result.noColor = true
            case "--print":
                guard flag() else { return nil }
                result.print = true
            default:
                return nil
            }
        }
        return result
    }

    /// Checks the values, loads what the editor needs and runs it; returns the exit status.
    /// Problems found before the screen is drawn are `UsageError`s (exit status 2).
    func run() throws -> Int32 {
        guard implicit >= 0 else { throw UsageError("--implicit must be 0 or more") }
        var document = MarkedText()
        if let file {
            do {
                if let text = try DocumentFile.read(file) { document = AtpadMarkup.decode(text) }
            } catch let error as DocumentFile.Failure {
                throw UsageError(error.message)
            }
        }
        var directories = DirectoryOptions()
        directories.directory = directory
        directories.trigger = trigger
        let sources = try directories.load()
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
        let (status, printed) = EditSession(options).run()
        if let printed {
            FileHandle.standardOutput.write(Data(printed.utf8))
        }
        return status
    }
}
