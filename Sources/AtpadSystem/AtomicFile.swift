import FoundationEssentials
import Glibc

/// atpad's one file writer: a reader sees the old contents or the new, never a part. The
/// bytes go to a temporary file beside the target (`.NAME.PID.XXXXXX`, so a temporary left
/// by a process that is gone can be told apart), which is renamed over the target.
///
/// Private state (drafts, frecency, cached lists, the index) and a person's documents
/// differ only in `Options`; `writeInPlace` is the one write that is not atomic, for a
/// document whose folder allows no temporary file.
public enum AtomicFile {
    /// Why a write failed, in one line (`write failed: No space left on device`).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }

        init(message: String) {
            self.message = message
        }

        /// `what` followed by the reason the system gave (`errno`).
        init(_ what: String, errno code: Int32 = errno) {
            message = "\(what): \(String(cString: strerror(code)))"
        }
    }

    /// How a file is written.
    public struct Options: Sendable {
        /// Who may read the file written.
        public enum Permissions: Sendable {
            /// Its owner only (0600), whatever was there before: state may hold private text.
            case ownerOnly
            /// An existing file's mode, and its owner and group where this user may keep them
            /// (root may; an owner may keep a group it is in); a new file gets 0666 less the umask.
            case keepExisting
        }

        /// Who may read the file written.
        public var permissions: Permissions
        /// Missing folders above the file are created, owner only (0700); otherwise a
        /// missing folder is a failure.
        public var createsFolders: Bool
        /// The file's bytes and the rename are on disk before `write` returns. Without it a
        /// crash may leave an empty or old file, never a part of the new one.
        public var flushes: Bool
        /// A symlink at the path is written through: the file it names (at the end of a
        /// chain of links, relative or absolute) is replaced — or created, when the link
        /// dangles, as vim does — and the link kept. Otherwise the link itself is replaced.
        public var followsSymlinks: Bool
        /// Only a regular file is replaced: a device, FIFO or socket at the path (or put
        /// there while the temporary file was written) is a failure, and stays (docs/editor.md).
        public var replacesOnlyRegularFiles: Bool

        public init(permissions: Permissions, createsFolders: Bool, flushes: Bool, followsSymlinks: Bool,
                    replacesOnlyRegularFiles: Bool = false) {
            self.permissions = permissions
            self.createsFolders = createsFolders
            self.flushes = flushes
            self.followsSymlinks = followsSymlinks
            self.replacesOnlyRegularFiles = replacesOnlyRegularFiles
        }

        /// State atpad keeps for itself: owner only, its folders created, flushed.
        public static let privateState = Options(permissions: .ownerOnly, createsFolders: true, flushes: true,
                                                 followsSymlinks: false)
        /// A person's document: keeps the file's mode and owner, written through a symlink,
        /// flushed, never over anything but a regular file; its folder must exist.
        public static let document = Options(permissions: .keepExisting, createsFolders: false, flushes: true,
                                             followsSymlinks: true, replacesOnlyRegularFiles: true)
    }

    /// Where a streaming writer puts the file's bytes (see `write(to:_:_:)`).
    public struct Output {
        fileprivate let fd: Int32

        /// Appends `bytes` to the file.
        public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure("write failed")
                }
                done += count
            }
        }

        /// Appends `bytes` to the file.
        public func write(_ bytes: [UInt8]) throws(Failure) {
            try bytes.withUnsafeBytes { raw in Result { () throws(Failure) in try write(raw) } }.get()
        }

        /// Writes `bytes` at `offset`, over what was written there (a header's checksum, say).
        public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Failure) {
            var done = 0
            while done < bytes.count {
                let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure("write failed")
                }
                done += count
            }
        }
    }

    /// Writes `bytes` to `path`, as `options` say. On failure the old file is untouched
    /// and the temporary file removed.
    public static func write(_ bytes: [UInt8], to path: String, _ options: Options = .privateState) throws(Failure) {
        do {
            try write(to: path, options) { output throws(Failure) in try output.write(bytes) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(error)")  // the writer above throws only failures
        }
    }

    /// Writes to `path` what `produce` writes to the `Output` it is given (a large file,
    /// streamed), as `options` say. When `produce` throws, its error is thrown, the old
    /// file is untouched and the temporary file removed.
    public static func write(to path: String, _ options: Options = .privateState,
                             _ produce: (Output) throws -> Void) throws {
        let (target, existing) = try destination(of: path, options)
        let folder = PathName.folder(of: target)
        let name = PathName.name(of: target)
        let dir = folder.isEmpty ? "." : folder
        if options.createsFolders { try createFolders(dir) }

        var template = Array("\(dir)/.\(name).\(getpid()).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure("cannot create a temporary file in \(dir)") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(fd) }
            if !renamed { unlink(temporary) }
        }

        try produce(Output(fd: fd))
        let mode: mode_t
        switch options.permissions {
        case .ownerOnly:
            mode = 0o600
        case .keepExisting:
            if let existing, existing.st_uid != geteuid() || existing.st_gid != getegid() {
                // Best effort: only root may give a file away; an owner may keep its group.
                if fchown(fd, existing.st_uid, existing.st_gid) != 0 { _ = fchown(fd, uid_t.max, existing.st_gid) }
            }
            mode = existing.map { $0.st_mode & 0o7777 } ?? newFileMode()
        }
        // After fchown, which clears the set-id bits.
        if fchmod(fd, mode) != 0 { throw Failure("cannot set permissions") }
        if options.flushes, fsync(fd) != 0 { throw Failure("flush failed") }
        closed = true
        if close(fd) != 0 { throw Failure("close failed") }
        // Looked at again just before the rename: a FIFO or device put there meanwhile stays.
        if options.replacesOnlyRegularFiles { try refuseAnythingButARegularFile(at: target, named: path) }
        if rename(temporary, target) != 0 { throw Failure("rename failed") }
        renamed = true
        if options.flushes {
            // Make the rename itself durable; a folder that cannot be opened is not an error.
            let dirFD = open(dir, O_RDONLY | O_CLOEXEC)
            if dirFD >= 0 {
                fsync(dirFD)
                close(dirFD)
            }
        }
    }

    /// Writes `bytes` over the file at `path` in place (truncated, written, flushed), for a
    /// file whose folder allows no temporary file beside it. Not atomic: the caller keeps a
    /// copy first (the recovery draft). The file keeps its inode, mode and owner. Only a
    /// regular file is written so (it is a document's): a FIFO is never waited on.
    public static func writeInPlace(_ bytes: [UInt8], to path: String) throws(Failure) {
        // O_NONBLOCK and no O_TRUNC until the file is known to be regular: opening a FIFO
        // for writing would wait for a reader, and truncating a device means nothing.
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENXIO { throw Failure(message: FileKind.fifo.refusal(path, doing: "replaces")!) }
            throw Failure("cannot open it")
        }
        var closed = false
        defer { if !closed { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure("cannot open it") }
        if let refusal = FileKind(mode: info.st_mode).refusal(path, doing: "replaces") {
            throw Failure(message: refusal)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if ftruncate(fd, 0) != 0 { throw Failure("cannot empty it") }
        try Output(fd: fd).write(bytes)
        if fsync(fd) != 0 { throw Failure("flush failed") }
        closed = true
        if close(fd) != 0 { throw Failure("close failed") }
    }

    /// Creates `path` and the folders above it that are missing (mode 0700).
    public static func createFolders(_ path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw Failure(message: "cannot create the folder \(path): a file is in the way")
            }
            return
        }
        let parent = PathName.folder(of: path)
        if !parent.isEmpty, parent != path { try createFolders(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw Failure("cannot create the folder \(path)")
        }
    }

    /// The file a write replaces — `path`, or the file a symlink there names when
    /// `options` follow symlinks — and its status when it exists. A failure when `options`
    /// replace only regular files and it is something else (a device, FIFO or socket).
    private static func destination(of path: String, _ options: Options) throws(Failure)
        -> (path: String, existing: stat?) {
        let target = options.followsSymlinks ? try resolvingSymlinks(path) : path
        var info = stat()
        guard stat(target, &info) == 0 else { return (target, nil) }
        if options.replacesOnlyRegularFiles, let refusal = FileKind(mode: info.st_mode).refusal(path, doing: "replaces") {
            throw Failure(message: refusal)
        }
        return (target, info)
    }

    /// The path a write to `path` goes to when symlinks are written through: `path` when it
    /// is not a symlink, else what the link names — relative link text is read from the
    /// link's folder — followed along a chain of links to a name that is no link, whether
    /// or not a file is there (a dangling link's target is created by the write). A
    /// failure for a loop (more than 40 links, as the system counts).
    public static func resolvingSymlinks(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0 ..< 40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw Failure("cannot read the symlink \(current)") }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard !link.hasPrefix("/") else {
                current = link
                continue
            }
            let folder = PathName.folder(of: current)
            current = folder.isEmpty ? link : (folder.hasSuffix("/") ? folder + link : folder + "/" + link)
        }
        throw Failure("\(path): too many levels of symbolic links", errno: ELOOP)
    }

    /// A failure naming `path` when `target` (what it names) is there and not a regular file.
    private static func refuseAnythingButARegularFile(at target: String, named path: String) throws(Failure) {
        var info = stat()
        if stat(target, &info) == 0, let refusal = FileKind(mode: info.st_mode).refusal(path, doing: "replaces") {
            throw Failure(message: refusal)
        }
    }

    /// The mode `open` would give a new file: 0666 less the umask.
    private static func newFileMode() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }
}
