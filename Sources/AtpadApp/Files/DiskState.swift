import AtpadSystem
import FoundationEssentials
import Glibc

/// What a file on disk held when atpad last read or wrote it (docs/editor.md): its size, inode,
/// change and modification times (with nanoseconds) and a hash of its bytes, so that a
/// save can tell whether another program changed the file meanwhile — even a rewrite with
/// the same size and modification time, which the change time and inode still catch.
struct DiskState: Equatable, Sendable {
    var size: Int
    var device: UInt64
    var inode: UInt64
    var changed: Int64
    var modified: Int64
    var hash: UInt64

    /// The state of `path` holding `bytes` (just read or written); nil when the file
    /// cannot be stat'ed (it does not exist).
    static func of(_ path: String, bytes: [UInt8]) -> DiskState? {
        guard let info = status(path) else { return nil }
        return DiskState(info, hash: DraftName.fnv1a64(bytes))
    }

    private init(_ info: stat, hash: UInt64) {
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        self.hash = hash
    }

    private static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// Whether the file at `path` is not what `known` describes: it appeared, vanished, or
    /// holds other bytes. Same size, inode and times are taken as unchanged without
    /// reading; otherwise the bytes decide (a `touch` is not a change).
    static func hasChanged(_ path: String, since known: DiskState?) -> Bool {
        let info = status(path)
        guard let known else { return info != nil }
        guard let info else { return true }
        let now = DiskState(info, hash: known.hash)
        if now == known { return false }
        guard let bytes = try? FileContents.read(path) else { return true }
        return DraftName.fnv1a64(bytes) != known.hash
    }
}
