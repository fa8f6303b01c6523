@testable import AtpadApp
import Foundation
import Testing

/// Issue 22 bullet 8 (docs/editor.md): the lock is written whole or not at all; a lock that
/// cannot be written is said on the message line; a lock that cannot be read still warns.
@Suite struct EditLockTests {
    func lock() throws -> (EditLock, folder: String) {
        let state = NSTemporaryDirectory() + "atpad-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state + "/drafts", withIntermediateDirectories: true)
        return (EditLock(documentPath: state + "/c.md", draftsFolder: state + "/drafts"), state + "/locks")
    }

    @Test func theLockHoldsTheWholeLineAndNothingElseIsLeft() throws {
        let (lock, folder) = try lock()
        #expect(lock.acquire() == .acquired)
        let text = try String(contentsOfFile: lock.path, encoding: .utf8)
        #expect(text == "\(getpid()) \(EditLock.startTime(of: getpid()) ?? 0)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [(lock.path as NSString).lastPathComponent])
        lock.release()
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    @Test func anotherLiveAtpadHoldsIt() throws {
        let (lock, _) = try lock()
        // pid 1 runs, started when it started: a live owner.
        try FileManager.default.createDirectory(atPath: (lock.path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try "1 \(EditLock.startTime(of: 1) ?? 0)\n".write(toFile: lock.path, atomically: true, encoding: .utf8)
        #expect(lock.acquire() == .heldBy(pid: 1))
        // A pid that started at another time is another process: stale, taken over.
        try "1 1\n".write(toFile: lock.path, atomically: true, encoding: .utf8)
        #expect(lock.acquire() == .acquired)
    }

    @Test func aLockThatCannotBeReadIsNotTakenOver() throws {
        for garbage in ["", "12", "not a lock\n", "\u{0}\u{0}\u{0}"] {
            let (lock, _) = try lock()
            try FileManager.default.createDirectory(atPath: (lock.path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try garbage.write(toFile: lock.path, atomically: true, encoding: .utf8)
            #expect(lock.acquire() == .unreadable, "\(garbage.debugDescription)")
            #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == garbage, "left as it was")
        }
    }

    @Test func aLockThatCannotBeWrittenSaysWhy() {
        // /proc takes no folders: no lock, and the reason for the message line.
        let lock = EditLock(documentPath: "/tmp/c.md", draftsFolder: "/proc/1/atpad-drafts")
        guard case let .unavailable(reason) = lock.acquire() else {
            Issue.record("a lock in /proc")
            return
        }
        #expect(reason.contains("/proc/1/locks"))
    }

    @Test func warnings() {
        #expect(EditLock.warning(.acquired, file: "c.md", lock: "/l") == nil)
        #expect(EditLock.warning(.heldBy(pid: 4), file: "c.md", lock: "/l") == nil)
        #expect(EditLock.warning(.unavailable(reason: "No space left on device"), file: "c.md", lock: "/l")
            == "The lock of c.md could not be written (No space left on device): another atpad would not know it is open")
        #expect(EditLock.warning(.unreadable, file: "c.md", lock: "/l")
            == "c.md may be open in another atpad: its lock cannot be read (/l; remove it if no atpad has the file open)")
    }
}
