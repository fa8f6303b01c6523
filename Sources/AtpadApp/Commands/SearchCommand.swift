import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// `atpad search QUERY`: ranks the directory for a query, for scripts and checks (docs/commands.md).
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Rank the directory for QUERY and print the results (TSV: id, name, handle)."
    )

    @Argument(help: "The query, as typed after the trigger.")
    var query: String

    @OptionGroup var directories: DirectoryOptions

    @Option(help: "The trigger whose directory to search.")
    var triggerChar: String = "@"

    @Option(help: "The most results to print (default \(SourceDefaults.limit), or the config's limit).")
    var limit: Int?

    @OptionGroup var configFile: ConfigFileOption

    @Flag(help: "Print JSON with match ranges instead of TSV.")
    var json = false

    @Flag(help: "Replay the query one character at a time, as typed.")
    var type = false

    @Flag(help: "Add the cost: milliseconds per keystroke and the load time.")
    var timing = false

    @Flag(help: "Rank without the frecency of past picks (search reads it, never writes it).")
    var noFrecency = false

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "Rank the people of TARGET's conversation first, as the editor does with --to (\(PostTarget.shapes)); a fourth column (JSON: role) says what each is there: author, reviewer, commenter…",
        valueName: "target"))
    var to: String?

    func run() async throws {
        let trigger = try triggerScalar()
        // A bad target is the person's mistake: said first, before anything is read.
        let target = try to.map(PostPreparation.target)
        let environment = ProcessEnvironment.current()
        let settings = try configFile.settings(environment: environment, commandLine: directories.apply)
        let limit = try resultLimit(settings)
        let (setup, loadTime) = try loadDirectories(settings, limit: limit, environment: environment)
        var sources = setup.sources
        if let target, trigger == "@" {
            await rankParticipantsFirst(target, sources: &sources, settings: settings, limit: limit,
                                        environment: environment)
        }
        let source = try chosenSource(trigger, setup: setup, sources: sources)
        // A trigger served by files alone is ranked here directly (what --timing measures);
        // a command or URL is asked like the editor asks it.
        let ranked = setup.files[trigger].flatMap { files in sources[trigger] is FileDirectory ? files : nil }
        if timing { printLoad(loadTime, entries: ranked?.index.count ?? 0, index: setup.indexStatus[trigger]) }
        var failure: String?
        for q in queries() {
            let start = ContinuousClock.now
            let answer = await results(for: q, ranked: ranked, source: source, trigger: trigger, limit: limit)
            failure = failure ?? answer.failure
            for note in setup.notes.take() { StandardOutput.error("atpad: \(note)") }
            printResults(answer.results, for: q, elapsed: ContinuousClock.now - start)
        }
        if let failure {
            StandardOutput.error("atpad: \(failure)")
            throw ExitCode(1)
        }
    }

    /// `--trigger-char`, which must be one character.
    private func triggerScalar() throws -> Unicode.Scalar {
        guard triggerChar.unicodeScalars.count == 1, let t = triggerChar.unicodeScalars.first else {
            throw UsageError("--trigger-char takes one character")
        }
        return t
    }

    /// `--limit`, else the config's.
    private func resultLimit(_ settings: Settings) throws -> Int {
        let limit = self.limit ?? settings.limit
        guard limit >= 1 else { throw UsageError("--limit must be at least 1") }
        return limit
    }

    /// The directories, loaded now (not in the background), and how long that took.
    /// Ranks as the editor would, from the same frecency file; search records no picks.
    private func loadDirectories(_ settings: Settings, limit: Int, environment: [String: String]) throws
        -> (DirectorySetup, Duration) {
        let loadStart = ContinuousClock.now
        let frecency = noFrecency ? nil : FrecencyRecord()
        if let warning = frecency?.warning { StandardOutput.error("atpad: \(warning)") }
        var setup = try DirectorySetup(triggers: settings.config.triggers, limit: limit,
                                       commandTimeout: settings.commandTimeout, inBackground: false,
                                       frecency: frecency, refreshCachesBeforeAnswering: true,
                                       indexCache: IndexCache.standard(environment: environment),
                                       reported: settings.triggerProblem)
        let loadTime = ContinuousClock.now - loadStart
        // After the load is timed: writing a big directory's index takes a while.
        setup.writeIndexes()
        return (setup, loadTime)
    }

    /// `--to`: the conversation's people rank first under `@`. Asked before the query and
    /// waited for: a script sees the order the editor shows once they have arrived. Not
    /// having them is said once, and ranking goes on as usual.
    private func rankParticipantsFirst(_ target: PostTarget, sources: inout [Unicode.Scalar: any EntitySource],
                                       settings: Settings, limit: Int, environment: [String: String]) async {
        let people = ParticipantsSetup.start(.target(target), sources: &sources, limit: limit,
                                             timeout: settings.commandTimeout,
                                             environment: PostPreparation.environment(environment, config: settings.config.post))
        await people?.waitUntilFetched()
        if case let .failed(message)? = people?.current {
            StandardOutput.error("atpad: \(message); ranking without them")
        }
    }

    /// The trigger's source, after the directories' warnings; an error when there is none
    /// or it could not be set up.
    private func chosenSource(_ trigger: Unicode.Scalar, setup: DirectorySetup,
                              sources: [Unicode.Scalar: any EntitySource]) throws -> any EntitySource {
        guard let source = sources[trigger] else {
            // Without a directory the one line says why: the missing sample, or no route.
            throw UsageError(setup.missingSample ?? "no directory is routed to '\(triggerChar)'")
        }
        for warning in setup.warnings { StandardOutput.error("atpad: \(warning)") }
        // A source that cannot be set up (a preset's missing tool or variable) is exit 2
        // (docs/directories.md, "Connect your directory").
        if let problem = setup.setupErrors[trigger] { throw UsageError(problem) }
        return source
    }

    /// The query, or with `--type` each of its prefixes in turn.
    private func queries() -> [String] {
        guard type else { return [query] }
        var prefix = ""
        return query.map { prefix.append($0); return prefix }
    }

    /// `--timing`'s first line: the load time, the entries and the index.
    private func printLoad(_ loadTime: Duration, entries: Int, index status: IndexStatus?) {
        // Whether the trigger's files came from their index, and why not (docs/directories.md,
        // "Big directories: the index cache").
        let line: JSONValue = ["load_ms": .number(literal: Self.ms(loadTime)), "entries": .number(entries),
                               "index": .string(status?.word ?? "none"),
                               "index_note": .string(status?.description ?? "not a directory file")]
        StandardOutput.printLine(json ? JSONWriter.text(line)
            : "load\t\(Self.ms(loadTime)) ms\t\(entries) entries\t\(status?.description ?? "no index")")
    }

    /// The results of one query: ranked here, from a cached list in memory, or asked of
    /// the source as the editor asks it (with the failure it ended with, if any).
    private func results(for query: String, ranked: FileDirectory?, source: any EntitySource, trigger: Unicode.Scalar,
                         limit: Int) async -> (results: [Candidate], failure: String?) {
        if let ranked { return (ranked.rank(query), nil) }
        if let instant = source as? any InstantSource, let now = instant.answerNow(query) {
            // A cached list in memory answers at once, as in the editor (docs/posting.md,
            // "Participants: the conversation's people first").
            return (Array(now.prefix(limit)), nil)
        }
        return await Self.answer(source, query, trigger: trigger, limit: limit)
    }

    /// One query's lines: the timing, JSON, or TSV (with `--to`, a fourth column: the
    /// roles of a participant, else empty).
    private func printResults(_ results: [Candidate], for q: String, elapsed: Duration) {
        if timing {
            if json {
                StandardOutput.printLine(JSONWriter.text(["query": .string(q), "ms": .number(literal: Self.ms(elapsed)),
                                                          "results": .array(results.map { .string($0.entity.id) })]))
            } else {
                StandardOutput.printLine("\(Self.visible(q))\t\(Self.ms(elapsed)) ms\t\(results.count) results")
            }
        } else if json {
            StandardOutput.printLine(Self.json(query: q, results))
        } else {
            for r in results {
                let roles = to == nil ? [] : [r.participantRole ?? ""]
                print(([r.entity.id, r.entity.name, r.entity.handle ?? ""] + roles).map(Self.visible).joined(separator: "\t"))
            }
        }
    }

    /// Every batch a source answers, without repeated ids, up to `limit`, and the failure
    /// it ended with, if any (what answered is still printed, then exit status 1: docs/directories.md,
    /// "Connect your directory").
    static func answer(_ source: any EntitySource, _ query: String, trigger: Unicode.Scalar,
                       limit: Int) async -> (results: [Candidate], failure: String?) {
        var seen = Set<String>()
        var results: [Candidate] = []
        do {
            for try await batch in source.search(query, trigger: trigger) {
                for c in batch where results.count < limit && seen.insert(c.entity.id).inserted { results.append(c) }
            }
        } catch {
            return (results, "\(error)")
        }
        return (results, nil)
    }

    static func json(query: String, _ results: [Candidate]) -> String {
        let items = results.map { r -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("id", .string(r.entity.id)), ("name", .string(r.entity.name)), ("handle", .string(orNull: r.entity.handle)),
                ("matches", .array(r.matches.map { [.number($0.lowerBound), .number($0.upperBound)] })),
            ]
            // `detail`, `url` and `insert` only where the entity has them (docs/commands.md), `role`
            // only for a participant.
            let optional = [("detail", r.entity.detail), ("url", r.entity.url), ("insert", r.entity.insert), ("role", r.participantRole)]
            for case let (key, value?) in optional { members.append((key, .string(value))) }
            return .object(members)
        }
        return JSONWriter.text(["query": .string(query), "results": .array(items)])
    }

    /// Milliseconds with two decimals.
    static func ms(_ d: Duration) -> String {
        let c = d.components
        let micros = Int((Double(c.seconds) * 1e6 + Double(c.attoseconds) / 1e12).rounded())
        return "\(micros / 1000)." + UTCTimestamp.digits(micros % 1000, 3)
    }

    /// A TSV field with tabs, newlines and other controls shown as escapes.
    static func visible(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if let e = DisplayWidth.escape(for: u) { out += e } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
