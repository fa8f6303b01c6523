import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadTerminal
import FoundationEssentials
import Glibc

/// `atpad [FILE]`: the full-screen editor.
struct EditCommand: AsyncParsableCommand {
    // `atpad` as its super-command: what ArgumentParser reads when the editor's line is
    // parsed straight into this command (`AtpadMain.parse`), where the check for a
    // completion-script request is the root's business, not this command's.
    static let configuration = CommandConfiguration(
        commandName: "edit",
        _superCommandName: "atpad",
        abstract: "Edit FILE (created on first save) in the full-screen editor; the default command."
    )

    @Argument(help: "The comment to edit (any bytes, a regular file), in the format its name gives it (.atpad markup, a .json comment json, the config's [formats], Markdown and git's messages github, .txt the config's format, anything else text) or -f's; created on first save.")
    var file: String?

    @OptionGroup var directories: DirectoryOptions

    // The options the config file may also set are nil (or false for a flag) when not
    // given, so the file's value stands (`apply(to:)`).

    @OptionGroup var editing: EditingOptions

    @Option(help: "A bundled theme name (default, mono) or a theme file path.")
    var theme: String?

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "The file's format, to open and save it, whatever its name: \(DocumentFormat.names) (matrix and adf: output only, with --print and no FILE).",
        valueName: "format"))
    var format: String?

    @OptionGroup var configFile: ConfigFileOption

    @Flag(help: "Draw with attributes only (also set by the NO_COLOR environment variable).")
    var noColor = false

    @Flag(help: "On a successful exit also write the comment to stdout.")
    var print = false

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "Post the comment with Ctrl-S (after saving FILE, if given) to TARGET, once you confirm who it notifies: \(PostTarget.shapes). The result (its URL or id) goes to stdout. Tokens come from the environment (see atpad post --help); --command-timeout is the post's timeout (default 10).",
        valueName: "target"))
    var to: String?

    @Option(help: "Where copies go: terminal (atpad's clipboard and the terminal's, with OSC 52; the default) or internal (atpad's only).")
    var clipboard: Clipboard?

    /// Writes the options given over `config` (the config file's settings): an option on
    /// the command line wins.
    func apply(to config: inout Config) throws {
        try directories.apply(to: &config)
        if let implicit = try editing.checkedImplicit() { config.implicit = implicit }
        if editing.trimMentions { config.trimMentions = true }
        if let theme { config.theme = theme }
        if noColor { config.noColor = true }
        if let format { config.format = try DocumentFormat(option: "--format", name: format).rawValue }
        if let clipboard { config.clipboard = clipboard }
    }

    func run() async throws {
        let command = self
        let status = try await MainActor.run { try command.runEditor() }
        if status != 0 { throw ExitCode(status) }
    }

    /// Without a terminal there is nothing to edit on: `atpad: no terminal` (exit 2). It is
    /// checked after the command line, the config, the directories and FILE, whose errors
    /// name the person's mistake (and which scripts check without a terminal), but before
    /// stdin is read for `-` (never consumed for nothing) and before the terminal is touched.
    static func requireTerminal() throws {
        guard TerminalBackend.hasTerminal() else { throw UsageError("no terminal") }
    }

    /// Checks the values, loads what the editor needs and runs it on the calling (main)
    /// thread, which owns the terminal; returns the exit status. Problems found before
    /// the screen is drawn are `UsageError`s (exit status 2).
    func runEditor() throws -> Int32 {
        // The first frame needs the common words (implicit search) and the default theme:
        // they are made on the other core while this one reads the config and the file.
        BackgroundThread.start(name: "atpad warm-up") { _ = BundledQuietWords.words; _ = Theme.builtInDefault }
        let environment = ProcessEnvironment.current()
        // A bad target is the person's mistake: said first, before anything is read.
        let postTarget = try to.map(PostPreparation.target)
        let settings = try configFile.settings(environment: environment, commandLine: apply)
        // `-f` wins; else the file's name decides (docs/formats.md): `.atpad`, `.json`
        // holding a comment, the config's `[formats]`, Markdown and git's messages, the
        // config's `format` for a comment whose name says nothing, else `text`.
        // `apply` checked `-f` (and the config its keys) to name a format.
        let named = settings.commandLine.format.flatMap(DocumentFormat.init(rawValue:))
        let formatRule = settings.config.formatRule
        // An output-only format (matrix) can print a new comment, never open a file.
        if let named, named.isOutputOnly, let file {
            throw settings.problem(\.format, option: "--format", key: "format",
                                   "the \(named) format is output only; it cannot open \(file) (use it with --print and no FILE, or atpad render)")
        }
        // FILE is read first: its format and whether that needs the directory depend on
        // what it holds (and a device, FIFO or socket is refused before anything else is
        // set up). `-` (stdin, read whole before the screen starts; keys then come from
        // /dev/tty) is read after the directories, so a mistake there never consumes it
        // for nothing.
        let fileRead = file == "-" ? nil : try OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
        let format = formatRule.format(of: file == "-" ? nil : file, named: named, contents: fileRead?.bytes)
        if format.isOutputOnly, let file {
            throw settings.problem(\.format, option: "--format", key: "format",
                                   "the \(format) format is output only; it cannot open \(file) (use it with --print and no FILE, or atpad render)")
        }
        // A format that reads mentions by handle or id needs the directory before the file
        // is decoded, so its files load now rather than in the background.
        let needsDirectory = fileRead?.needsDirectory(format) ?? format.decodingUsesDirectory
        let frecency = FrecencyRecord(environment: environment)
        var directories = try DirectorySetup(
            triggers: settings.config.triggers, limit: settings.limit,
            commandTimeout: settings.commandTimeout, inBackground: !needsDirectory, frecency: frecency,
            environment: environment, indexCache: IndexCache.standard(environment: environment),
            reported: settings.triggerProblem)
        directories.writeIndexesInBackground()
        // Writing handles or urls asks the directories loaded already (the large ones load
        // behind the screen when nothing needs them sooner; a picked mention carries its own).
        let lookup = needsDirectory || format.encodingUsesDirectory || postTarget?.format.encodingUsesDirectory == true
            ? EntityLookup(directories.files.mapValues(\.entities)) : .empty
        let opened = try fileRead ?? OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
        let decoded = try opened.decode(format, lookup: lookup)
        // With `--to`, the mentions show what the target's readers see (docs/formats.md).
        let readersFormat = postTarget.map(\.format).flatMap { $0 == format ? nil : $0 }
        let document = readersFormat.map { lookup.showing(decoded.document, in: $0) } ?? decoded.document
        let notes = decoded.notes
        // The bundled default.toml is the built-in theme as a file (a test keeps them
        // equal): not read again at every start.
        let themeName = settings.config.theme ?? Theme.defaultName
        let loadedTheme = themeName == Theme.defaultName ? Theme.builtInDefault
            : try settings.check(\.theme, option: "--theme", key: "theme") {
                do {
                    return try Theme.load(themeName, themesIn: BundledResources.themes())
                } catch let error as ThemeError {
                    // A name not found says so; a theme file's own problem names its file and line.
                    throw UsageError(ConfigPaths.isThemePath(themeName) ? error.description : error.message)
                }
            }
        // A post that could not be made (a variable unset, gh missing) is found now, not
        // after the comment is written: a request is made once, for an empty comment (what
        // the comment holds is checked when it is posted). The tokens: the environment's,
        // else the config's `[post]` (with `${NAME}`s).
        let postEnvironment = PostPreparation.environment(environment, config: settings.config.post)
        let posting = try postTarget.map { target in
            _ = try PostPreparation.request(target, document: MarkedText(), lookup: lookup, environment: postEnvironment)
            return (target: target, context: PostingContext(environment: postEnvironment,
                                                            timeout: try PostPreparation.timeout(self.directories.commandTimeout,
                                                                                                     config: settings.config.commandTimeout)))
        }
        try Self.requireTerminal()
        // The conversation's participants rank first under `@` (`--to`, or the github
        // preset's pull request): fetched behind the first screen, never waited for.
        var sources = directories.sources
        let participants = ParticipantsSetup.conversation(target: postTarget, preset: settings.config.triggers["@"]?.preset)
            .flatMap { ParticipantsSetup.start($0, sources: &sources, limit: settings.limit,
                                               timeout: settings.commandTimeout, environment: postEnvironment) }
        let noColorEnv = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var options = EditOptions(
            path: file == "-" ? nil : file, document: document, format: format, lookup: lookup,
            sources: sources, loading: directories.loading,
            warnings: directories.warnings + notes + (frecency.warning.map { [$0] } ?? []),
            config: EditorConfig(triggers: directories.triggers,
                                 implicitThreshold: settings.config.implicit ?? 3,
                                 trimMentions: settings.config.trimMentions ?? false,
                                 chooserRows: settings.config.chooserRows ?? 8,
                                 quietWords: BundledQuietWords.words, format: format),
            theme: loadedTheme, noColor: (settings.config.noColor ?? false) || noColorEnv, print: print,
            // ATPAD_DRAFTS=off turns recovery drafts off (a shared machine, a benchmark).
            drafts: environment["ATPAD_DRAFTS"] == "off" ? nil : DraftStore(environment: environment),
            frecency: frecency)
        options.config.readersFormat = readersFormat
        options.sourceNotes = directories.notes
        options.post = posting
        options.participants = participants
        // git's commit and merge messages: `Co-authored-by: @jo` credits a co-author
        // (docs/people.md, "Credit co-authors in a commit message").
        options.config.coAuthorTrailers = file.map(CoAuthor.isCommitMessage(path:)) ?? false
        // Only `-f` fixes the format: Save as under another name asks the rule again.
        options.formatIsFixed = named != nil
        options.formatRule = formatRule
        options.ending = decoded.ending
        options.disk = opened.disk
        options.isReadOnly = opened.isReadOnly
        options.fromStandardInput = file == "-"
        options.terminalClipboard = settings.config.clipboard != .internal
        options.graphemes = settings.config.graphemes ?? .auto
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
                    // A lock that cannot be read may be another atpad's: read-only, as above.
                    if outcome == .unreadable {
                        options.isReadOnly = true
                        options.drafts = nil
                    }
                    options.warnings.insert(warning, at: 0)
                }
            }
        }
        let session = EditSession(options)
        let (status, printed) = session.run()
        if let note = session.exitNote { StandardOutput.error(note) }
        lock?.release()
        frecency.finishSaving()
        if let printed {
            // The bytes as the format wrote them (a comment may hold bytes that are not UTF-8).
            try? StandardOutput.writeAll(printed, asIs: true)
        }
        return status
    }
}
