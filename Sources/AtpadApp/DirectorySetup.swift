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

    /// Files larger than this in total load on a thread of their own, so the first screen
    /// never waits for them; smaller ones load before it, so their errors stop atpad with
    /// exit status 2 before anything is drawn (SPEC §8).
    static let backgroundThreshold = 4 << 20

    /// Builds the sources of `triggers`; with `inBackground`, large directory files load
    /// on their own threads. Problems found now (a missing or unreadable file, a
    /// malformed small file, a bad URL) are `UsageError`s.
    init(triggers: [Unicode.Scalar: Config.TriggerSources], limit: Int, commandTimeout: Duration,
         inBackground: Bool, frecency: FrecencyRecord? = nil) throws {
        var routes = triggers
        let at: Unicode.Scalar = "@"
        if routes[at].map({ ($0.files ?? []).isEmpty && $0.command == nil && $0.url == nil }) ?? true {
            routes[at] = Config.TriggerSources(files: [try BundledDirectory.path()])
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
        if inBackground && total > Self.backgroundThreshold {
            let directory = LoadingDirectory {
                FileDirectory(try DirectoryLoader.load(paths: paths), limit: limit, frecency: frecency)
            }
            loading[trigger] = directory
            return directory
        }
        do {
            let merged = try DirectoryLoader.load(paths: paths)
            warnings += merged.warnings
            let directory = FileDirectory(merged, limit: limit, frecency: frecency)
            files[trigger] = directory
            return directory
        } catch let error as DirectoryError {
            throw UsageError(error.description)
        }
    }
}
