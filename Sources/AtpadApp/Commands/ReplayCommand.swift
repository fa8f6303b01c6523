import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem

/// `atpad replay`: runs the editor core on a key script without a terminal and prints
/// its final state as one JSON object (docs/commands.md, "`atpad replay`").
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run the editor without a terminal on a key script and print its state as JSON."
    )

    @Option(help: "The key script, e.g. '@jo<Enter>'.")
    var keys: String = ""

    @Option(help: "The starting document in atpad markup; '|' marks the cursor (default: the end).")
    var text: String = ""

    @Option(help: "Text width in columns (for soft wrap and Up/Down).")
    var width: Int = 80

    @Option(help: "Terminal height in rows (PgUp/PgDn move by height - 3 rows).")
    var height: Int = 24

    @Option(help: ArgumentHelp(
        "The format the comment is edited for: a pick shows the handle in github, gitlab, mattermost and text, else the name; a paste is read as that format reads a file; in Markdown formats (github, gitlab, mattermost, markdown) no search starts where GitHub would not make a mention (code, links, URLs, HTML, a heading's #); in text no trigger starts a search by itself.",
        valueName: "format"))
    var format: String = "atpad"

    @Option(help: ArgumentHelp(
        "Check spelling in a language, by its Hunspell dictionary's name (en_US), as the editor does, each key's text checked before the next key; repeatable (default: none, as replay reads no config; no personal word list is read or written).",
        valueName: "language"))
    var spell: [String] = []

    @OptionGroup var directories: DirectoryOptions

    @OptionGroup var editing: EditingOptions

    /// Replay reads no config: an option not given is the default.
    var implicit: Int { editing.implicit ?? EditorConfig.defaultImplicitThreshold }
    var trimMentions: Bool { editing.trimMentions }

    func run() async throws {
        guard width >= 1 else { throw UsageError("--width must be at least 1") }
        guard height >= 4 else { throw UsageError("--height must be at least 4") }
        guard implicit >= 0 else { throw UsageError("--implicit must be 0 or more") }
        guard spell.isEmpty || Config.isSpellSetting(spell) else {
            throw UsageError("--spell: expected off or a language such as en_US, not '\(spell.joined(separator: ","))'")
        }
        let script: [Key]
        do { script = try KeyScript.parse(keys) } catch { throw UsageError(error.description) }
        let start: (MarkedText, cursor: Int?)
        do { start = try AtpadMarkup.decodeWithCursor(text) } catch { throw UsageError(error.description) }
        let directories = try directories.load()
        // Replay goes on without the sample directory; the one line on stderr says why `@`
        // opens no chooser.
        if let missing = directories.missingSample { StandardOutput.error("atpad: \(missing)") }
        let sources = directories.sources
        let config = EditorConfig(
            triggers: directories.triggers,
            implicitThreshold: implicit, trimMentions: trimMentions,
            width: width, pageRows: max(1, height - 3), quietWords: BundledQuietWords.words,
            format: try DocumentFormat(option: "--format", name: format))
        var editor = Editor(start.0, cursor: start.cursor, config: config)
        // A paste is read as the format reads a file, and a pick shows what its readers see.
        editor.lookup = EntityLookup(directories.files.mapValues(\.entities))
        let spelling = Self.spelling(languages: spell == ["off"] ? [] : spell, directories: directories)
        editor.config.checksSpelling = spelling != nil
        let final = await MainActor.run { Replay.run(editor, keys: script, sources: sources, spelling: spelling) }
        print(ReplayOutput.json(final))
    }
}

extension ReplayCommand {
    /// What replay checks spelling with: the languages' dictionaries where the editor finds
    /// them, and the directories' names as known words; nil with no language. Without a
    /// home in its environment the checker has no personal word list to read or write. A
    /// language without a dictionary is said on stderr, in one line.
    static func spelling(languages: [String], directories: DirectorySetup) -> SpellChecker.Settings? {
        guard !languages.isEmpty else { return nil }
        var environment = ProcessEnvironment.current()
        let folders = HunspellDictionary.folders(environment: environment)
        let missing = languages.filter { HunspellDictionary.files(language: $0, folders: folders) == nil }
        if !missing.isEmpty {
            let found = languages.filter { !missing.contains($0) }
            StandardOutput.error("atpad: \(SpellingSetup.missingNote(missing, found: found))")
        }
        for name in ["HOME", "XDG_CONFIG_HOME"] { environment[name] = nil }
        return SpellChecker.Settings(languages: languages, folders: folders, environment: environment,
                                     entities: directories.people)
    }
}

/// The editor without a terminal: the app model takes each key of a script, and the same
/// effect runner as the editor's runs what it asks for, except that every query is
/// answered in full before the next key (and no file, draft or frecency is written).
enum Replay {
    /// Runs `keys` and returns the final editor; `afterEach` sees the editor after every
    /// key (and every answer it asked for).
    static func run(_ editor: Editor, keys: [Key], sources: [Unicode.Scalar: any EntitySource],
                    spelling: SpellChecker.Settings? = nil, afterEach: (Editor) -> Void = { _ in }) -> Editor {
        var model = AppModel(editor: editor, document: .init(path: nil, format: editor.config.format, formatIsFixed: true),
                             print: false, terminalClipboard: false)
        let runner = EffectRunner(sources: sources, writesFiles: false, spelling: spelling, spellingWaitsForPause: false)
        // The starting text is checked before the first key (F7 finds its typos).
        if spelling != nil { runner.runUntilIdle(on: &model) }
        for key in keys {
            runner.handle(.key(key), on: &model)
            if runner.exit != nil { break }
            runner.runUntilIdle(on: &model)
            afterEach(model.editor)
        }
        return model.editor
    }
}

/// The JSON object `atpad replay` prints. Written piece by piece rather than built as a
/// `JSONValue`, because its `mentions` are the json format's own array, written by
/// `MentionJSON` into the same writer.
enum ReplayOutput {
    static func json(_ editor: Editor) -> String {
        let doc = editor.marked
        return JSONWriter.text { writer in
            writer.object { writer in
                writer.key("text")
                writer.string(doc.text)
                writer.key("markup")
                writer.string(AtpadMarkup.encode(doc))
                writer.key("cursor")
                writer.number(editor.cursor)
                writer.key("mentions")
                MentionJSON.writeArray(doc, to: &writer)
                writer.key("selectedMention")
                writer.string(editor.selectedMention?.id)
                if !editor.selection.isEmpty {
                    writer.key("selection")
                    writer.value([.number(editor.selection.range.lowerBound), .number(editor.selection.range.upperBound)])
                }
                writer.key("chooser")
                writer.value(editor.search.map(chooser) ?? .null)
            }
        }
    }

    /// The open search: its query, its items' ids and its state.
    private static func chooser(_ s: Search) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("open", .bool(s.isOpen)), ("trigger", .string(String(Character(s.trigger)))), ("query", .string(s.query)),
            ("items", .array(s.items.map { .string($0.entity.id) })), ("selected", .number(s.selected)),
            ("loading", .bool(s.isLoading)),
        ]
        if let error = s.error { members.append(("error", .string(error))) }
        return .object(members)
    }
}
