import ArgumentParser
import AtpadCore
import AtpadSystem
import Synchronization

/// `atpad check FILE`: the misspelt words of a comment or commit message, one a line as
/// `FILE:LINE:COL: WORD (suggestion, …)`, exit status 1 when there is any — so
/// `atpad check "$1"` is a commit-msg hook (docs/spelling.md, "`atpad check`").
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Print the misspelt words of a comment or commit message; exit 1 when there is any.",
        discussion: """
            FILE - reads stdin. Words of prose and link text only: never code, link destinations, URLs, e-mail addresses, paths, mentions, \
            emoji, git's comment lines and diff, words with digits or identifiers. The names and \
            handles of the directories and the personal word list ~/.config/atpad/words are \
            known words. Each misspelling is one line, FILE:LINE:COL: WORD (suggestions), the \
            column in characters. Exit status: 0 when none, 1 when any, 2 on usage errors. As a \
            commit-msg hook: exec atpad check "$1".
            """
    )

    @OptionGroup var input: CommentFileOptions

    @Option(help: ArgumentHelp(
        "A language to check in, by its Hunspell dictionary's name (en_US); repeatable, a word being right when any of them knows it; 'off' checks nothing (default: the config's spell, else LANG's language, else en_US).",
        valueName: "language"))
    var spell: [String] = []

    @Flag(help: "Print one JSON object per misspelt word, one a line: file, line, column, word, suggestions.")
    var json = false

    @OptionGroup var directories: DirectoryOptions

    /// The most suggestions printed for one word.
    static let suggestionLimit = 5

    /// The last check's dictionaries, kept open when it returns: destroying a Hunspell
    /// dictionary frees its words one by one (40 ms for en_US, as long as the rest of a
    /// commit message's check), where the process's end gives them back at once. Replaced
    /// by the next check in the same process (the tests').
    private static let keptOpen = Mutex<Dictionaries?>(nil)

    func run() throws {
        guard spell.isEmpty || Config.isSpellSetting(spell) else {
            throw UsageError("--spell: expected off or a language such as en_US, not '\(spell.joined(separator: ","))'")
        }
        let environment = ProcessEnvironment.current()
        let settings = try input.configFile.settings(environment: environment) { config in
            if !spell.isEmpty { config.spell = spell }
        }
        // Opening a dictionary (reading its words and affixes) is most of a short check: the
        // directories and the comment are read on the other core meanwhile. The dictionary
        // is opened here, on the main thread, whose heap grows in large steps: a thread's
        // grows by what each of its 50,000 words needs, one system call each.
        let (input, directories) = (input, directories)
        let reading = Handoff.start(name: "check reading") {
            Result { () throws(any Error) in
                // Names and handles are known words, so the directory files are read.
                let tables = try directories.entities(configFile: input.configFile)
                let comment = try input.read(directories: directories, allowsStandardInput: true, readingGit: true,
                                             lookup: EntityLookup(tables), sayingNotes: false)
                return (comment, KnownWords(entities: DirectorySetup.people(in: tables)))
            }
        }
        let setup = SpellingSetup(languages: SpellingSetup.languages(settings.config.spell, environment: environment),
                                  folders: HunspellDictionary.folders(environment: environment), environment: environment)
        var (comment, known) = try reading.wait().get()
        for note in setup.notes { StandardOutput.error("atpad: \(note)") }
        // No dictionary: said above, and nothing is found wrong.
        guard let speller = setup.speller else { return }
        Self.keptOpen.withLock { $0 = speller }
        known.formUnion(KnownWords(entities: [], list: setup.personalWords))
        let found = Misspelling.find(in: comment.document, format: comment.format, git: comment.git,
                                     speller: speller, known: known)
        for misspelling in found {
            let suggestions = Array(speller.suggestions(for: misspelling.word).prefix(Self.suggestionLimit))
            StandardOutput.printLine(json ? Self.json(misspelling, suggestions, file: input.file)
                                          : Self.line(misspelling, suggestions, file: input.file))
        }
        if !found.isEmpty { throw ExitCode(1) }
    }

    /// `FILE:LINE:COL: WORD (suggestion, suggestion)`, without the parentheses when there
    /// is no suggestion.
    static func line(_ misspelling: Misspelling, _ suggestions: [String], file: String) -> String {
        let head = "\(file):\(misspelling.line):\(misspelling.column): \(misspelling.word)"
        return suggestions.isEmpty ? head : head + " (" + suggestions.joined(separator: ", ") + ")"
    }

    /// One misspelling as a JSON object on one line.
    static func json(_ misspelling: Misspelling, _ suggestions: [String], file: String) -> String {
        JSONWriter.text(.object([
            ("file", .string(file)), ("line", .number(misspelling.line)), ("column", .number(misspelling.column)),
            ("word", .string(misspelling.word)), ("suggestions", .array(suggestions.map(JSONValue.string))),
        ]))
    }
}
