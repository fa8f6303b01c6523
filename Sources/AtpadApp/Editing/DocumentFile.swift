import AtpadCore
import AtpadDirectory
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing a comment file: any bytes (or strict UTF-8) on the way in, atomic
/// (``AtomicFile``) on the way out.
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
    /// docs/editor.md), nil when it does not exist yet. A folder or an unreadable file is an error
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

    /// All of stdin (`atpad -`), read to its end, whatever the bytes (as a file's, docs/editor.md);
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

    /// Writes `text` to `path` atomically (``AtomicFile``, as a document): the original
    /// keeps its permissions and owner, and a symlink stays a link to the file it names. On
    /// any failure the original is untouched and the temporary file removed.
    public static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(bytes: Array(text.utf8), to: path)
    }

    /// `writeAtomically`, of bytes (a comment may hold bytes that are not UTF-8). Only a
    /// regular file is replaced: a device, FIFO or socket at `path` is a failure (docs/editor.md).
    public static func writeAtomically(bytes: [UInt8], to path: String) throws {
        do {
            try AtomicFile.write(bytes, to: path, .document)
        } catch {
            throw Failure(message: "cannot save \(path): \(error.message)")
        }
    }

    /// Writes `text` over the file at `path` in place, for a file whose folder allows no
    /// temporary file beside it. Not atomic: the caller writes the recovery draft first.
    public static func writeInPlace(_ text: String, to path: String) throws {
        try writeInPlace(bytes: Array(text.utf8), to: path)
    }

    /// `writeInPlace`, of bytes; only a regular file is written.
    public static func writeInPlace(bytes: [UInt8], to path: String) throws {
        do {
            try AtomicFile.writeInPlace(bytes, to: path)
        } catch {
            throw Failure(message: "cannot save \(path) in place: \(error.message)")
        }
    }
}

/// `read(2)`, under a name the `DocumentFile.read` method does not shadow.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
