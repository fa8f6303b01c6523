import AtpadCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing a comment file: strict UTF-8 on the way in, atomic on the way out.
public enum DocumentFile {
    /// A problem with a file, as one line naming it.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { message }
    }

    /// The file's text, nil when it does not exist yet (a new comment). Invalid UTF-8, a
    /// folder or an unreadable file is an error naming the file.
    public static func read(_ path: String) throws -> String? {
        try readUTF8(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The file's bytes, checked to be valid UTF-8, nil when it does not exist yet. For
    /// readers that work on bytes (the format decoders), which need no String of a large
    /// file. Errors as for `read`.
    public static func readUTF8(_ path: String) throws -> [UInt8]? {
        guard let bytes = try readBytes(path) else { return nil }
        if let bad = firstInvalidUTF8(bytes) {
            throw Failure(message: "\(path): not valid UTF-8 (byte \(bad + 1) of \(bytes.count)); the file was not changed")
        }
        return bytes
    }

    /// The file's bytes, whatever they are (a comment may hold bytes that are not UTF-8,
    /// SPEC §7), nil when it does not exist yet. A folder or an unreadable file is an error
    /// naming the file.
    ///
    /// With `regularOnly`, anything but a regular file (found so when it is opened, even
    /// if it was replaced after a first look) is an error too, and opening never blocks.
    public static func readBytes(_ path: String, regularOnly: Bool = false) throws -> [UInt8]? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw Failure(message: "\(path): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(message: "\(path): is a folder, not a file") }
        if regularOnly, let refusal = FileKind(mode: info.st_mode).refusal(path, doing: "edits") {
            throw Failure(message: refusal)
        }
        guard let bytes = contents(of: path, size: Int(info.st_size), regularOnly: regularOnly) else {
            throw Failure(message: "\(path): cannot be read (permission denied?)")
        }
        return bytes
    }

    /// All of stdin (`atpad -`), read to its end, whatever the bytes (as a file's, SPEC §7);
    /// errors name it `stdin`, as `readBytes` names a file.
    public static func readStandardInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = block.withUnsafeMutableBytes { readFile(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n > 0 {
                bytes += block[..<n]
            } else if n == 0 {
                break
            } else if errno != EINTR {
                throw Failure(message: "stdin: \(String(cString: strerror(errno)))")
            }
        }
        return bytes
    }

    /// The whole file, read straight into an array (no `Data` to copy from), or nil when
    /// it cannot be opened or read. `size` is what stat said.
    private static func contents(of path: String, size: Int, regularOnly: Bool = false) -> [UInt8]? {
        // O_NONBLOCK: a FIFO put in the file's place after the first look must not block.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var opened = stat()
        if regularOnly, fstat(fd, &opened) != 0 || FileKind(mode: opened.st_mode) != .regular { return nil }
        var failed = false
        // One byte more than stat said, to notice a file that grew meanwhile.
        let room = max(size, 0) + 1
        let bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            while count < room {
                let n = readFile(fd, buffer.baseAddress! + count, room - count)
                if n > 0 {
                    count += n
                } else if n == 0 || errno != EINTR {
                    failed = n < 0
                    break
                }
            }
        }
        if failed { return nil }
        if bytes.count < room { return bytes }
        // It grew while being read: read it again the simple way.
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The offset of the first byte that is not part of valid UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        UTF8Validation.firstInvalidByte(in: bytes)
    }

    /// Writes `text` to `path` atomically: a temporary file in the same folder, written,
    /// flushed to disk and renamed over the original, which keeps its permissions. On any
    /// failure the original is untouched and the temporary file removed.
    public static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(bytes: Array(text.utf8), to: path)
    }

    /// `writeAtomically`, of bytes (a comment holding bytes that are not UTF-8).
    public static func writeAtomically(bytes: [UInt8], to path: String) throws {
        var target = path
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK, let real = realpath(path, nil) {
            target = String(cString: real)  // write through a symlink, keep the link
            free(real)
        }
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var mode: mode_t = 0o644
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        func failure(_ what: String) -> Failure {
            Failure(message: "cannot save \(path): \(what): \(String(cString: strerror(errno)))")
        }
        var template = Array("\(dir)/.\(name).atpad-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(dir)") }
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
        }
        try writeAndFlush(bytes, to: fd, failure: failure)
        if fchmod(fd, mode) != 0 { let error = failure("cannot set permissions"); close(fd); throw error }
        if close(fd) != 0 { throw failure("close failed") }
        if rename(tempPath, target) != 0 { throw failure("rename failed") }
        ok = true
        // Make the rename itself durable; a folder that cannot be opened is not an error.
        let dirFD = open(dir, O_RDONLY)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}

extension DocumentFile {
    /// Writes `text` over the file at `path` in place (truncate, write, flush), for a file
    /// whose folder allows no temporary file beside it. Not atomic: the caller writes the
    /// recovery draft first.
    public static func writeInPlace(_ text: String, to path: String) throws {
        try writeInPlace(bytes: Array(text.utf8), to: path)
    }

    /// `writeInPlace`, of bytes.
    public static func writeInPlace(bytes: [UInt8], to path: String) throws {
        func failure(_ what: String) -> Failure {
            Failure(message: "cannot save \(path) in place: \(what): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open it") }
        try writeAndFlush(bytes, to: fd, failure: failure)
        if close(fd) != 0 { throw failure("close failed") }
    }
}

extension DocumentFile {
    /// Writes all of `bytes` to `fd` and flushes them to disk; on failure closes `fd` and
    /// throws what `failure` makes of the step that failed.
    fileprivate static func writeAndFlush(_ bytes: [UInt8], to fd: Int32, failure: (String) -> Failure) throws {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = failure("write failed")
                close(fd)
                throw error
            }
            written += n
        }
        if fsync(fd) != 0 {
            let error = failure("flush failed")
            close(fd)
            throw error
        }
    }
}

/// `read(2)`, under a name the `DocumentFile.read` method does not shadow.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
