import AtpadCore
import AtpadDirectory
import Foundation

import Glibc

/// A fresh folder under the temporary directory, removed when the value goes away.
///
/// Scripts write into it by absolute path (`file(_:)`), never `cd FOLDER` and a relative name:
/// a script that outlives the folder would otherwise write its files where the tests run
/// (a stray `child` pid file once reached the repository that way).
final class ScriptFolder: @unchecked Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/atpad-sources-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` in the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes an executable shell script `name` with `body` and returns its path.
    @discardableResult
    func script(_ name: String, _ body: String) throws -> String {
        let path = file(name)
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The contents of `name`, or nil when it does not exist (yet).
    func read(_ name: String) -> String? {
        try? String(contentsOfFile: file(name), encoding: .utf8)
    }

    /// The process id written in `name`, once the file holds a whole line.
    func pid(_ name: String) -> pid_t? {
        guard let text = read(name), text.hasSuffix("\n") else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: file(name))
    }

    func touch(_ name: String) {
        _ = FileManager.default.createFile(atPath: file(name), contents: nil)
    }
}

/// Everything a source answered: its batches and the error it ended with, if any.
struct Answer {
    var batches: [[Candidate]] = []
    var error: (any Error)?

    var ids: [String] { batches.flatMap { $0.map(\.entity.id) } }
    var message: String? { error.map { "\($0)" } }
}

/// Reads the whole answer of `source` to `query`.
func answer(_ source: some EntitySource, _ query: String, trigger: Unicode.Scalar = "@") async -> Answer {
    var result = Answer()
    do {
        for try await batch in source.search(query, trigger: trigger) {
            result.batches.append(batch)
        }
    } catch {
        result.error = error
    }
    return result
}

/// Whether the process is gone: no such process, or a zombie. A zombie is dead; reaping it
/// is its parent's job, and an orphan's parent is init — which on some machines (this
/// test VM's PID 1) never reaps, so a killed grandchild stays a zombie for good.
func isGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 { return errno == ESRCH }
    return processState(pid) == "Z"
}

/// Whether the process id is free: no process, not even a zombie (for our own children,
/// which the source must reap).
func isReaped(_ pid: pid_t) -> Bool {
    kill(pid, 0) != 0 && errno == ESRCH
}

/// The state letter of `/proc/PID/stat` (`R`, `S`, `Z`, …).
func processState(_ pid: pid_t) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    return stat[close...].dropFirst(2).first
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
func eventually(within timeout: Duration = .seconds(3), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A JSON entity line for a fake command or server.
func entityJSON(_ id: String, _ name: String) -> String {
    "{\"id\": \"\(id)\", \"name\": \"\(name)\"}"
}

/// Whether `curl` can be run (the https path of the URL source needs it).
let curlIsAvailable: Bool = {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/curl")
    }
}()
