import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The record that an atpad is editing a file (SPEC §11): a small file under
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
        /// No lock could be written (no state folder, say): editing goes on unlocked.
        case unavailable
    }

    /// The lock of `documentPath` in the folder beside `draftsFolder` (`…/atpad/locks`).
    init(documentPath: String, draftsFolder: String) {
        let state = (draftsFolder as NSString).deletingLastPathComponent
        path = state + "/locks/" + DraftName.named(DraftName.absolute(documentPath,
                                                                          currentDirectory: FileManager.default.currentDirectoryPath)) + ".lock"
    }

    deinit { release() }

    /// Takes the lock unless a live atpad holds it.
    func acquire() -> Outcome {
        let folder = (path as NSString).deletingLastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])) != nil
        else { return .unavailable }
        let mine = "\(getpid()) \(EditLock.startTime(of: getpid()) ?? 0)\n"
        for _ in 0..<2 {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                _ = mine.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
                close(fd)
                held = true
                return .acquired
            }
            guard errno == EEXIST else { return .unavailable }
            if let owner = owner(), owner != getpid() { return .heldBy(pid: owner) }
            unlink(path)  // stale (or our own from a reused pid): take it over
        }
        return .unavailable
    }

    /// The live process the lock names, or nil when it is stale or unreadable.
    private func owner() -> Int32? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = fields.first, let pid = Int32(first), pid > 0 else { return nil }
        guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
        // The same pid started at another time is another process: the lock is stale.
        if fields.count > 1, let started = UInt64(fields[1]), started != 0,
           let now = EditLock.startTime(of: pid), now != started {
            return nil
        }
        return pid
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
