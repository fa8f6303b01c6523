import AtpadCore
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import TOMLKit
import Glibc

/// Finding, reading and parsing the config file.
extension Config {
    /// The largest config file read; anything bigger is surely not one (`--config /dev/zero`).
    static let maximumFileLength = 1 << 20

    /// Reads the config file named by `--config` (`path`), or else the one in the default
    /// place (``defaultPath(environment:)``), returning it with the path and the text it
    /// came from.
    ///
    /// A default file that does not exist is no config: an empty `Config` and nil,
    /// found with a single `open` attempt (the editor's start-up is a measured budget). A
    /// named file that does not exist, a file that cannot be read or is not UTF-8, and
    /// any syntax error, unknown key or wrong value is a ``ConfigError``.
    static func load(path: String?, environment: [String: String]) throws(ConfigError)
        -> (config: Config, path: String?, text: String?) {
        guard let file = path ?? defaultPath(environment: environment) else { return (Config(), nil, nil) }
        guard let bytes = try contents(of: file, required: path != nil) else { return (Config(), nil, nil) }
        return (try parse(bytes, file: file, environment: environment), file, String(decoding: bytes, as: UTF8.self))
    }

    /// `$XDG_CONFIG_HOME/atpad/config.toml`, or `$HOME/.config/atpad/config.toml` when
    /// `XDG_CONFIG_HOME` is unset, empty or relative (the XDG rule); nil without a home.
    static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return withoutTrailingSlash(xdg) + "/atpad/config.toml"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return withoutTrailingSlash(home) + "/.config/atpad/config.toml"
        }
        return nil
    }

    /// Parses config bytes, checking they are UTF-8 text first; `file` names the file in
    /// errors and its folder anchors relative paths; `HOME` in `environment` expands `~`.
    static func parse(_ bytes: [UInt8], file: String, environment: [String: String]) throws(ConfigError) -> Config {
        let source: String
        do {
            source = try TOMLReader.text(of: bytes)
        } catch {
            throw ConfigError(file: file, error)
        }
        return try parse(source, file: file, environment: environment)
    }

    /// Parses config TOML text, as the bytes overload does once they are checked: read as
    /// every TOML file of atpad's is (``TOMLReader``), the first problem in the file reported.
    static func parse(_ source: String, file: String, environment: [String: String]) throws(ConfigError) -> Config {
        do {
            let reader = ConfigReader(table: try TOMLReader.table(source),
                                      paths: ConfigPaths(configFile: file, home: environment["HOME"]), source: source)
            return try reader.decode(Config.self, whole: "not a config table")
        } catch {
            throw ConfigError(file: file, error)
        }
    }

    /// The file's bytes; nil when it does not exist and is not `required`.
    private static func contents(of path: String, required: Bool) throws(ConfigError) -> [UInt8]? {
        guard !path.isEmpty else { throw ConfigError(file: "", message: "--config needs a file path") }
        do {
            return try FileContents.read(path, limit: maximumFileLength)
        } catch .missing {
            if required { throw ConfigError(file: path, message: "no such config file") }
            return nil
        } catch .folder {
            throw ConfigError(file: path, message: "is a folder, not a config file")
        } catch .tooLarge {
            throw ConfigError(file: path, message: "larger than \(maximumFileLength >> 20) MiB: not a config file")
        } catch {
            throw ConfigError(file: path, message: "cannot read the config file: " + error.reason)
        }
    }

    private static func withoutTrailingSlash(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path == "/" ? "" : String(path)
    }
}
