import AtpadCore
import AtpadDirectory
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
    var directoryCommand: String?
    var directoryURL: String?
    var items: String?
    var map: String?
    var preset: String?
    var commandTimeout: Double?
    /// Settings the config file may also give: nil (or false for a flag) = not on the
    /// command line.
    var implicit: Int?
    var trimMentions = false
    var theme: String?
    var noColor = false
    var format: String?
    var config: String?
    var print = false
    var clipboard: String?

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
            case "--directory-command":
                guard let v = value() else { return nil }
                result.directoryCommand = v
            case "--directory-url":
                guard let v = value() else { return nil }
                result.directoryURL = v
            case "--items":
                guard let v = value() else { return nil }
                result.items = v
            case "--map":
                guard let v = value() else { return nil }
                result.map = v
            case "--preset":
                guard let v = value() else { return nil }
                result.preset = v
            case "--command-timeout":
                guard let v = value(), let seconds = Double(v) else { return nil }
                result.commandTimeout = seconds
            case "--implicit":
                guard let v = value(), let n = Int(v) else { return nil }
                result.implicit = n
            case "--theme":
                guard let v = value() else { return nil }
                result.theme = v
            case "-f", "--format":
                guard let v = value() else { return nil }
                result.format = v
            case "--clipboard":
                guard let v = value() else { return nil }
                result.clipboard = v
            case "--config":
                guard let v = value() else { return nil }
                result.config = v
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

    /// What the command line sets, as a config that overrides the config file's.
    func commandLineConfig() throws -> Config {
        var config = try DirectoryOptions.config(
            directory: directory, trigger: trigger, directoryCommand: directoryCommand,
            directoryURL: directoryURL, commandTimeout: commandTimeout, items: items, map: map, preset: preset)
        config.implicit = implicit
        config.trimMentions = trimMentions ? true : nil
        config.theme = theme
        config.noColor = noColor ? true : nil
        config.format = format
        if let clipboard {
            guard Config.clipboards.contains(clipboard) else {
                throw UsageError("--clipboard must be terminal or internal, not \(clipboard)")
            }
            config.clipboard = clipboard
        }
        return config
    }

    /// Without a terminal there is nothing to edit on: `atpad: no terminal` (exit 2). It is
    /// checked after the command line, the config, the directories and FILE, whose errors
    /// name the person's mistake (and which scripts check without a terminal), but before
    /// stdin is read for `-` (never consumed for nothing) and before the terminal is touched.
    static func requireTerminal() throws {
        guard TerminalBackend.hasTerminal() else { throw UsageError("no terminal") }
    }

    /// Checks the values, loads what the editor needs and runs it; returns the exit status.
    /// Problems found before the screen is drawn are `UsageError`s (exit status 2).
    func run() throws -> Int32 {
        let environment = ProcessEnvironment.current()
        let settings = try Settings.resolve(configPath: config, commandLine: commandLineConfig(),
                                            environment: environment)
        // `-f` wins; else the file's name decides (SPEC §7), atpad markup only for `.atpad`.
        let named = try format.map { try DocumentFormat(option: "--format", name: $0) }
        let formatRule = settings.config.formatRule
        let format = formatRule.format(of: file == "-" ? nil : file, named: named)
        // An output-only format (matrix) can print a new comment, never open a file.
        if format.isOutputOnly, let file {
            throw UsageError("--format: the \(format) format is output only; it cannot open \(file) (use it with --print and no FILE, or atpad render)")
        }
        // FILE is read first: whether its format needs the directory depends on what it holds.
        // `-` (stdin, read whole before the screen starts; keys then come from /dev/tty) is
        // read after the directories, so a mistake there never consumes it for nothing.
        let fileRead = file == "-" ? nil : try OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
        // A format that reads mentions by handle or id needs the directory before the file
        // is decoded, so its files load now rather than in the background.
        let needsDirectory = fileRead?.needsDirectory(format) ?? format.decodingUsesDirectory
        let frecency = FrecencyRecord(environment: environment)
        var directories = try DirectorySetup(
            triggers: settings.config.triggers, limit: settings.limit,
            commandTimeout: settings.commandTimeout, inBackground: !needsDirectory, frecency: frecency,
            environment: environment, indexCache: IndexCache.standard(environment: environment))
        directories.writeIndexesInBackground()
        // Writing handles or urls asks the directories loaded already (the large ones load
        // behind the screen when nothing needs them sooner; a picked mention carries its own).
        let lookup = needsDirectory || format.encodingUsesDirectory ? EntityLookup(directories.files.mapValues(\.entities))
            : .empty
        let opened = try fileRead ?? OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
        let decoded = try opened.decode(format, lookup: lookup)
        let document = decoded.document
        let notes = decoded.notes
        let loadedTheme: Theme
        do {
            // The bundled default.toml is the built-in theme as a file (a test keeps them
            // equal): not read again at every start.
            let name = settings.config.theme ?? Theme.defaultName
            loadedTheme = name == Theme.defaultName ? Theme.builtInDefault
                : try Theme.load(name, themesIn: BundledResources.themes())
        } catch {
            throw UsageError("\(error)")
        }
        try Self.requireTerminal()
        let noColorEnv = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var options = EditOptions(
            path: file == "-" ? nil : file, document: document, format: format, lookup: lookup,
            sources: directories.sources, loading: directories.loading,
            warnings: directories.warnings + notes + (frecency.warning.map { [$0] } ?? []),
            config: EditorConfig(triggers: directories.triggers,
                                 implicitThreshold: settings.config.implicit ?? 3,
                                 trimMentions: settings.config.trimMentions ?? false,
                                 chooserRows: settings.config.chooserRows ?? 8,
                                 quietWords: BundledQuietWords.words),
            theme: loadedTheme, noColor: (settings.config.noColor ?? false) || noColorEnv, print: print,
            // ATPAD_DRAFTS=off turns recovery drafts off (a shared machine, a benchmark).
            drafts: environment["ATPAD_DRAFTS"] == "off" ? nil : DraftStore(environment: environment),
            frecency: frecency)
        options.sourceNotes = directories.notes
        options.formatIsFixed = named != nil
        options.formatRule = formatRule
        options.disk = opened.disk
        options.isReadOnly = opened.isReadOnly
        options.fromStandardInput = file == "-"
        options.terminalClipboard = settings.config.clipboard != "internal"
        // From the moment a FILE is open, the lock says so; a file another live atpad is
        // editing opens read-only, and that atpad's draft is neither offered nor touched.
        let lock = options.path.flatMap { path in
            DraftStore.folder(environment: environment).map { EditLock(documentPath: path, draftsFolder: $0) }
        }
        if let lock, let file {
            switch lock.acquire() {
            case let .heldBy(pid):
                options.isReadOnly = true
                options.drafts = nil
                options.warnings.insert("\(file) is open in another atpad (pid \(pid))", at: 0)
            case let outcome:
                if let warning = EditLock.warning(outcome, file: file, lock: lock.path) {
                    if outcome == .unreadable {
                        options.isReadOnly = true
                        options.drafts = nil
                    }
                    options.warnings.insert(warning, at: 0)
                }
            }
        }
        let (status, printed) = EditSession(options).run()
        lock?.release()
        frecency.finishSaving()
        if let printed {
            FileHandle.standardOutput.write(Data(printed))
        }
        return status
    }
}

/// The config file's settings overridden by the command line's, checked, with defaults.
struct Settings {
    var config: Config

    /// Reads the config file (`configPath`, else the default location) and lets the
    /// command line override it. Errors are `UsageError`s naming the file, line and key.
    static func resolve(configPath: String?, commandLine: Config, environment: [String: String]) throws -> Settings {
        let file: Config
        do {
            file = try Config.load(path: configPath, environment: environment).config
        } catch {
            throw UsageError(error.description)
        }
        let merged = file.overridden(by: commandLine)
        if let implicit = merged.implicit, implicit < 0 { throw UsageError("--implicit must be 0 or more") }
        return Settings(config: merged)
    }

    var limit: Int { config.limit ?? 50 }
    var commandTimeout: Duration { config.commandTimeout ?? .seconds(5) }
}
