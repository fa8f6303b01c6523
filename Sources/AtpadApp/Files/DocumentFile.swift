import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

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
        do {
            return try FileContents.read(path, regularOnly: regularOnly)
        } catch .missing {
            return nil
        } catch .folder {
            throw Failure(message: "\(path): is a folder, not a file")
        } catch .notRegular(let kind) {
            throw Failure(message: kind.refusal(path, doing: "edits") ?? "\(path): not a regular file")
        } catch {
            throw Failure(message: "\(path): \(error.reason)")
        }
    }

    /// All of stdin (`atpad -`), read to its end, whatever the bytes (as a file's, docs/editor.md);
    /// errors name it `stdin`, as `readBytes` names a file.
    public static func readStandardInput() throws -> [UInt8] {
        do {
            return try FileContents.read(descriptor: STDIN_FILENO, sizeHint: 0)
        } catch {
            throw Failure(message: "stdin: \(error.reason)")
        }
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
