/// The parts of a file path, as text (no file system access): what `NSString`'s path
/// methods answered, without Foundation's full module.
public enum PathName {
    /// `path` without its last component and the slashes before it: `a/b/c` → `a/b`,
    /// `/a` → `/`, `c` → `""`. Trailing slashes are ignored (`a/b/` → `a`).
    public static func folder(of path: String) -> String {
        let bytes = Array(withoutTrailingSlashes(path).utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The last component of `path`: `a/b/c` → `c`, `a/b/` → `b`, `/` → `/`.
    public static func name(of path: String) -> String {
        let path = withoutTrailingSlashes(path)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), path != "/" else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `path` with a leading `~` or `~/` standing for `home` (unchanged without one).
    public static func expandingTilde(_ path: String, home: String?) -> String {
        guard let home, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// `path` without trailing slashes (`/` stays `/`).
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var bytes = Substring(path)
        while bytes.count > 1, bytes.hasSuffix("/") { bytes = bytes.dropLast() }
        return String(bytes)
    }
}
