import AtpadCore
import AtpadDirectory
import AtpadTerminal
import Foundation

/// Runs the effects the app model returns — queries, saves, drafts, frecency, the
/// terminal's clipboard, quitting — and feeds their results back to the model as events.
/// The editor's loop and `atpad replay` share it (replay with no terminal, drafts,
/// frecency or file writes).
final class EffectRunner {
    let queries: QueryRunner
    /// The sources that answer at once, by trigger: found with one cast each at start
    /// (a cast to a protocol per query cost about 3,500 instructions a keystroke).
    private let instantSources: [Unicode.Scalar: any InstantSource]
    private let terminal: (any TerminalIO)?
    private let draftStore: DraftStore?
    private let frecency: FrecencyRecord?
    private let writesFiles: Bool
    /// Writes the recovery draft off the input path (nil: drafts off, or not started).
    private(set) var drafts: DraftWriter?
    /// Queries asked for but not started yet (the loop starts them after drawing).
    private var queued: [(id: Int, trigger: Unicode.Scalar, query: String)] = []
    /// Queries an in-memory directory answers, held back by `run(_:on:deferringInstantAnswers:)`
    /// until `answerDeferred(on:)`: the key's echo is drawn first.
    private var deferred: [(id: Int, trigger: Unicode.Scalar, query: String)] = []
    /// Set by a `.quit` effect: the session is over.
    private(set) var exit: (status: Int32, output: [UInt8]?)?
    /// The edited file as atpad last read or wrote it, to notice changes by other programs.
    private var disk: (path: String, state: DiskState?)?

    init(sources: [Unicode.Scalar: any EntitySource], terminal: (any TerminalIO)? = nil,
         drafts: DraftStore? = nil, frecency: FrecencyRecord? = nil, writesFiles: Bool = true) {
        queries = QueryRunner(sources: sources)
        instantSources = sources.compactMapValues { $0 as? any InstantSource }
        self.terminal = terminal
        draftStore = drafts
        self.frecency = frecency
        self.writesFiles = writesFiles
    }

    /// Records what the file at `path` held when it was opened (nil state: it did not exist).
    func opened(_ path: String, state: DiskState?) {
        disk = (path, state)
    }

    /// Runs `effects` in order; an effect's result goes back through `model.update`, and
    /// the effects that returns run in turn. With `deferringInstantAnswers`, a query an
    /// in-memory directory would answer at once waits for `answerDeferred(on:)` (the
    /// editor draws the key first, then answers, before it takes the next key).
    func run(_ effects: [AppEffect], on model: inout AppModel, deferringInstantAnswers: Bool = false) {
        var queue = effects[...]
        while let effect = queue.popFirst() {
            if case let .core(.query(id, trigger, query)) = effect,
               let instant = instantSources[trigger] {
                if deferringInstantAnswers {
                    deferred.append((id, trigger, query))
                    continue
                }
                // An in-memory directory answers before the next key, as in `atpad replay`:
                // typing speed never changes the outcome (SPEC §3).
                if let answer = instant.answerNow(query) {
                    queue += model.update(.completion(.batch(queryID: id, answer, isFinal: true)))
                    queue += model.update(.completion(.ended(queryID: id)))
                    continue
                }
            }
            if let event = perform(effect, model: model) { queue += model.update(event) }
        }
    }

    /// Answers the queries `run` held back (a directory still loading gets the query the
    /// usual way); returns whether there were any.
    @discardableResult
    func answerDeferred(on model: inout AppModel) -> Bool {
        guard !deferred.isEmpty else { return false }
        let held = deferred
        deferred.removeAll()
        run(held.map { .core(.query(id: $0.id, trigger: $0.trigger, query: $0.query)) }, on: &model)
        return true
    }

    /// Starts the queries asked for since the last call.
    func startQueries() {
        for q in queued { queries.start(id: q.id, trigger: q.trigger, query: q.query) }
        queued.removeAll()
    }

    /// Feeds the answers that have arrived to the model; returns whether there were any.
    @discardableResult
    func deliverAnswers(to model: inout AppModel) -> Bool {
        let answers = queries.mailbox.takeAll()
        for answer in answers {
            if case let .ended(id) = answer { queries.ended(id: id) }
            run(model.update(.completion(answer)), on: &model)
        }
        return !answers.isEmpty
    }

    private func perform(_ effect: AppEffect, model: AppModel) -> AppEvent? {
        switch effect {
        case let .core(core):
            perform(core)
        case let .save(request):
            return save(request, model: model)
        case let .quit(status, output):
            exit = (status, output)
        case let .setClipboard(text):
            terminal?.setClipboard(text)
        case .reload:
            return reload(model)
        case let .completePath(typed):
            return .pathCompletions(typed: typed, candidates: PathCompletion.candidates(for: typed))
        case let .startDrafts(path):
            drafts?.discard()
            drafts = draftStore.map { DraftWriter(store: $0, documentPath: path) }
        case .discardDraft:
            drafts?.discard()
        case .flushDraft:
            drafts?.flushNow { DraftSnapshot(model.editor) }
        case let .removeDraft(draft):
            try? draftStore?.remove(draftAt: draft.path)
        case let .keepDraftAside(draft):
            guard let store = draftStore else { return nil }
            if let kept = try? store.keepAside(draft) { return .notice("Draft kept as \(kept)") }
            return .notice("Could not keep the draft aside; it stays at \(draft.path)")
        }
        return nil
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case let .query(id, trigger, query):
            queued.append((id, trigger, query))
        case let .cancel(id):
            if let i = deferred.firstIndex(where: { $0.id == id }) {
                // Held back and never answered: it ends at once.
                deferred.remove(at: i)
                queries.mailbox.post(.ended(queryID: id))
            } else if let i = queued.firstIndex(where: { $0.id == id }) {
                // Never started: it ends at once.
                queued.remove(at: i)
                queries.mailbox.post(.ended(queryID: id))
            } else {
                queries.cancel(id: id)
            }
        case let .picked(entity, trigger):
            frecency?.recordPick(of: entity.id, trigger: trigger)
        case .documentChanged:
            drafts?.documentChanged(now: .now)
        default:
            break  // a copy reaches the terminal as `.setClipboard`, through the model
        }
    }

    /// Writes a file, first asking (through the model) before replacing another existing
    /// file or one another program changed (SPEC §11). Atomically when a temporary file can
    /// be made beside it; in place, after writing the recovery draft, when only its folder
    /// is not writable; never over a file this person may not write.
    private func save(_ request: SaveRequest, model: AppModel) -> AppEvent {
        guard writesFiles else { return .saveFailed(request, message: "replay writes no files") }
        let path = request.path
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) == S_IFDIR {
            return .saveFailed(request, message: "\(path) is a folder: type a file name")
        }
        // Never replace a device, FIFO or socket, even one put where the file was (SPEC §11).
        if exists, let refusal = FileKind(mode: info.st_mode).refusal(path, doing: "replaces") {
            return .saveFailed(request, message: refusal + "; not saved")
        }
        if exists && request.confirmOverwrite { return .saveNeedsConfirmation(request) }
        if request.checkDisk, let disk, disk.path == path, DiskState.hasChanged(path, since: disk.state) {
            var asked = request
            // Read once and gone now: deleted (or moved) by another program.
            asked.fileIsGone = disk.state != nil && !exists
            // Asked once: from now on the file is known to be gone, and a later save writes
            // it again unless another program brings it back meanwhile.
            if asked.fileIsGone { self.disk = (path, nil) }
            return .changedOnDisk(asked)
        }
        if exists && access(path, W_OK) != 0 {
            return .saveFailed(request, message: "\(path) is read-only: save it under another name")
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if exists && access(folder.isEmpty ? "." : folder, W_OK) != 0 {
                // No temporary file can be made beside it: the whole comment goes to the
                // recovery draft first, so a crash during the write in place loses nothing.
                if let drafts, !drafts.flushNow({ DraftSnapshot(model.editor) }) {
                    return .saveFailed(request, message: "cannot save \(path) in place: the recovery draft could not be written first")
                }
                try DocumentFile.writeInPlace(bytes: request.contents, to: path)
            } else {
                try DocumentFile.writeAtomically(bytes: request.contents, to: path)
            }
        } catch {
            return .saveFailed(request, message: "\(error)")
        }
        disk = (path, DiskState.of(path, bytes: request.contents))
        return .saved(request)
    }

    /// Reads the edited file again, in its format.
    private func reload(_ model: AppModel) -> AppEvent {
        guard let path = model.document.path else { return .notice("No file to reload") }
        do {
            // A file that is gone is not an empty one: the text stays as it is.
            guard let bytes = try DocumentFile.readBytes(path, regularOnly: true) else {
                return .notice("Not reloaded: \(AppModel.fileName(path)) was deleted (Ctrl-S saves it again)")
            }
            let decoded = try model.document.format.decode(bytes: bytes, lookup: model.document.lookup)
            disk = (path, DiskState.of(path, bytes: bytes))
            return .reloaded(decoded.document)
        } catch {
            return .notice("Not reloaded: \(error)")
        }
    }
}

/// Tab completion of file names for `Save as:`.
enum PathCompletion {
    /// The paths that start with `typed`, sorted; a folder ends in `/`. Hidden files only
    /// when the typed name starts with a dot.
    static func candidates(for typed: String) -> [String] {
        let expanded = AppModel.expandingHome(typed)
        let folderPart: String
        let namePart: String
        if let slash = expanded.lastIndex(of: "/") {
            folderPart = String(expanded[...slash])
            namePart = String(expanded[expanded.index(after: slash)...])
        } else {
            folderPart = ""
            namePart = expanded
        }
        let folder = folderPart.isEmpty ? "." : folderPart
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name in
                var isFolder: ObjCBool = false
                let path = folderPart + name
                _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                return isFolder.boolValue ? path + "/" : path
            }
    }
}
