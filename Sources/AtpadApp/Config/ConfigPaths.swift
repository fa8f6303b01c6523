import AtpadSystem
import FoundationEssentials
import Glibc

/// How a path written in the config file becomes one atpad can open: `~` is the home
/// folder, and a relative path starts at the config file's folder — the config then
/// means the same files whatever folder atpad is started in.
struct ConfigPaths: Sendable {
    /// The absolute folder holding the config file.
    let folder: String
    /// The home folder (`$HOME`), or nil when unknown; `~` is then left as written.
    let home: String?

    /// The paths of the config file at `configFile` (relative to the current folder when
    /// not absolute), with `home` for `~`.
    init(configFile: String, home: String?) {
        let absolute = configFile.hasPrefix("/")
            ? configFile : FileManager.default.currentDirectoryPath + "/" + configFile
        let slash = absolute.lastIndex(of: "/")!
        folder = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
        self.home = home.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `path` expanded (`~`, `~/…`) and made absolute against ``folder``.
    func resolve(_ path: String) -> String {
        let path = PathName.expandingTilde(path, home: home)
        if path.hasPrefix("/") || path.hasPrefix("~") { return path }
        return ConfigPaths.join(folder, path)
    }

    /// Whether a theme setting is a file rather than a name: the rule `--theme` follows
    /// (a `/` in it, or a `.toml` ending).
    static func isThemePath(_ theme: String) -> Bool {
        theme.contains("/") || theme.hasSuffix(".toml")
    }

    private static func join(_ folder: String, _ rest: String) -> String {
        guard !rest.isEmpty else { return folder }
        return folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
    }
}
