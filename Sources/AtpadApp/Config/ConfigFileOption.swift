import ArgumentParser

/// `--config PATH`, for every command that reads the config file (edit, search, render,
/// mentions; never replay).
struct ConfigFileOption: ParsableArguments {
    @Option(help: "The config file to read instead of ~/.config/atpad/config.toml.")
    var config: String?

    /// The config file's settings with the command line's written over them by `apply`.
    func settings(environment: [String: String], commandLine apply: (inout Config) throws -> Void) throws -> Settings {
        try Settings.resolve(configPath: config, environment: environment, commandLine: apply)
    }
}
