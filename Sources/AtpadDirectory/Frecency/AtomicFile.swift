import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a small state file so that a reader sees the old contents or the new, never a
/// part: a temporary file in the same folder, flushed to disk, renamed over the target.
public enum AtomicFile {
    /// Why a write failed, in one line.
    /// Why a write failed, in one line (`write failed: No space left on device`).
    public struct Failure: Error, Sendable {
        public let message: String
    }

    /// Writes `text` to `path` (mode 0600: state is private), creating its folder (mode
    /// 0700) if needed. On failure the old file is untouched and the temporary removed.
    static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    /// Writes `bytes` to `path` readable by its owner only: a temporary file in the same
    /// folder (created, owner only, when missing), written, flushed, renamed over `path`,
    /// and the folder flushed, so the file on disk is always a whole one.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let dir = folder.isEmpty ? "." : folder
        func failure(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(message: "\(what): \(String(cString: strerror(code)))")
        }
        try makeFolders(dir)
        var template = Array("\(dir)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(dir)") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }

        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure("write failed")
                close(fd)
                throw error
            }
            written += count
        }
        if fchmod(fd, 0o600) != 0 { let error = failure("cannot set permissions"); close(fd); throw error }
        if fsync(fd) != 0 { let error = failure("flush failed"); close(fd); throw error }
        if close(fd) != 0 { throw failure("close failed") }
        if rename(temporary, path) != 0 { throw failure("rename failed") }
        renamed = true
        // Make the rename itself durable; a folder that cannot be opened is not an error.
        let dirFD = open(dir, O_RDONLY)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// Creates `path` and the folders above it that are missing (mode 0700).
    private static func makeFolders(_ path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw Failure(message: "cannot create the folder \(path): a file is in the way")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolders(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw Failure(message: "cannot create the folder \(path): \(String(cString: strerror(errno)))")
        }
    }
}
