import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem
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

    @Flag(help: "Mark no misspelt words (as the config's spell = \"off\" does).")
    var noSpell = false

    @Flag(help: "On a successful exit also write the comment to stdout.")
    var print = false

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "Post the comment with Ctrl-S (after saving FILE, if given) to TARGET, once you confirm who it notifies: \(PostTarget.shapes). The result (its URL or id) goes to stdout. Tokens come from the environment (see atpad post --help); --command-timeout is the post's timeout (default \(SourceDefaults.seconds(PostPreparation.defaultTimeout))).",
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
        if noSpell { config.spell = ["off"] }
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
    /// the screen is drawn are `UsageError`s (exit status 2), said in the order of these
    /// steps.
    func runEditor() throws -> Int32 {
        Self.warmUp()
        let environment = ProcessEnvironment.current()
        // A bad target is the person's mistake: said first, before anything is read.
        let postTarget = try to.map(PostPreparation.target)
        let settings = try configFile.settings(environment: environment, commandLine: apply)
        let named = try namedFormat(settings)
        let fileRead = try readFile()
        let format = try chooseFormat(settings, named: named, contents: fileRead)
        let frecency = FrecencyRecord(environment: environment)
        // A format that reads mentions by handle or id needs the directory before the file
        // is decoded, so its files load now rather than in the background.
        let needsDirectory = fileRead?.needsDirectory(format) ?? format.decodingUsesDirectory
        let directories = try loadDirectories(settings, inBackground: !needsDirectory, frecency: frecency,
                                              environment: environment)
        // Writing handles or urls asks the directories loaded already (the large ones load
        // behind the screen when nothing needs them sooner; a picked mention carries its own).
        let lookup = needsDirectory || format.encodingUsesDirectory || postTarget?.format.encodingUsesDirectory == true
            ? EntityLookup(directories.files.mapValues(\.entities)) : .empty
        let comment = try openComment(fileRead, format: format, lookup: lookup, postTarget: postTarget,
                                      environment: environment)
        let theme = try loadTheme(settings)
        // The tokens: the environment's, else the config's `[post]` (with `${NAME}`s).
        let postEnvironment = PostPreparation.environment(environment, config: settings.config.post)
        let posting = try preparePosting(postTarget, settings: settings, lookup: lookup, environment: postEnvironment)
        try Self.requireTerminal()
        var options = editOptions(comment, format: format, named: named, lookup: lookup, directories: directories,
                                  settings: settings, theme: theme, frecency: frecency, environment: environment)
        options.post = posting
        startParticipants(&options, target: postTarget, settings: settings, environment: postEnvironment)
        let lock = takeLock(&options, environment: environment)
        return runSession(options, lock: lock, frecency: frecency, environment: environment)
    }

    /// The first frame needs the common words (implicit search) and the default theme:
    /// they are made on the other core while this one reads the config and the file.
    private static func warmUp() {
        BackgroundThread.start(name: "atpad warm-up") { _ = BundledQuietWords.words; _ = Theme.builtInDefault }
    }

    /// The format `-f` names, if any (`apply` checked that it names one, and the config its
    /// keys). An output-only format (matrix) can print a new comment, never open a file.
    private func namedFormat(_ settings: Settings) throws -> DocumentFormat? {
        let named = settings.commandLine.format.flatMap(DocumentFormat.init(rawValue:))
        if let named, named.isOutputOnly, let file { throw Self.outputOnly(named, file, settings) }
        return named
    }

    /// FILE is read first: its format and whether that needs the directory depend on what
    /// it holds (and a device, FIFO or socket is refused before anything else is set up).
    /// `-` (stdin, read whole before the screen starts; keys then come from /dev/tty) is
    /// read after the directories (``openComment(_:format:lookup:postTarget:)``), so a
    /// mistake there never consumes it for nothing: nil for it.
    private func readFile() throws -> OpenedFile? {
        file == "-" ? nil : try OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
    }

    /// `-f` wins; else the file's name decides (docs/formats.md): `.atpad`, `.json`
    /// holding a comment, the config's `[formats]`, Markdown and git's messages, the
    /// config's `format` for a comment whose name says nothing, else `text`.
    private func chooseFormat(_ settings: Settings, named: DocumentFormat?, contents fileRead: OpenedFile?) throws
        -> DocumentFormat {
        let format = settings.config.formatRule.format(of: file == "-" ? nil : file, named: named,
                                                       contents: fileRead?.bytes)
        if format.isOutputOnly, let file { throw Self.outputOnly(format, file, settings) }
        return format
    }

    private static func outputOnly(_ format: DocumentFormat, _ file: String, _ settings: Settings) -> UsageError {
        settings.problem(\.format, option: "--format", key: "format",
                         "the \(format) format is output only; it cannot open \(file) (use it with --print and no FILE, or atpad render)")
    }

    /// The triggers' directories; with `inBackground`, the large ones load behind the first
    /// screen. The indexes of those read without one are written on threads of their own.
    private func loadDirectories(_ settings: Settings, inBackground: Bool, frecency: FrecencyRecord,
                                 environment: [String: String]) throws -> DirectorySetup {
        var directories = try DirectorySetup(
            triggers: settings.config.triggers, limit: settings.limit,
            commandTimeout: settings.commandTimeout, inBackground: inBackground, frecency: frecency,
            environment: environment, indexCache: IndexCache.standard(environment: environment),
            reported: settings.triggerProblem)
        directories.writeIndexesInBackground()
        return directories
    }

    /// The comment to start from, decoded: FILE as read, or stdin's, read now.
    private struct Comment {
        var file: OpenedFile
        /// The document as shown: with `--to`, its mentions as the target's readers see them.
        var document: MarkedText
        var decoded: DecodedDocument
        /// `--to`'s format when it is not the file's: what the mentions show.
        var readersFormat: DocumentFormat?
        /// The git file FILE is (a commit message, a rebase list), if any.
        var git: GitFile?
    }

    /// Reads stdin for `-` (FILE was read already) and decodes the comment in `format`.
    private func openComment(_ fileRead: OpenedFile?, format: DocumentFormat, lookup: EntityLookup,
                             postTarget: PostTarget?, environment: [String: String]) throws -> Comment {
        let opened = try fileRead ?? OpenedFile.read(file, beforeStandardInput: Self.requireTerminal)
        let git = file == "-" ? nil : GitSettings.file(path: file, bytes: opened.bytes, environment: environment)
        let decoded = try opened.decode(format, lookup: lookup, git: git)
        // With `--to`, the mentions show what the target's readers see (docs/formats.md).
        let readersFormat = postTarget.map(\.format).flatMap { $0 == format ? nil : $0 }
        let document = readersFormat.map { lookup.showing(decoded.document, in: $0) } ?? decoded.document
        return Comment(file: opened, document: document, decoded: decoded, readersFormat: readersFormat, git: git)
    }

    /// The theme `--theme` or the config names. The bundled default.toml is the built-in
    /// theme as a file (a test keeps them equal): not read again at every start.
    private func loadTheme(_ settings: Settings) throws -> Theme {
        let themeName = settings.config.theme ?? Theme.defaultName
        guard themeName != Theme.defaultName else { return Theme.builtInDefault }
        return try settings.check(\.theme, option: "--theme", key: "theme") {
            do {
                return try Theme.load(themeName, themesIn: BundledResources.themes())
            } catch let error as ThemeError {
                // A name not found says so; a theme file's own problem names its file and line.
                throw UsageError(ConfigPaths.isThemePath(themeName) ? error.description : error.message)
            }
        }
    }

    /// A post that could not be made (a variable unset, gh missing) is found now, not
    /// after the comment is written: a request is made once, for an empty comment (what
    /// the comment holds is checked when it is posted).
    private func preparePosting(_ postTarget: PostTarget?, settings: Settings, lookup: EntityLookup,
                                environment: [String: String]) throws -> (target: PostTarget, context: PostingContext)? {
        try postTarget.map { target in
            _ = try PostPreparation.request(target, document: MarkedText(), lookup: lookup, from: nil, environment: environment)
            return (target: target, context: PostingContext(environment: environment,
                                                            timeout: try PostPreparation.timeout(self.directories.commandTimeout,
                                                                                                     config: settings.config.commandTimeout)))
        }
    }

    /// Everything the session needs, from what the steps before found.
    private func editOptions(_ comment: Comment, format: DocumentFormat, named: DocumentFormat?, lookup: EntityLookup,
                             directories: DirectorySetup, settings: Settings, theme: Theme, frecency: FrecencyRecord,
                             environment: [String: String]) -> EditOptions {
        let noColorEnv = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var options = EditOptions(
            path: file == "-" ? nil : file, document: comment.document, format: format,
            lookup: lookup,
            sources: directories.sources, loading: directories.loading,
            warnings: directories.warnings + comment.decoded.notes + (frecency.warning.map { [$0] } ?? []),
            config: EditorConfig(triggers: directories.triggers,
                                 implicitThreshold: settings.config.implicit ?? EditorConfig.defaultImplicitThreshold,
                                 trimMentions: settings.config.trimMentions ?? false,
                                 chooserRows: settings.config.chooserRows ?? EditorConfig.defaultChooserRows,
                                 quietWords: BundledQuietWords.words, format: format),
            theme: theme, noColor: (settings.config.noColor ?? false) || noColorEnv, print: print,
            // ATPAD_DRAFTS=off turns recovery drafts off (a shared machine, a benchmark).
            drafts: environment["ATPAD_DRAFTS"] == "off" ? nil : DraftStore(environment: environment),
            frecency: frecency)
        options.config.readersFormat = comment.readersFormat
        options.sourceNotes = directories.notes
        let languages = SpellingSetup.languages(settings.config.spell, environment: environment)
        options.config.checksSpelling = !languages.isEmpty
        if !languages.isEmpty {
            // The people of the directories read already (a large one loading in the
            // background is not waited for).
            options.spelling = SpellChecker.Settings(languages: languages,
                                                     folders: HunspellDictionary.folders(environment: environment),
                                                     environment: environment, entities: directories.people)
        }
        // git's files, read as git reads them (docs/git.md); in its message files
        // `Signed-off-by: @jo` names a person by name and email.
        options.config.git = comment.git
        options.config.subjectLimit = settings.config.subjectLimit ?? EditorConfig.defaultSubjectLimit
        options.config.bodyWidth = settings.config.bodyWidth ?? EditorConfig.defaultBodyWidth
        if comment.git?.kind == .message {
            options.config.personTrailers = PersonTrailers(extra: settings.config.personTrailers ?? [])
            options.config.signOffIdent = GitSettings.committer(environment)
        }
        // Only `-f` fixes the format: Save as under another name asks the rule again.
        options.formatIsFixed = named != nil
        options.formatRule = settings.config.formatRule
        options.ending = comment.decoded.ending
        options.disk = comment.file.disk
        options.isReadOnly = comment.file.isReadOnly
        options.fromStandardInput = file == "-"
        options.terminalClipboard = settings.config.clipboard != .internal
        options.graphemes = settings.config.graphemes ?? .auto
        return options
    }

    /// The conversation's participants rank first under `@` (`--to`, or the github
    /// preset's pull request): fetched behind the first screen, never waited for.
    private func startParticipants(_ options: inout EditOptions, target: PostTarget?, settings: Settings,
                                   environment: [String: String]) {
        options.participants = ParticipantsSetup.conversation(target: target, preset: settings.config.triggers["@"]?.preset)
            .flatMap { ParticipantsSetup.start($0, sources: &options.sources, limit: settings.limit,
                                               timeout: settings.commandTimeout, environment: environment) }
    }

    /// From the moment a FILE is open, the lock says so; a file another live atpad is
    /// editing opens read-only, and that atpad's draft is neither offered nor touched.
    private func takeLock(_ options: inout EditOptions, environment: [String: String]) -> EditLock? {
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
        return lock
    }

    /// Runs the editor until it quits, then lets go of the lock, finishes the frecency
    /// file and prints what `--print` prints, after the screen is gone.
    private func runSession(_ options: EditOptions, lock: EditLock?, frecency: FrecencyRecord,
                            environment: [String: String]) -> Int32 {
        // With ATPAD_TRACE_FILE, the terminal also writes each input batch's times.
        let session = EditSession(options, terminal: TracingTerminal.chosen(TerminalBackend(), environment: environment))
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
