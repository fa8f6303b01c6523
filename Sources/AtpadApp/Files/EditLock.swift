import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// The record that an atpad is editing a file (docs/editor.md): a small file under
/// `$XDG_STATE_HOME/atpad/locks/`, named like the file's draft, holding the editor's pid
/// and its process start time. A lock whose process is gone — or whose pid now belongs to
/// a process started at another time — is stale and taken over. A second atpad on the
/// same file opens it read-only and leaves its draft alone.
final class EditLock {
    /// The lock file.
    let path: String
    private var held = false

    /// What `acquire` found.
    enum Outcome: Equatable {
        /// This atpad now holds the lock.
        case acquired
        /// Another running atpad holds it.
        case heldBy(pid: Int32)
        /// A lock is there that cannot be read (not atpad's, or damaged): another atpad
        /// may be editing the file, so it is not taken over.
        case unreadable
        /// No lock could be written (no state folder, a full disk): editing goes on
        /// unlocked; `reason` says why, for the message line.
        case unavailable(reason: String)
    }

    /// What a lock file says about its owner.
    private enum Owner {
        case live(Int32)
        case stale
        case unreadable
    }

    /// The lock of `documentPath` in the folder beside `draftsFolder` (`…/atpad/locks`).
    init(documentPath: String, draftsFolder: String) {
        let state = PathName.folder(of: draftsFolder)
        path = state + "/locks/" + DraftName.named(DraftName.absolute(documentPath,
                                                                          currentDirectory: FileManager.default.currentDirectoryPath)) + ".lock"
    }

    deinit { release() }

    /// Takes the lock unless a live atpad holds it (or a lock that cannot be read is there).
    ///
    /// The lock is written whole or not at all: its line goes to a temporary file first,
    /// which is then linked to the lock's name — `link` fails when the name exists, so
    /// taking the lock stays exclusive, and a full disk leaves no empty lock behind for
    /// another atpad to take for a stale one.
    func acquire() -> Outcome {
        let folder = PathName.folder(of: path)
        do {
            try AtomicFile.createFolders(folder)
        } catch {
            return .unavailable(reason: error.message)
        }
        let mine = "\(getpid()) \(EditLock.startTime(of: getpid()) ?? 0)\n"
        let temporary: String
        switch EditLock.writeWhole(mine, beside: path) {
        case let .success(written): temporary = written
        case let .failure(failure): return .unavailable(reason: failure.reason)
        }
        defer { unlink(temporary) }
        for _ in 0..<2 {
            if link(temporary, path) == 0 || EditLock.linkIsUnsupported(errno) && EditLock.create(path, from: temporary) {
                held = true
                return .acquired
            }
            guard errno == EEXIST else { return .unavailable(reason: EditLock.reason(errno)) }
            switch owner() {
            case let .live(pid) where pid != getpid(): return .heldBy(pid: pid)
            case .unreadable: return .unreadable
            default: unlink(path)  // stale (or our own from a reused pid): take it over
            }
        }
        return .unavailable(reason: "another atpad keeps taking it")
    }

    /// Whether `link` failed because the file system has no hard links (some FUSE or
    /// FAT folders), rather than because the lock exists.
    private static func linkIsUnsupported(_ code: Int32) -> Bool {
        code == EPERM || code == EOPNOTSUPP || code == ENOSYS
    }

    /// Where there are no hard links: creates `path` exclusively and copies the whole
    /// temporary file into it, removing it again if that fails (so no cut lock stays).
    /// Returns false with `errno` set (EEXIST when another lock is there).
    private static func create(_ path: String, from temporary: String) -> Bool {
        guard let bytes = try? FileContents.read(temporary) else { return false }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let closed = close(fd)
        if written != bytes.count || closed != 0 {
            let code = written < 0 || closed != 0 ? errno : ENOSPC
            unlink(path)
            errno = code
            return false
        }
        return true
    }

    /// Writes `text` whole to a new temporary file beside `path`; its path, or why not.
    private static func writeWhole(_ text: String, beside path: String) -> Result<String, Failure> {
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(Failure(reason(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = n < 0 ? reason(errno) : "nothing written"
                close(fd)
                unlink(temporary)
                return .failure(Failure(why))
            }
            written += n
        }
        // A full disk may only say so when the file is closed (NFS, some FUSE folders).
        if close(fd) != 0 {
            let why = reason(errno)
            unlink(temporary)
            return .failure(Failure(why))
        }
        return .success(temporary)
    }

    private struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Who the lock names: a live process, none (stale), or nothing readable.
    private func owner() -> Owner {
        guard let bytes = try? FileContents.read(path) else {
            // Gone since `link` failed: stale, take it; there but not readable: unreadable.
            return access(path, F_OK) == 0 ? .unreadable : .stale
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard text.hasSuffix("\n"), let first = fields.first, let pid = Int32(first), pid > 0 else { return .unreadable }
        guard kill(pid, 0) == 0 || errno == EPERM else { return .stale }
        // The same pid started at another time is another process: the lock is stale.
        if fields.count > 1, let started = UInt64(fields[1]), started != 0,
           let now = EditLock.startTime(of: pid), now != started {
            return .stale
        }
        return .live(pid)
    }

    /// The message line's note for what `acquire` found about `file`, whose lock is at
    /// `lock`: nil when it was taken, or another atpad holds it (which has its own note).
    static func warning(_ outcome: Outcome, file: String, lock: String) -> String? {
        switch outcome {
        case .acquired, .heldBy: nil
        case .unreadable:
            "\(file) may be open in another atpad: its lock cannot be read (\(lock); remove it if no atpad has the file open)"
        case let .unavailable(reason):
            "The lock of \(file) could not be written (\(reason)): another atpad would not know it is open"
        }
    }

    /// Removes the lock if this atpad holds it.
    func release() {
        guard held else { return }
        held = false
        unlink(path)
    }

    /// A process's start time in clock ticks since boot (`/proc/PID/stat`, field 22).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces): state is field 3, start time 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
