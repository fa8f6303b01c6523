import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem
import Glibc

/// `atpad lsp`: atpad's people, formats and spelling for other editors, as a language
/// server on stdin and stdout (docs/editors.md).
struct LSPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve completion, hover and diagnostics to an editor over the Language Server Protocol (stdin/stdout).",
        discussion: """
            Speaks LSP 3.17 (JSON-RPC, Content-Length framing) on stdin and stdout for documents \
            of the languages markdown, gitcommit, git-rebase and plaintext: completion of \
            mentions at the config's triggers where atpad's editor would start a search, hover on \
            a mention, and diagnostics for an @word that names no one (and misspellings with \
            --spell). The directories are the editor's: the config file and the options below. \
            Problems go to stderr and the client's log; stdout carries protocol messages only. \
            Setup for Neovim, Helix, VS Code and Zed: docs/editors.md.
            """
    )

    @OptionGroup var directories: DirectoryOptions

    @OptionGroup var configFile: ConfigFileOption

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "Rank the people of TARGET's conversation first, as the editor does with --to (\(PostTarget.shapes)); a client's \"to\" setting goes over it.",
        valueName: "target"))
    var to: String?

    @Option(help: ArgumentHelp(
        "Mark misspelt words in LANGUAGE (en_US; repeatable), with the suggestions as code actions; 'off' (the default unless the config's spell sets languages) checks nothing.",
        valueName: "language"))
    var spell: [String] = []

    func run() throws {
        guard spell.isEmpty || Config.isSpellSetting(spell) else {
            throw UsageError("--spell: expected off or a language such as en_US, not '\(spell.joined(separator: ","))'")
        }
        // A bad target is the person's mistake: said first, before anything is read.
        let target = try to.map(PostPreparation.target)
        let environment = ProcessEnvironment.current()
        let settings = try configFile.settings(environment: environment, commandLine: commandLine)
        // The directories load while the client starts: `initialize` needs only the config.
        let load = LSPSettingsLoad { try Self.served(settings, target: target, environment: environment) }
        let spellingAsked = (settings.config.spell ?? ["off"]) != ["off"]
        let server = LSPServer(triggers: DirectorySetup.servedTriggers(settings.config.triggers), spellingAsked: spellingAsked,
                               wordList: SpellingSetup.personalListPath(environment: environment), load: load, output: LSPOutput()) { toml in
            // The client's config stands for the config file's; the command line still
            // goes over it.
            let config = try Config.parse(toml, file: "initializationOptions", environment: environment)
            var merged = config
            try commandLine(&merged)
            return try Self.served(Settings(config: merged, commandLine: settings.commandLine, file: nil),
                                   target: target, environment: environment)
        }
        throw ExitCode(server.run())
    }

    /// The command line's settings, written over a config.
    private func commandLine(_ config: inout Config) throws {
        try directories.apply(to: &config)
        if !spell.isEmpty { config.spell = spell }
    }

    /// What the server serves with `settings`: the directories loaded as `atpad search`
    /// loads them, so every completion is answered from them at once.
    private static func served(_ settings: Settings, target: PostTarget?, environment: [String: String]) throws -> LSPSettings {
        var setup = try DirectorySetup(triggers: settings.config.triggers, limit: settings.limit,
                                       commandTimeout: settings.commandTimeout, inBackground: false,
                                       frecency: FrecencyRecord(), refreshCachesBeforeAnswering: true,
                                       indexCache: IndexCache.standard(environment: environment),
                                       reported: settings.triggerProblem)
        // A big directory's index is written for the next start, as `atpad search` and the
        // editor do (docs/directories.md, "Big directories: the index cache").
        setup.writeIndexesInBackground()
        // stderr, never stdout: the client reads stdout as protocol.
        for warning in setup.warnings + setup.setupErrors.values.sorted() { StandardOutput.error("atpad: \(warning)") }
        let people = setup.files.values.reduce(0) { $0 + $1.index.count }
        let lookup = people <= LSPSettings.lookupLimit ? EntityLookup(setup.files.mapValues(\.entities)) : .empty
        return LSPSettings(triggers: setup.triggers, sources: setup.sources, files: setup.files, lookup: lookup,
                           limit: settings.limit, personTrailers: settings.config.personTrailers ?? [],
                           spelling: spelling(settings.config.spell, directories: setup, environment: environment),
                           conversation: ParticipantsSetup.conversation(target: target,
                                                                        preset: settings.config.triggers["@"]?.preset),
                           commandTimeout: settings.commandTimeout,
                           postEnvironment: PostPreparation.environment(environment, config: settings.config.post))
    }

    /// The spelling checker when `--spell` or the config's `spell` names languages; nil
    /// when off or no dictionary was found (said on stderr).
    private static func spelling(_ configured: [String]?, directories setup: DirectorySetup,
                          environment: [String: String]) -> (speller: any Speller, known: KnownWords)? {
        let asked = configured ?? ["off"]
        guard asked != ["off"] else { return nil }
        let spelling = SpellingSetup(languages: SpellingSetup.languages(asked, environment: environment),
                                     folders: HunspellDictionary.folders(environment: environment), environment: environment)
        for note in spelling.notes { StandardOutput.error("atpad: \(note)") }
        guard let speller = spelling.speller else { return nil }
        // Names and handles are known words, as in `atpad check`.
        let known = KnownWords(entities: setup.people,
                               list: spelling.personalWords)
        return (speller, known)
    }
}
