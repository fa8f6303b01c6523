import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// Turns the triggers of a (merged) config into the sources the editor, `replay` and
/// `search` ask: directory files, a command or a URL per trigger, file results first
/// (docs/directories.md, "Directory sources"). Without anything for `@`, the bundled sample
/// directory serves it.
struct DirectorySetup {
    /// The sources by trigger.
    var sources: [Unicode.Scalar: any EntitySource] = [:]
    /// The file directories still loading in the background, by trigger.
    var loading: [Unicode.Scalar: LoadingDirectory] = [:]
    /// The file directories loaded already, by trigger (for `search --timing`).
    var files: [Unicode.Scalar: FileDirectory] = [:]
    /// One-line notes about the directories (duplicate ids, say) for stderr or the message line.
    var warnings: [String] = []
    /// Set when `@` would have been served by the sample directory and it is missing:
    /// the message that says so (it is also among the warnings).
    var missingSample: String?
    /// Where directory indexes are kept
    /// (docs/directories.md, "Big directories: the index cache"); nil: every directory file
    /// is parsed.
    let indexCache: IndexCache?
    /// How the index cache served each trigger's files loaded already (for `search --timing`).
    var indexStatus: [Unicode.Scalar: IndexStatus] = [:]
    /// The people whose names and handles spelling knows (docs/spelling.md, "Known words"):
    /// the entities of every directory loaded already but the emoji one's.
    var people: [Entity] { Self.people(in: files.mapValues(\.entities)) }

    /// The people of `tables` (entities by trigger): all but the emoji directory's, whose
    /// `:` names are not people's.
    static func people(in tables: [Unicode.Scalar: [Entity]]) -> [Entity] {
        tables.filter { $0.key != ":" }.values.flatMap { $0 }
    }

    /// The directories loaded already that were parsed for want of an index, by trigger.
    private var unindexed: [Unicode.Scalar: MergedDirectory] = [:]
    /// Triggers whose source could not be set up (a preset's missing tool or variable, an
    /// unset header variable), with the message; their source fails with it
    /// (docs/directories.md, "Presets").
    var setupErrors: [Unicode.Scalar: String] = [:]
    /// Notes the sources make while answering (skipped items, a failed cache refresh).
    let notes = SourceNotes()

    /// Files larger than this in total load on a thread of their own, so the first screen
    /// never waits for them; smaller ones load before it, so their errors stop atpad with
    /// exit status 2 before anything is drawn (docs/directories.md, "Directory sources").
    static let backgroundThreshold = 4 << 20
    /// Triggers served by a bundled file that loads on a thread of its own whatever its
    /// size (the sample and emoji directories): it cannot be malformed, and the first
    /// screen should not wait for it (the sample's first load, fold table included, is
    /// a large part of the work before the first frame).
    private var bundledInBackground: Set<Unicode.Scalar> = []

    /// Builds the sources of `triggers`; with `inBackground`, large directory files load
    /// on their own threads. Problems found now (a missing or unreadable file, a
    /// malformed small file, a bad URL) are `UsageError`s, passed through `reported`
    /// with the trigger and the key they are about (`directory`, `map`, `url`, ...), so
    /// one from the config file can name its line (``Settings/triggerProblem(_:key:_:)``).
    init(triggers: [Unicode.Scalar: Config.TriggerSources], limit: Int, commandTimeout: Duration,
         inBackground: Bool, frecency: FrecencyRecord? = nil,
         environment: [String: String] = ProcessEnvironment.current(),
         refreshCachesBeforeAnswering: Bool = false, indexCache: IndexCache? = nil,
         reported: (_ trigger: Unicode.Scalar, _ key: String, _ error: UsageError) -> UsageError = { $2 }) throws {
        self.indexCache = indexCache
        var routes = Self.addingPresetTriggers(triggers)
        addBundledDirectories(to: &routes)
        let making = Making(limit: limit, commandTimeout: commandTimeout, inBackground: inBackground,
                            frecency: frecency, environment: environment,
                            refreshCachesBeforeAnswering: refreshCachesBeforeAnswering)
        for (trigger, route) in routes {
            try setUp(trigger, route, making, reported: reported)
        }
    }

    /// What every trigger's sources are made with.
    private struct Making {
        var limit: Int
        var commandTimeout: Duration
        var inBackground: Bool
        var frecency: FrecencyRecord?
        var environment: [String: String]
        var refreshCachesBeforeAnswering: Bool
    }

    /// The triggers a setup of `triggers` serves, known before anything loads (`atpad lsp`
    /// offers them to its client at once): the config's, its presets', `@` (the sample
    /// directory when nothing else) and `:` (the emoji).
    static func servedTriggers(_ triggers: [Unicode.Scalar: Config.TriggerSources]) -> [Unicode.Scalar] {
        Set(addingPresetTriggers(triggers).keys).union(["@", ":"]).sorted { $0.value < $1.value }
    }

    /// A preset may also serve `#` (slack's channels) unless `#` is configured otherwise.
    private static func addingPresetTriggers(_ triggers: [Unicode.Scalar: Config.TriggerSources])
        -> [Unicode.Scalar: Config.TriggerSources] {
        var routes = triggers
        for route in triggers.values {
            guard let preset = route.preset.flatMap(Preset.init(rawValue:)) else { continue }
            for extra in preset.triggers where routes[extra] == nil {
                routes[extra] = Config.TriggerSources()
                routes[extra]!.preset = preset.rawValue
            }
        }
        return routes
    }

    /// The sample directory serves `@` when nothing else does, and the emoji directory `:`
    /// when it is not routed elsewhere; both load on threads of their own.
    private mutating func addBundledDirectories(to routes: inout [Unicode.Scalar: Config.TriggerSources]) {
        let at: Unicode.Scalar = "@"
        if routes[at].map({ !$0.hasSource }) ?? true {
            // A missing sample directory is said once and editing goes on without a
            // directory for `@` (docs/install.md): an installation may lack it.
            if let sample = try? BundledDirectory.path() {
                routes[at] = Config.TriggerSources(files: [sample])
                bundledInBackground.insert(at)
            } else {
                routes[at] = nil
                missingSample = BundledDirectory.missingMessage
                warnings.append(BundledDirectory.missingMessage)
            }
        }
        let colon: Unicode.Scalar = ":"
        if routes[colon] == nil, let emoji = BundledDirectory.emojiPath() {
            routes[colon] = Config.TriggerSources(files: [emoji])
            bundledInBackground.insert(colon)
        }
    }

    /// The source of one trigger: its preset's settings under its own, its mapping, its
    /// files, then its command or URL (file results first). A problem is reported with the
    /// key of the step that found it; a source that cannot be set up but leaves editing
    /// going fails with its message instead (``setupErrors``).
    private mutating func setUp(_ trigger: Unicode.Scalar, _ given: Config.TriggerSources, _ making: Making,
                                reported: (_ trigger: Unicode.Scalar, _ key: String, _ error: UsageError) -> UsageError) throws {
        var key = "preset"
        do {
            guard let route = try applyingPreset(to: given, for: trigger, environment: making.environment) else { return }
            key = route.map != nil ? "map" : route.items != nil ? "items" : "exclude"
            let mapping = try Self.mapping(of: route)
            let none: @Sendable () -> [String: Double] = { [:] }
            let scores = making.frecency?.provider(for: trigger) ?? none
            key = "directory"
            let files = try fileSource(route, mapping: mapping, trigger: trigger, making, frecency: scores)
            key = route.url != nil ? "url" : "command"
            let other: (any EntitySource)?
            do {
                other = try Self.source(route, mapping: mapping, limit: making.limit, timeout: making.commandTimeout,
                                        notes: notes, environment: making.environment, frecency: scores,
                                        refreshBeforeAnswering: making.refreshCachesBeforeAnswering)
            } catch let failure as SetupFailure {
                fail(trigger, failure.message)
                return
            }
            switch (files, other) {
            case let (files?, other?): sources[trigger] = MergedSource(files: files, then: other)
            case let (files?, nil): sources[trigger] = files
            case let (nil, other?): sources[trigger] = other
            case (nil, nil): break
            }
        } catch let error as UsageError {
            throw reported(trigger, key, error)
        }
    }

    /// `given` over its preset's settings (itself without a preset); nil when the preset
    /// cannot serve now (a missing tool or variable: the trigger's source fails with it).
    private mutating func applyingPreset(to given: Config.TriggerSources, for trigger: Unicode.Scalar,
                                         environment: [String: String]) throws -> Config.TriggerSources? {
        guard let name = given.preset, let preset = Preset(rawValue: name) else { return given }
        do {
            guard let settings = try preset.settings(for: trigger, environment: environment) else {
                throw UsageError("the \(name) preset has no directory for '\(trigger)'")
            }
            return Self.merge(given, over: settings)
        } catch let missing as Preset.Missing {
            fail(trigger, missing.message)
            return nil
        }
    }

    /// A trigger whose source cannot be set up: it fails with `message`, and editing goes on.
    private mutating func fail(_ trigger: Unicode.Scalar, _ message: String) {
        setupErrors[trigger] = message
        sources[trigger] = FailingSource(message)
    }

    /// How the route's items become entities (`items`, `map`, `exclude`).
    private static func mapping(of route: Config.TriggerSources) throws -> EntityMapping {
        do {
            return try EntityMapping(items: route.items, map: route.map ?? [:], exclude: route.exclude ?? [])
        } catch {
            throw UsageError(error.message)
        }
    }

    /// The route's directory files, if it has any: plain ones through the index (large
    /// ones loading behind the first screen), mapped ones parsed now.
    private mutating func fileSource(_ route: Config.TriggerSources, mapping: EntityMapping, trigger: Unicode.Scalar,
                                     _ making: Making, frecency: @escaping @Sendable () -> [String: Double]) throws
        -> (any EntitySource)? {
        guard let paths = route.files, !paths.isEmpty else { return nil }
        if mapping.isPlain {
            return try loadFiles(paths, trigger: trigger, limit: making.limit, inBackground: making.inBackground,
                                 frecency: frecency)
        }
        return try loadMappedFiles(paths, mapping: mapping, trigger: trigger, limit: making.limit, frecency: frecency)
    }

    /// `route`'s own settings over a preset's: what the person wrote wins.
    static func merge(_ route: Config.TriggerSources, over preset: Config.TriggerSources) -> Config.TriggerSources {
        var merged = preset
        merged.files = route.files ?? preset.files
        if route.command != nil || route.url != nil {
            merged.command = route.command
            merged.url = route.url
        }
        merged.items = route.items ?? preset.items
        merged.map = route.map ?? preset.map
        merged.exclude = route.exclude ?? preset.exclude
        merged.method = route.method ?? preset.method
        merged.body = route.body ?? preset.body
        merged.headers = route.headers ?? preset.headers
        merged.next = route.next ?? preset.next
        merged.maxPages = route.maxPages ?? preset.maxPages
        merged.cursorParam = route.cursorParam ?? preset.cursorParam
        merged.cache = route.cache ?? preset.cache
        merged.listLimit = route.listLimit ?? preset.listLimit
        // The preset's list command goes with its command: the person's own command is
        // asked with an empty query for the list, as any cached command.
        if route.command != nil || route.url != nil { merged.listCommand = nil }
        return merged
    }

    /// A source that cannot be set up now but leaves editing going
    /// (docs/directories.md, "Presets").
    struct SetupFailure: Error {
        let message: String
    }

    /// The command or URL source of `route` (wrapped in a cache when it has one); nil when
    /// it has neither. A bad URL is a `UsageError`; an unset header variable a ``SetupFailure``.
    static func source(_ route: Config.TriggerSources, mapping: EntityMapping, limit: Int, timeout: Duration,
                       notes: SourceNotes, environment: [String: String],
                       frecency: @escaping @Sendable () -> [String: Double],
                       refreshBeforeAnswering: Bool) throws -> (any EntitySource)? {
        let cacheFolder = cacheFolder(environment)
        if let command = route.command {
            let source = CommandSource(command: command, timeout: timeout, limit: limit, mapping: mapping,
                                       output: route.answer ?? .json, environment: route.environment ?? [:], notes: notes,
                                       listCommand: route.listCommand)
            guard let age = route.cache else { return source }
            guard let cacheFolder else { throw SetupFailure(message: "cache needs XDG_CACHE_HOME or HOME to be set") }
            let cached = CachedSource(command: source, maxAge: age, cacheFolder: cacheFolder, limit: limit,
                                      frecency: frecency, notes: notes, refreshesBeforeAnswering: refreshBeforeAnswering,
                                      listLimit: route.listLimit, indexCache: IndexCache.standard(environment: environment))
            // The editor reads the kept list behind its first screen: the first `@` finds it.
            if !refreshBeforeAnswering { cached.preload() }
            return cached
        }
        guard let url = route.url else { return nil }
        var headers: [HTTPHeader] = []
        for name in (route.headers ?? [:]).keys.sorted() {
            headers.append(HTTPHeader(name: name, value: try resolve(route.headers![name]!, header: name, environment)))
        }
        let request = URLSource.Request(method: route.method ?? SourceDefaults.method, body: route.body, headers: headers,
                                        next: route.next, maxPages: route.maxPages ?? SourceDefaults.maxPages,
                                        cursorParam: route.cursorParam ?? SourceDefaults.cursorParam)
        let source: URLSource
        do {
            source = try URLSource(template: url, timeout: timeout, limit: limit, request: request, mapping: mapping,
                                   notes: notes)
        } catch {
            throw UsageError("--directory-url '\(url)': \(error)")
        }
        guard let age = route.cache else { return source }
        guard let cacheFolder else { throw SetupFailure(message: "cache needs XDG_CACHE_HOME or HOME to be set") }
        let cached = CachedSource(url: source, maxAge: age, cacheFolder: cacheFolder, limit: limit, frecency: frecency,
                                  notes: notes, refreshesBeforeAnswering: refreshBeforeAnswering, listLimit: route.listLimit,
                                  indexCache: IndexCache.standard(environment: environment))
        if !refreshBeforeAnswering { cached.preload() }
        return cached
    }

    /// A header template with each `${NAME}` taken from the environment. An unset one is
    /// a ``SetupFailure`` naming the variable and the header — never the value.
    static func resolve(_ template: String, header: String, _ environment: [String: String]) throws -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstRange(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw SetupFailure(message: "header \(header): \"${\" without a closing \"}\"")
            }
            let name = String(rest[open.upperBound ..< close])
            guard let value = environment[name], !value.isEmpty else {
                throw SetupFailure(message: "header \(header) needs the environment variable \(name), which is not set")
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `$XDG_CACHE_HOME/atpad`, or `~/.cache/atpad` (the XDG rule); nil without either.
    static func cacheFolder(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/atpad" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/atpad" }
        return nil
    }

    private mutating func loadMappedFiles(_ paths: [String], mapping: EntityMapping, trigger: Unicode.Scalar, limit: Int,
                                          frecency: @escaping @Sendable () -> [String: Double]) throws -> any EntitySource {
        do {
            let loaded = try MappedDirectoryFile.load(paths: paths, mapping: mapping)
            warnings += loaded.warnings
            let directory = FileDirectory(entities: loaded.entities, limit: limit, frecency: frecency)
            files[trigger] = directory
            return directory
        } catch let error as DirectoryError {
            throw UsageError(error.description)
        }
    }

    /// The triggers that have a source, in a stable order.
    var triggers: [Unicode.Scalar] { sources.keys.sorted { $0.value < $1.value } }

    private mutating func loadFiles(_ paths: [String], trigger: Unicode.Scalar, limit: Int, inBackground: Bool,
                                    frecency: @escaping @Sendable () -> [String: Double]) throws -> any EntitySource {
        var total = 0
        for path in paths {
            // Checked now even for a background load: a missing file is a usage error.
            var info = stat()
            guard stat(path, &info) == 0 else { throw UsageError("\(path): no such directory file") }
            guard access(path, R_OK) == 0 else { throw UsageError("\(path): cannot read the directory file") }
            total += Int(info.st_size)
        }
        let cache = indexCache
        if inBackground && (total > Self.backgroundThreshold || bundledInBackground.contains(trigger)) {
            let directory = LoadingDirectory {
                let merged = try DirectoryLoader.load(paths: paths, cache: cache)
                // The index is written after the directory is ready, on a thread of its own.
                if merged.needsIndexWrite { Self.writeInBackground(merged) }
                return FileDirectory(merged, limit: limit, frecency: frecency)
            }
            loading[trigger] = directory
            return directory
        }
        do {
            let merged = try DirectoryLoader.load(paths: paths, cache: cache)
            warnings += merged.warnings
            if let status = merged.indexStatus { indexStatus[trigger] = status }
            if merged.needsIndexWrite { unindexed[trigger] = merged }
            let directory = FileDirectory(merged, limit: limit, frecency: frecency)
            files[trigger] = directory
            return directory
        } catch let error as DirectoryError {
            throw UsageError(error.description)
        }
    }

    /// Writes the indexes of the directories loaded already that had none, now, and
    /// records how that went in ``indexStatus`` (`atpad search`).
    mutating func writeIndexes() {
        for (trigger, merged) in unindexed {
            if let status = merged.writeIndex() { indexStatus[trigger] = status }
        }
        unindexed = [:]
    }

    /// Writes those indexes on threads of their own, so the editor's input never waits
    /// for them; a failure only means no index (nothing is shown in the editor).
    mutating func writeIndexesInBackground() {
        for merged in unindexed.values { Self.writeInBackground(merged) }
        unindexed = [:]
    }

    private static func writeInBackground(_ merged: MergedDirectory) {
        BackgroundThread.start(name: "atpad index write") { _ = merged.writeIndex() }
    }
}
