import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// The folder of recovery drafts (docs/drafts.md): where a document's draft lives, writing it
/// atomically, reading it back tolerantly, and finding the ones worth offering.
///
/// Every call works on the disk directly and keeps no state, so a store can be copied to
/// the writer's queue and used from any thread.
public struct DraftStore: Sendable {
    /// The folder the drafts are in, e.g. `~/.local/state/atpad/drafts`.
    public let folder: String
    /// What relative document paths are resolved against.
    let currentDirectory: String

    public init(folder: String, currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.folder = folder
        self.currentDirectory = currentDirectory
    }

    /// The store at the folder `environment` names (see `folder(environment:)`); nil when
    /// there is no home folder to put it in.
    public init?(environment: [String: String] = ProcessEnvironment.current()) {
        guard let folder = DraftStore.folder(environment: environment) else { return nil }
        self.init(folder: folder)
    }

    /// `$XDG_STATE_HOME/atpad/drafts` when that variable is an absolute path (the XDG base
    /// directory rules say to ignore a relative one), else `$HOME/.local/state/atpad/drafts`,
    /// taking the home folder from the password database when `HOME` is unset.
    public static func folder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return DraftName.absolute(state + "/atpad/drafts", currentDirectory: "/")
        }
        var home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if home == nil, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir {
            home = String(cString: dir)
        }
        guard let home, home.hasPrefix("/") else { return nil }
        return DraftName.absolute(home + "/.local/state/atpad/drafts", currentDirectory: "/")
    }

    // MARK: - Names

    /// `path` as drafts know it: absolute and standardized (`a/../b.md` → `/cwd/b.md`).
    public func absolutePath(_ path: String) -> String {
        DraftName.absolute(path, currentDirectory: currentDirectory)
    }

    /// The draft file of the document at `documentPath`: always the same file for the same
    /// document, whether or not it exists yet.
    public func draftPath(for documentPath: String) -> String {
        folder + "/" + DraftName.named(absolutePath(documentPath))
    }

    /// A draft file for an unnamed comment, unique to this session.
    public func unnamedDraftPath(started: Date = Date(), pid: Int32 = getpid()) -> String {
        folder + "/" + DraftName.unnamed(started: started, pid: pid)
    }

    // MARK: - Writing

    /// Writes `document` as the draft at `draftPath` (a path from this store): a temporary
    /// file in the same folder, written, flushed to disk, made readable by its owner only,
    /// then renamed over the old draft, so a draft on disk is always a whole one. Creates
    /// the folder (owner only) when it is missing.
    public func write(_ document: MarkedText, originalPath: String?, to draftPath: String,
                      written: Date = Date(), pid: Int32 = getpid()) throws(DraftError) {
        try write(DraftBody(document), originalPath: originalPath, to: draftPath, written: written, pid: pid)
    }

    /// Writes a document already encoded (see `write(_:originalPath:to:)`).
    func write(_ body: DraftBody, originalPath: String?, to draftPath: String,
               written: Date = Date(), pid: Int32 = getpid()) throws(DraftError) {
        try createFolder()
        let bytes = DraftFile.encode(body, originalPath: originalPath.map(absolutePath), written: written, pid: pid)
        do {
            try AtomicFile.write(bytes, to: draftPath)
        } catch {
            throw DraftError(message: "cannot write the recovery draft \(draftPath): \(error.message)")
        }
    }

    /// Creates the drafts folder and any missing parent, each readable by its owner only
    /// (drafts may hold private text); an existing folder is left as it is.
    func createFolder() throws(DraftError) {
        do {
            try AtomicFile.createFolders(folder)
        } catch {
            throw DraftError(message: "cannot create the drafts folder \(folder): \(error.message)")
        }
    }

    // MARK: - Removing

    /// Removes the draft of the document at `documentPath`; no draft is not an error.
    public func remove(for documentPath: String) throws(DraftError) {
        try remove(draftAt: draftPath(for: documentPath))
    }

    /// Removes the draft file at `draftPath`; no file is not an error.
    public func remove(draftAt draftPath: String) throws(DraftError) {
        // No such file, or no such folder (a path through a regular file): nothing to remove.
        if unlink(draftPath) != 0, errno != ENOENT, errno != ENOTDIR {
            throw DraftError.system("cannot remove the recovery draft \(draftPath)")
        }
    }

    /// Moves `draft` aside to a name no session writes to (`….kept-<UTC time>.draft`, in
    /// the same folder) so that it outlives this session's own draft ("keep both");
    /// returns the new path.
    public func keepAside(_ draft: Draft, now: Date = Date()) throws(DraftError) -> String {
        let name = PathName.name(of: draft.path)
        let kept = parent(of: draft.path) + "/" + DraftName.kept(name, at: now)
        if rename(draft.path, kept) != 0 {
            throw DraftError.system("cannot keep the recovery draft \(draft.path) as \(kept)")
        }
        return kept
    }

    // MARK: - Reading

    /// The draft at `draftPath`, nil when there is no such file. A damaged draft is read as
    /// plain text and says so in `damage`.
    public func read(draftAt draftPath: String) -> Draft? {
        guard let time = modificationTime(draftPath), let data = try? FileContents.read(draftPath)
        else { return nil }
        let contents = DraftFile.decode(data)
        return Draft(path: draftPath, originalPath: contents.header?.originalPath, modified: time.date,
                     written: contents.header?.written, writerPID: contents.header?.pid,
                     document: contents.document, damage: contents.damage,
                     cursor: contents.damage == nil ? contents.header?.cursor : nil, markup: contents.markup)
    }

    /// The draft of the document at `documentPath` when it is worth offering: it exists and
    /// is newer than the file (or the file does not exist), and it does not hold exactly
    /// what the file holds.
    public func newerDraft(for documentPath: String) -> Draft? {
        let absolute = absolutePath(documentPath)
        let draftPath = folder + "/" + DraftName.named(absolute)
        guard let draftTime = modificationTime(draftPath) else { return nil }
        let fileTime = modificationTime(absolute)
        if let fileTime, draftTime <= fileTime { return nil }
        guard var draft = read(draftAt: draftPath) else { return nil }
        // Another path with the same hash (never seen, but cheap to rule out).
        if let original = draft.originalPath, original != absolute { return nil }
        draft.originalPath = absolute
        if fileTime != nil, let markup = draft.markup, fileSize(absolute) == markup.count,
           let data = try? FileContents.read(absolute), data.elementsEqual(markup) {
            return nil
        }
        return draft
    }

    /// The newest unnamed draft left by a session that is no longer running (a running
    /// one's draft is still being written to) and modified at `since` or later, nil when
    /// there is none. Older ones stay on disk for `atpad drafts`, never offered again.
    public func newestUnnamedDraft(since: Date = .distantPast) -> Draft? {
        unnamedDrafts(since: since, limit: 1).first
    }

    /// The unnamed drafts left by sessions that are no longer running and modified at
    /// `since` or later, newest first (at most `limit`): what the message line counts
    /// when atpad starts without a FILE (docs/drafts.md).
    public func unnamedDrafts(since: Date = .distantPast, limit: Int = .max) -> [Draft] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let candidates = names.filter(DraftName.isUnnamed).compactMap { name -> (String, FileTime)? in
            let path = folder + "/" + name
            return modificationTime(path).flatMap { $0.date >= since ? (path, $0) : nil }
        }
        var found: [Draft] = []
        for (path, _) in candidates.sorted(by: { $0.1 > $1.1 }) where found.count < limit {
            guard let draft = read(draftAt: path), draft.originalPath == nil else { continue }
            if let pid = draft.writerPID, pid != getpid(), DraftStore.isRunning(pid) { continue }
            found.append(draft)
        }
        return found
    }

    // MARK: - The file system

    /// A modification time to the nanosecond, so a draft written within the same second as
    /// a save is still ordered right.
    struct FileTime: Comparable {
        var seconds: Int
        var nanoseconds: Int

        static func < (a: FileTime, b: FileTime) -> Bool {
            (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
        }

        var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9) }
    }

    func modificationTime(_ path: String) -> FileTime? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileTime(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    private func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    private func parent(of path: String) -> String {
        let dir = PathName.folder(of: path)
        return dir.isEmpty ? "." : dir
    }

    /// Whether process `pid` exists (one of another user counts: it may be a session run
    /// with sudo). A reused pid can make a stale draft look live; it is then offered once
    /// that process ends.
    static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

