import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// The comment the editor starts from: FILE's bytes (or stdin's, for `-`), read before the
/// directories are set up — whether the file's format needs the directory to read it
/// depends on what the file holds — and decoded once they are.
struct OpenedFile {
    /// The bytes read; nil without a FILE, or for a FILE that does not exist yet.
    var bytes: [UInt8]?
    /// What the file on disk held (nil: stdin, or no file yet), to notice other programs'
    /// changes before a save.
    var disk: DiskState?
    /// The file exists and this person may not write it.
    var isReadOnly = false
    /// The name errors and notes give it: the path, or `stdin`.
    var name: String?

    /// Reads `file` (`-`: stdin, after `beforeStandardInput`, which checks there is a
    /// terminal so that stdin is never consumed for nothing). Problems are `UsageError`s.
    static func read(_ file: String?, beforeStandardInput: () throws -> Void) throws -> OpenedFile {
        guard let file else { return OpenedFile() }
        do {
            if file == "-" {
                try beforeStandardInput()
                return OpenedFile(bytes: try DocumentFile.readStandardInput(), name: "stdin")
            }
            // Before opening it: a FIFO would block, a device is no comment (docs/editor.md).
            if let refusal = FileKind.of(file)?.refusal(file, doing: "edits") { throw UsageError(refusal) }
            guard let bytes = try DocumentFile.readBytes(file, regularOnly: true) else { return OpenedFile(name: file) }
            return OpenedFile(bytes: bytes, disk: DiskState.of(file, bytes: bytes), isReadOnly: access(file, W_OK) != 0,
                              name: file)
        } catch let error as DocumentFile.Failure {
            throw UsageError(error.message)
        }
    }

    /// Whether reading these bytes in `format` needs the directory: only a format that
    /// reads mentions by handle or id, and only when the bytes hold something that could
    /// be one. Otherwise the directory may load behind the first screen (a new comment, or
    /// a commit message without a `@`, never waits for a large directory).
    func needsDirectory(_ format: DocumentFormat) -> Bool {
        guard format.decodingUsesDirectory, let bytes else { return false }
        return format.mayReadMentions(in: bytes)
    }

    /// The document the bytes hold in `format` (empty without any); with `git`, git's
    /// lines in them are text that nothing decodes.
    func decode(_ format: DocumentFormat, lookup: EntityLookup, git: GitFile? = nil) throws -> DecodedDocument {
        guard let bytes else { return DecodedDocument(document: MarkedText()) }
        do {
            return try format.decode(bytes: bytes, lookup: lookup, git: git)
        } catch {
            throw UsageError("\(name ?? "FILE"): not in the \(format) format: \(error.message)")
        }
    }
}
