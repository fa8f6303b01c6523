import Glibc

/// The one whole-file reader: a file's bytes read straight into one array (no `Data` in
/// between: a directory of a million people is a hundred megabytes, a comment may be ten).
/// Directory files, documents, configs, themes, drafts and locks are all read through it.
public enum FileContents {
    /// Why a file could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// Nothing at the path (or a path through something that is not a folder).
        case missing
        /// The path names a folder.
        case folder
        /// The path names a FIFO, a device or a socket, and only a regular file was asked for.
        case notRegular(FileKind)
        /// The file is longer than the limit given, in bytes.
        case tooLarge(limit: Int)
        /// `open` or `read` failed with this `errno`.
        case unreadable(Int32)

        /// A short reason that reads after a file's name: `no such file`,
        /// `cannot be read (permission denied)`.
        public var reason: String {
            switch self {
            case .missing: "no such file"
            case .folder: "is a folder"
            case .notRegular(let kind): "is \(kind.name), not a regular file"
            case .tooLarge(let limit): "is larger than \(limit >> 20) MiB"
            case .unreadable(EACCES): "cannot be read (permission denied)"
            case .unreadable(let code): "cannot be read (\(errorText(code)))"
            }
        }
    }

    /// The whole file at `path` (symlinks followed). With `regularOnly`, anything but a
    /// regular file is refused before a byte is read: a FIFO put in a file's place must not
    /// block the reader. With `limit`, a longer file is refused.
    public static func read(_ path: String, regularOnly: Bool = false, limit: Int? = nil) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .missing
            case EISDIR: throw .folder
            default: throw .unreadable(code)
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(errno) }
        let kind = FileKind(mode: info.st_mode)
        if kind == .folder { throw .folder }
        if regularOnly, kind != .regular { throw .notRegular(kind) }
        return try read(descriptor: fd, sizeHint: Int(info.st_size), limit: limit)
    }

    /// Everything left to read from `fd` (a file, a pipe, stdin), whose size is about
    /// `sizeHint`: a pipe or a /proc file says 0, a file growing under the reader more.
    public static func read(descriptor fd: Int32, sizeHint: Int, limit: Int? = nil) throws(Failure) -> [UInt8] {
        // One byte more than the size says, to notice a file that has more; then the rest
        // is read in blocks.
        let expected = min(max(sizeHint, 0), limit ?? .max) + 1
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            (initialized, failure) = readFully(fd, into: buffer)
        }
        if failure != 0 { throw .unreadable(failure) }
        if bytes.count == expected {
            var block = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let (got, failure) = block.withUnsafeMutableBufferPointer { readFully(fd, into: $0) }
                if failure != 0 { throw .unreadable(failure) }
                if got == 0 { break }
                bytes.append(contentsOf: block[..<got])
                if let limit, bytes.count > limit { throw .tooLarge(limit: limit) }
            }
        }
        if let limit, bytes.count > limit { throw .tooLarge(limit: limit) }
        return bytes
    }

    /// Reads into `buffer` until it is full or the input ends: the number of bytes read,
    /// and the `errno` of a failed read (0 when none failed).
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> (count: Int, errno: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var count = 0
        while count < buffer.count {
            let got = Glibc.read(fd, base + count, buffer.count - count)
            if got < 0 {
                if errno == EINTR { continue }
                return (count, errno)
            }
            if got == 0 { break }
            count += got
        }
        return (count, 0)
    }
}
