import ArgumentParser
import AtpadCore
import AtpadDirectory
import Foundation

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

    @Option(help: "Seconds a directory command or URL may take to answer (default 5).")
    var commandTimeout: Double?

    /// What these options say, as a config whose values override the config file's.
    func commandLineConfig() throws -> Config {
        try DirectoryOptions.config(directory: directory, trigger: trigger, directoryCommand: directoryCommand,
                                    directoryURL: directoryURL, commandTimeout: commandTimeout)
    }

    /// The directory options' values as a config. A plain function, so the editor's fast
    /// command-line reader uses it without making an ArgumentParser value.
    static func config(directory: [String], trigger: [String], directoryCommand: String?,
                       directoryURL: String?, commandTimeout: Double?) throws -> Config {
        var config = Config()
        let at: Unicode.Scalar = "@"
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
    func load(limit: Int = 50) throws -> DirectorySetup {
        let config = try commandLineConfig()
        return try DirectorySetup(triggers: config.triggers, limit: limit,
                                  commandTimeout: config.commandTimeout ?? .seconds(5), inBackground: false)
    }
}

/// The files shipped with atpad: the sample directory and the themes.
enum BundledResources {
    static func folder() throws -> URL {
        // Next to the executable first: Foundation's Bundle lookup costs milliseconds of
        // start-up, and the resources bundle sits beside the binary SwiftPM builds.
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = URL(fileURLWithPath: exe).deletingLastPathComponent()
                .appendingPathComponent("atpad_AtpadApp.resources/Resources")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: beside.path, isDirectory: &isFolder), isFolder.boolValue {
                return beside
            }
        }
        if let url = Bundle.module.url(forResource: "Resources", withExtension: nil) { return url }
        throw UsageError("the bundled resources are missing from this installation")
    }

    static func themes() throws -> URL {
        try folder().appendingPathComponent("themes")
    }
}

/// The sample directory shipped with atpad.
enum BundledDirectory {
    static func path() throws -> String {
        try BundledResources.folder().appendingPathComponent("people.json").path
    }

    /// The emoji directory that answers `:` unless configured otherwise (SPEC §3), or nil
    /// when this installation lacks it (then `:` is no trigger; never an error).
    static func emojiPath() -> String? {
        guard let path = try? BundledResources.folder().appendingPathComponent("emoji.json").path,
              FileManager.default.isReadableFile(atPath: path) else { return nil }
        return path
    }
}

/// The list of frequent English words the implicit search keeps quiet on (SPEC §3),
/// read once; without it (a partial installation) nothing is quiet.
enum BundledQuietWords {
    static let words: QuietWords = {
        guard let url = try? BundledResources.folder().appendingPathComponent("common-words-en.txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return QuietWords() }
        return QuietWords(list: text)
    }()
}
