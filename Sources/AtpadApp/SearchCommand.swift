import ArgumentParser
import AtpadCore
import AtpadDirectory
import Foundation

/// `atpad search QUERY`: ranks the directory for a query, for scripts and checks (SPEC §8).
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

    @Option(help: "The most results to print.")
    var limit: Int = 50

    @Flag(help: "Print JSON with match ranges instead of TSV.")
    var json = false

    @Flag(help: "Replay the query one character at a time, as typed.")
    var type = false

    @Flag(help: "Add the cost: milliseconds per keystroke and the load time.")
    var timing = false

    @Flag(help: "Rank without the frecency of past picks (it is read, never written, by search).")
    var noFrecency = false

    func run() async throws {
        guard limit >= 1 else { throw UsageError("--limit must be at least 1") }
        guard triggerChar.unicodeScalars.count == 1, let t = triggerChar.unicodeScalars.first else {
            throw UsageError("--trigger-char takes one character")
        }
        let clock = ContinuousClock()
        let loadStart = clock.now
        let loaded = try directories.load(limit: limit)
        let loadTime = clock.now - loadStart
        for warning in loaded.warnings {
            FileHandle.standardError.write(Data("atpad: \(warning)\n".utf8))
        }
        guard var directory = loaded.sources[t] else { throw UsageError("no directory is routed to '\(triggerChar)'") }
        if !noFrecency, let url = FrecencyStore.defaultURL() {
            // Ranks as the editor would, from the same file; search records no picks.
            let (store, warning) = FrecencyStore.load(from: url)
            if let warning { FileHandle.standardError.write(Data("atpad: \(warning)\n".utf8)) }
            directory.frecency = store.scorer(for: t, now: Date())
        }

        let queries: [String]
        if type {
            var prefix = ""
            queries = query.map { prefix.append($0); return prefix }
        } else {
            queries = [query]
        }
        if timing {
            let line = "{\"load_ms\": \(Self.ms(loadTime)), \"entries\": \(directory.entities.count)}"
            print(json ? line : "load\t\(Self.ms(loadTime)) ms\t\(directory.entities.count) entries")
        }
        for q in queries {
            let start = clock.now
            let results = directory.rank(q)
            let elapsed = clock.now - start
            if timing {
                if json {
                    let ids = results.map { JSONText.quote($0.entity.id) }.joined(separator: ", ")
                    print("{\"query\": \(JSONText.quote(q)), \"ms\": \(Self.ms(elapsed)), \"results\": [\(ids)]}")
                } else {
                    print("\(Self.visible(q))\t\(Self.ms(elapsed)) ms\t\(results.count) results")
                }
            } else if json {
                print(Self.json(query: q, results))
            } else {
                for r in results {
                    print([r.entity.id, r.entity.name, r.entity.handle ?? ""].map(Self.visible).joined(separator: "\t"))
                }
            }
        }
    }

    static func json(query: String, _ results: [Candidate]) -> String {
        let items = results.map { r in
            let matches = r.matches.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
            return "{\"id\": \(JSONText.quote(r.entity.id)), \"name\": \(JSONText.quote(r.entity.name)), "
                + "\"handle\": \(r.entity.handle.map(JSONText.quote) ?? "null"), \"matches\": [\(matches)]}"
        }
        return "{\"query\": \(JSONText.quote(query)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    /// Milliseconds with two decimals.
    static func ms(_ d: Duration) -> String {
        let c = d.components
        let value = Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
        return String(format: "%.3f", value)
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
