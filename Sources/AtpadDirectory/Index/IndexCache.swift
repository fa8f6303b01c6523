import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// The folder of directory indexes: `$XDG_CACHE_HOME/atpad/index/`
/// (docs/directories.md, "Big directories: the index cache"), one file per directory (its
/// files, in order, and the load options), named by a hash of those.
///
/// A directory loaded from its files is written here afterwards (``MergedDirectory/writeIndex()``,
/// off the editor's input path); a later load of the same files, unchanged, maps the
/// index instead of parsing them. An index that is stale, of another version, cut short or
/// damaged is never used: the files are parsed and the index written again. A cache
/// folder that cannot be written only means there is no index.
public struct IndexCache: Sendable {
    /// Where the indexes are.
    public let folder: String
    /// Directories whose files are smaller than this in all are not indexed: parsing them
    /// costs less than checking an index.
    public var minimumSize: Int
    /// A fingerprint of the options the files are loaded with (anything that changes the
    /// entities read from the same bytes), so that other options use another index.
    public var options: String

    public init(folder: String, minimumSize: Int = 256 << 10, options: String = "") {
        self.folder = folder
        self.minimumSize = minimumSize
        self.options = options
    }

    /// `$XDG_CACHE_HOME/atpad/index`, or `$HOME/.cache/atpad/index` when `XDG_CACHE_HOME`
    /// is unset or not absolute (the XDG rule); nil without either.
    public static func defaultFolder(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/atpad/index" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/atpad/index" }
        return nil
    }

    /// The cache atpad uses: in ``defaultFolder(environment:)``, unless `ATPAD_INDEX=off`
    /// (every directory file is then parsed, as before indexes: for comparisons).
    public static func standard(environment: [String: String]) -> IndexCache? {
        guard environment["ATPAD_INDEX"] != "off" else { return nil }
        return defaultFolder(environment: environment).map { IndexCache(folder: $0) }
    }

    /// The index file of the directory made of `paths` (absolute), loaded with ``options``.
    func file(for paths: [String]) -> String {
        var key = "v\(IndexFormat.version)\u{0}\(options)"
        for path in paths { key += "\u{0}" + path }
        return folder + "/" + String(IndexFormat.hash(key), radix: 16) + ".idx"
    }

    var optionsFingerprint: UInt64 { IndexFormat.hash(options) }

    /// The stamps of the files at `paths` as they are now, or nil when one cannot be
    /// stat'ed (the load reports that) or they are too small in all to index.
    func stamps(_ paths: [String]) -> [SourceStamp]? {
        var stamps: [SourceStamp] = []
        var total = 0
        for path in paths {
            guard let resolved = realpath(path, nil) else { return nil }
            let absolute = String(cString: resolved)
            free(resolved)
            var info = stat()
            guard stat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int(info.st_size)
            stamps.append(SourceStamp(
                path: absolute, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: UInt64(info.st_size),
                modified: (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)),
                changed: (Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))))
        }
        return total >= minimumSize ? stamps : nil
    }

    /// Writes the index of a directory parsed from the files `stamps` describe, unless
    /// they changed while they were read. Returns what went wrong, in one line.
    func write(_ arrays: IndexArrays, warnings: [String], stamps: [SourceStamp]) -> String? {
        guard self.stamps(stamps.map(\.path)) == stamps else { return "the files changed while they were read" }
        let path = file(for: stamps.map(\.path))
        removeAbandonedTemporaries(of: path)
        do {
            try IndexFileWriter.write(arrays, warnings: warnings, sources: stamps, options: optionsFingerprint, to: path)
            return nil
        } catch {
            return "\(error)"  // a one-line IndexFileWriter or AtomicFile failure
        }
    }

    /// Removes the temporary files of `path` left by atpads that stopped while writing it
    /// (named `.NAME.PID.XXXXXX`; their process is gone).
    private func removeAbandonedTemporaries(of path: String) {
        let name = PathName.name(of: path)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(".\(name).") {
            let parts = entry.split(separator: ".")
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + entry) }
        }
    }
}

/// How the index cache served one directory load, for `atpad search --timing`.
public enum IndexStatus: Sendable, Equatable, CustomStringConvertible {
    /// The directory was read from its mapped index.
    case used
    /// The files were parsed; the index is still to be written (why none was used).
    case pending(String)
    /// The files were parsed and their index written (why none was used before).
    case written(String)
    /// There is no index, for this reason (a read-only or full cache folder, say).
    case unavailable(String)

    public var description: String {
        switch self {
        case .used: "index used"
        case let .pending(why): "index not used (\(why)), to be written"
        case let .written(why): "index not used (\(why)), written"
        case let .unavailable(why): "no index: \(why)"
        }
    }

    /// One word for JSON: used, pending, written or none.
    public var word: String {
        switch self {
        case .used: "used"
        case .pending: "pending"
        case .written: "written"
        case .unavailable: "none"
        }
    }
}
