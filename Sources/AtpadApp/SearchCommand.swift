import ArgumentParser
import AtpadCore
import AtpadDirectory
import FoundationEssentials
import Glibc

/// `atpad search QUERY`: ranks the directory for a query, for scripts and checks
/// (docs/commands.md, "`atpad search`").
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

    @Option(help: "The most results to print (default 50, or the config's limit).")
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
        guard triggerChar.unicodeScalars.count == 1, let t = triggerChar.unicodeScalars.first else {
            throw UsageError("--trigger-char takes one character")
        }
        // A bad target is the person's mistake: said first, before anything is read.
        let target = try to.map(PostPreparation.target)
        let settings = try configFile.settings(environment: ProcessInfo.processInfo.environment,
                                               commandLine: directories.apply)
        let limit = self.limit ?? settings.limit
        guard limit >= 1 else { throw UsageError("--limit must be at least 1") }
        let clock = ContinuousClock()
        let loadStart = clock.now
        // Ranks as the editor would, from the same frecency file; search records no picks.
        let frecency = noFrecency ? nil : FrecencyRecord()
        if let warning = frecency?.warning { StandardOutput.error("atpad: \(warning)") }
        let environment = ProcessInfo.processInfo.environment
        var setup = try DirectorySetup(triggers: settings.config.triggers, limit: limit,
                                       commandTimeout: settings.commandTimeout, inBackground: false,
                                       frecency: frecency, refreshCachesBeforeAnswering: true,
                                       indexCache: IndexCache.standard(environment: environment),
                                       reported: settings.triggerProblem)
        let loadTime = clock.now - loadStart
        // After the load is timed: writing a big directory's index takes a while.
        setup.writeIndexes()
        var sources = setup.sources
        if let target, t == "@" {
            // Asked before the query and waited for: a script sees the order the editor
            // shows once they have arrived. Not having them is said once, and ranking
            // goes on as usual.
            let people = ParticipantsSetup.start(.target(target), sources: &sources, limit: limit,
                                                 timeout: settings.commandTimeout,
                                                 environment: PostPreparation.environment(environment, config: settings.config.post))
            await people?.waitUntilFetched()
            if case let .failed(message)? = people?.current {
                StandardOutput.error("atpad: \(message); ranking without them")
            }
        }
        guard let source = sources[t] else {
            // Without a directory the one line says why: the missing sample, or no route.
            throw UsageError(setup.missingSample ?? "no directory is routed to '\(triggerChar)'")
        }
        for warning in setup.warnings { StandardOutput.error("atpad: \(warning)") }
        // A source that cannot be set up (a preset's missing tool or variable) is exit 2
        // (docs/directories.md, "Connect your directory").
        if let problem = setup.setupErrors[t] { throw UsageError(problem) }
        // A trigger served by files alone is ranked here directly (what --timing measures);
        // a command or URL is asked like the editor asks it.
        let ranked = setup.files[t].flatMap { files in sources[t] is FileDirectory ? files : nil }

        let queries: [String]
        if type {
            var prefix = ""
            queries = query.map { prefix.append($0); return prefix }
        } else {
            queries = [query]
        }
        if timing {
            let entries = ranked?.index.count ?? 0
            // Whether the trigger's files came from their index, and why not
            // (docs/commands.md, "`atpad search`").
            let status = setup.indexStatus[t]
            let index = status.map { "\"index\": \(JSONText.quote($0.word)), \"index_note\": \(JSONText.quote($0.description))" }
                ?? "\"index\": \"none\", \"index_note\": \"not a directory file\""
            let line = "{\"load_ms\": \(Self.ms(loadTime)), \"entries\": \(entries), \(index)}"
            StandardOutput.printLine(json ? line
                : "load\t\(Self.ms(loadTime)) ms\t\(entries) entries\t\(status?.description ?? "no index")")
        }
        var failure: String?
        for q in queries {
            let start = clock.now
            var results: [Candidate]
            if let ranked {
                results = ranked.rank(q)
            } else if let instant = source as? any InstantSource, let now = instant.answerNow(q) {
                // A cached list in memory answers at once, as in the editor (docs/people.md).
                results = Array(now.prefix(limit))
            } else {
                let answer = await Self.answer(source, q, trigger: t, limit: limit)
                results = answer.results
                failure = failure ?? answer.failure
            }
            for note in setup.notes.take() { StandardOutput.error("atpad: \(note)") }
            let elapsed = clock.now - start
            if timing {
                if json {
                    let ids = results.map { JSONText.quote($0.entity.id) }.joined(separator: ", ")
                    StandardOutput.printLine("{\"query\": \(JSONText.quote(q)), \"ms\": \(Self.ms(elapsed)), \"results\": [\(ids)]}")
                } else {
                    StandardOutput.printLine("\(Self.visible(q))\t\(Self.ms(elapsed)) ms\t\(results.count) results")
                }
            } else if json {
                StandardOutput.printLine(Self.json(query: q, results))
            } else {
                for r in results {
                    // With --to, a fourth column: the roles of a participant, else empty.
                    let roles = to == nil ? [] : [r.participantRole ?? ""]
                    print(([r.entity.id, r.entity.name, r.entity.handle ?? ""] + roles).map(Self.visible).joined(separator: "\t"))
                }
            }
        }
        if let failure {
            StandardOutput.error("atpad: \(failure)")
            throw ExitCode(1)
        }
    }

    /// Every batch a source answers, without repeated ids, up to `limit`, and the failure
    /// it ended with, if any: what answered is still printed, then exit status 1
    /// (docs/directories.md, "Connect your directory").
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
        let items = results.map { r in
            let matches = r.matches.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
            // `detail`, `url` and `insert` only where the entity has them
            // (docs/commands.md, "`atpad search`").
            let extra = [("detail", r.entity.detail), ("url", r.entity.url), ("insert", r.entity.insert)]
                .compactMap { key, value in value.map { ", \"\(key)\": \(JSONText.quote($0))" } }.joined()
                + (r.participantRole.map { ", \"role\": \(JSONText.quote($0))" } ?? "")
            return "{\"id\": \(JSONText.quote(r.entity.id)), \"name\": \(JSONText.quote(r.entity.name)), "
                + "\"handle\": \(r.entity.handle.map(JSONText.quote) ?? "null"), \"matches\": [\(matches)]\(extra)}"
        }
        return "{\"query\": \(JSONText.quote(query)), \"results\": [\(items.joined(separator: ", "))]}"
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
