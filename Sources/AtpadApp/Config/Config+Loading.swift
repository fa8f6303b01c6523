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
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw ConfigError(file: file, line: line(ofByte: bad, in: bytes), message: "not valid UTF-8 text")
        }
        // TOMLKit hands the text to its parser as a C string, which would end at a NUL.
        if let nul = bytes.firstIndex(of: 0) {
            throw ConfigError(file: file, line: line(ofByte: nul, in: bytes), message: "syntax error: a NUL character")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: file, environment: environment)
    }

    /// Parses config TOML text, as the bytes overload does once they are checked.
    static func parse(_ source: String, file: String, environment: [String: String]) throws(ConfigError) -> Config {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: source)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, line: error.source.begin.line, message: "syntax error: " + error.description)
        } catch {
            throw ConfigError(file: file, message: "syntax error: \(error)")
        }
        let reader = ConfigReader(table: table, paths: ConfigPaths(configFile: file, home: environment["HOME"]),
                                  source: source)
        var decoder = TOMLDecoder()
        decoder.userInfo[ConfigReader.userInfoKey] = reader
        // Problems are noted by the reader rather than thrown: the one reported is the
        // first in the file, whatever order TOMLKit lists keys in.
        let config = try? decoder.decode(Config.self, from: table)
        if let config, reader.problems.isEmpty { return config }
        // Lines are looked for only now: a good config costs no second reading.
        let lines = TOMLKeyLines(source)
        let errors = reader.problems.map { problem in
            ConfigError(file: file, line: lines.line(of: problem.key), key: problem.key, message: problem.message)
        }
        throw errors.min { ($0.line ?? .max) < ($1.line ?? .max) } ?? ConfigError(file: file, message: "not a config table")
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

    private static func line(ofByte offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    private static func withoutTrailingSlash(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path == "/" ? "" : String(path)
    }
}
