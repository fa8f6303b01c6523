import AtpadDirectory
import AtpadTerminal

/// The settings a command runs with: the config file's, with the command line's written
/// over them. It remembers what the command line gave and which file the rest came from,
/// so a value found wrong only when it is used (a theme that does not load, an
/// output-only format with a FILE) is reported against the place that gave it.
struct Settings {
    /// The merged settings.
    var config: Config
    /// What the command line gave, alone.
    var commandLine: Config
    /// The config file read, with its text (nil: none).
    var file: (path: String, text: String)?

    /// Reads the config file (`configPath`, else the default location) and writes the
    /// command line over it with `apply`. The command line's own mistakes are reported
    /// first; the file's are `UsageError`s naming the file, line and key.
    static func resolve(configPath: String?, environment: [String: String],
                        commandLine apply: (inout Config) throws -> Void) throws -> Settings {
        var given = Config()
        try apply(&given)
        let loaded: (config: Config, path: String?, text: String?)
        do {
            loaded = try Config.load(path: configPath, environment: environment)
        } catch {
            throw UsageError(error.description)
        }
        var merged = loaded.config
        try apply(&merged)
        let file = loaded.path.flatMap { path in loaded.text.map { (path, $0) } }
        return Settings(config: merged, commandLine: given, file: file)
    }

    var limit: Int { config.limit ?? SourceDefaults.limit }
    var commandTimeout: Duration { config.commandTimeout ?? SourceDefaults.timeout }

    /// A problem with the setting at `keyPath`: `--option: message` when the command line
    /// gave it, else `config.toml:LINE: "key": message`.
    func problem<T>(_ keyPath: KeyPath<Config, T?>, option: String, key: String, _ message: String) -> UsageError {
        guard commandLine[keyPath: keyPath] == nil, let file else { return UsageError("\(option): \(message)") }
        let error = ConfigError(file: file.path, line: TOMLKeyLines(file.text).line(of: key), key: key,
                                message: "\(ConfigReader.quoted(key)): \(message)")
        return UsageError(error.description)
    }

    /// A problem found when the sources of `trigger` are set up (a directory file that
    /// does not exist, a malformed one, a bad URL), about its `key`: when those sources
    /// are the config file's, `config.toml:LINE: "directory" in [triggers."@"]: message`;
    /// as it is when the command line gave them, or they are atpad's own (the sample and
    /// emoji directories, a preset's extra trigger).
    func triggerProblem(_ trigger: Unicode.Scalar, key: String, _ error: UsageError) -> UsageError {
        guard let file, commandLine.triggers[trigger]?.hasSource != true, config.triggers[trigger] != nil else {
            return error
        }
        let table = "triggers." + ConfigReader.quoted(String(Character(trigger)))
        let path = table + "." + key
        let error = ConfigError(file: file.path, line: TOMLKeyLines(file.text).line(of: path), key: path,
                                message: "\(ConfigReader.quoted(key)) in [\(table)]: \(error.message)")
        return UsageError(error.description)
    }

    /// Runs `use` on the setting at `keyPath`; a `UsageError` it throws is reported as
    /// ``problem(_:option:key:_:)`` says.
    func check<T, Result>(_ keyPath: KeyPath<Config, T?>, option: String, key: String,
                          _ use: () throws -> Result) throws -> Result {
        do {
            return try use()
        } catch let error as UsageError {
            throw problem(keyPath, option: option, key: key, error.message)
        }
    }
}
