import AtpadCore
import AtpadDirectory
import Foundation

/// Turns the triggers of a (merged) config into the sources the editor, `replay` and
/// `search` ask: directory files, a command or a URL per trigger, file results first
/// (SPEC §8). Without anything for `@`, the bundled sample directory serves it.
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
    /// Where directory indexes are kept (SPEC §14); nil: every directory file is parsed.
    let indexCache: IndexCache?
    /// How the index cache served each trigger's files loaded already (for `search --timing`).
    var indexStatus: [Unicode.Scalar: IndexStatus] = [:]
    /// The directories loaded already that were parsed for want of an index, by trigger.
    private var unindexed: [Unicode.Scalar: MergedDirectory] = [:]

    /// Files larger than this in total load on a thread of their own, so the first screen
    /// never waits for them; smaller ones load before it, so their errors stop atpad with
    /// exit status 2 before anything is drawn (SPEC §8).
    static let backgroundThreshold = 4 << 20

    /// Builds the sources of `triggers`; with `inBackground`, large directory files load
    /// on their own threads. Problems found now (a missing or unreadable file, a
    /// malformed small file, a bad URL) are `UsageError`s.
    init(triggers: [Unicode.Scalar: Config.TriggerSources], limit: Int, commandTimeout: Duration,
         inBackground: Bool, frecency: FrecencyRecord? = nil, indexCache: IndexCache? = nil) throws {
        self.indexCache = indexCache
        var routes = triggers
        let at: Unicode.Scalar = "@"
        if routes[at].map({ ($0.files ?? []).isEmpty && $0.command == nil && $0.url == nil }) ?? true {
            // A missing sample directory is said once and editing goes on without a
            // directory for `@` (SPEC §13): an installation may lack it.
            if let sample = try? BundledDirectory.path() {
                routes[at] = Config.TriggerSources(files: [sample])
            } else {
                routes[at] = nil
                missingSample = BundledDirectory.missingMessage
                warnings.append(BundledDirectory.missingMessage)
            }
        }
        let colon: Unicode.Scalar = ":"
        if routes[colon] == nil, let emoji = BundledDirectory.emojiPath() {
            routes[colon] = Config.TriggerSources(files: [emoji])
        }
        for (trigger, route) in routes {
            var fileSource: (any EntitySource)?
            if let paths = route.files, !paths.isEmpty {
                let none: @Sendable () -> [String: Double] = { [:] }
                let scores = frecency?.provider(for: trigger) ?? none
                fileSource = try loadFiles(paths, trigger: trigger, limit: limit, inBackground: inBackground,
                                           frecency: scores)
            }
            var other: (any EntitySource)?
            if let command = route.command {
                other = CommandSource(command: command, timeout: commandTimeout, limit: limit)
            } else if let url = route.url {
                do {
                    other = try URLSource(template: url, timeout: commandTimeout, limit: limit)
                } catch {
                    throw UsageError("--directory-url '\(url)': \(error)")
                }
            }
            switch (fileSource, other) {
            case let (files?, other?): sources[trigger] = MergedSource(files: files, then: other)
            case let (files?, nil): sources[trigger] = files
            case let (nil, other?): sources[trigger] = other
            case (nil, nil): break
            }
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
        if inBackground && total > Self.backgroundThreshold {
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
        let thread = Thread { _ = merged.writeIndex() }
        thread.name = "atpad index write"
        thread.qualityOfService = .utility
        thread.start()
    }
}
