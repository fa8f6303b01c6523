import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// The options that choose directories: files, a command or a URL, and which trigger
/// each one serves.
struct DirectoryOptions: ParsableArguments {
    @Option(name: [.customShort("d"), .long], help: "A directory file (.json array, .ndjson, .csv) for @. Repeatable; files merge.")
    var directory: [String] = []

    @Option(name: [.customShort("t"), .long],
            help: "Route a trigger to a directory file or URL, as 'CHAR=SOURCE' (e.g. '#=channels.json'). Repeatable.")
    var trigger: [String] = []

    @Option(help: "A command that answers @ queries: run with sh -c, the query as $1, one JSON entity per output line.")
    var directoryCommand: String?

    @Option(help: "A URL that answers @ queries: GET with {query} replaced by the percent-encoded query; a JSON array.")
    var directoryURL: String?

    @Option(help: "Seconds a directory command or URL may take to answer (default \(SourceDefaults.seconds(SourceDefaults.timeout))).")
    var commandTimeout: Double?

    @Option(help: "Where the people are in the JSON of the @ sources given here: a path such as 'members' ('' = the whole answer).")
    var items: String?

    @Option(help: "How items become entities, e.g. 'id=login,name=name//login,detail={title} · {team}'.")
    var map: String?

    @Option(help: "Named settings for @: github, gitlab, slack, jira or ldap (each needs its tool or token: see man atpad, ENVIRONMENT).")
    var preset: String?

    /// Writes what these options say over `config`: a trigger they name reads only what
    /// they give it (`-d people.json` replaces the file's `@` table as a whole rather than
    /// adding to its command), so what a trigger reads is always what one place says.
    func apply(to config: inout Config) throws {
        let given = try commandLineConfig()
        config.triggers.merge(given.triggers) { _, commandLine in commandLine }
        if let timeout = given.commandTimeout { config.commandTimeout = timeout }
    }

    /// What these options say, as a config of their own.
    func commandLineConfig() throws -> Config {
        var config = Config()
        let at: Unicode.Scalar = "@"
        // --items, --map and --preset apply to the @ sources of this command line
        // (docs/directories.md, "Connect your directory").
        if let preset {
            guard Preset(rawValue: preset) != nil else {
                throw UsageError("--preset \(preset): unknown preset (one of \(Preset.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            config.triggers[at, default: .init()].preset = preset
        }
        if let items { config.triggers[at, default: .init()].items = items }
        if let map {
            do {
                config.triggers[at, default: .init()].map = try EntityMapping.parseMapOption(map)
            } catch {
                throw UsageError(error.message)
            }
        }
        if (items != nil || map != nil), directory.isEmpty, directoryCommand == nil, directoryURL == nil, preset == nil {
            throw UsageError("--items and --map apply to the -d, --directory-command or --directory-url given with them")
        }
        if !directory.isEmpty { config.triggers[at, default: .init()].files = directory }
        if let directoryCommand { config.triggers[at, default: .init()].command = directoryCommand }
        if let directoryURL { config.triggers[at, default: .init()].url = directoryURL }
        if directoryCommand != nil && directoryURL != nil {
            throw UsageError("--directory-command and --directory-url cannot both answer @")
        }
        for spec in trigger {
            guard let eq = spec.firstIndex(of: "="),
                  spec[..<eq].unicodeScalars.count == 1, let t = spec[..<eq].unicodeScalars.first,
                  EditorConfig.triggerSet.contains(t) else {
                throw UsageError("--trigger '\(spec)': expected CHAR=SOURCE with CHAR one of @ # $ % + ~ :")
            }
            let source = String(spec[spec.index(after: eq)...])
            guard !source.isEmpty else { throw UsageError("--trigger '\(spec)': no directory after '='") }
            if source.hasPrefix("http://") || source.hasPrefix("https://") {
                config.triggers[t, default: .init()].url = source
            } else {
                config.triggers[t, default: .init()].files = (config.triggers[t]?.files ?? []) + [source]
            }
        }
        if let commandTimeout {
            guard commandTimeout > 0, commandTimeout.isFinite else { throw UsageError("--command-timeout must be more than 0 seconds") }
            config.commandTimeout = .milliseconds(Int((commandTimeout * 1000).rounded(.up)))
        }
        return config
    }

    /// The sources these options give on their own (no config file): `replay`'s.
    func load(limit: Int = SourceDefaults.limit) throws -> DirectorySetup {
        let config = try commandLineConfig()
        return try DirectorySetup(triggers: config.triggers, limit: limit,
                                  commandTimeout: config.commandTimeout ?? SourceDefaults.timeout, inBackground: false)
    }
}
