import AtpadCore
import AtpadDirectory
import AtpadSystem
import AtpadTerminal
import FoundationEssentials
import Glibc

/// The runtime of the app model (Bubble Tea's): it runs the effects `AppModel.update`
/// returns — queries, saves, drafts, frecency, the terminal's clipboard, quitting — and
/// feeds their results back through `update` as events. The editor's loop and
/// `atpad replay` share it (replay with no terminal, drafts, frecency or file writes).
///
/// When work happens is decided here and nowhere else (the model and the core keep no
/// schedule). A query is queued, not run, by the event that asks for it; `runPending`
/// answers the queued queries of in-memory directories and starts the others as tasks.
/// The editor calls it after drawing, so a key's echo never waits for a search, and
/// `handle` calls the in-memory half before every event, so each key of a burst finds the
/// answers to the keys before it and the burst ends where `atpad replay` ends
/// (docs/behaviour.md, "Typing speed").
final class EffectRunner {
    /// Where work on other threads leaves its results; posting wakes the loop.
    let mailbox = Mailbox()
    let queries: QueryRunner
    /// The sources that answer at once, by trigger: cast once here, not per query (a cast
    /// to a protocol is a slow lookup, and each keystroke of a search asks).
    private let instantSources: [Unicode.Scalar: any InstantSource]
    private let terminal: (any TerminalIO)?
    private let draftStore: DraftStore?
    private let frecency: FrecencyRecord?
    /// Notes the sources make while answering, for the message line.
    private let sourceNotes: SourceNotes?
    private let writesFiles: Bool
    /// Writes the recovery draft off the input path (nil: drafts off, or not started).
    private(set) var drafts: DraftWriter?
    /// Queries asked for and not yet answered or started (see `runPending`).
    private var queued: [(id: Int, trigger: Unicode.Scalar, query: String)] = []
    /// Set by a `.quit` effect: the session is over.
    private(set) var exit: (status: Int32, output: [UInt8]?)?
    /// The edited file as atpad last read or wrote it, to notice changes by other programs.
    private var disk: (path: String, state: DiskState?)?
    /// What a post needs from the process (`--to`; nil: this session posts nothing).
    private let posting: PostingContext?
    /// A line for stderr once the screen is gone (set by `.noteOnExit`).
    private(set) var exitNote: String?
    /// Checks spelling in the background (nil: spelling is off).
    private let spelling: SpellChecker?
    /// Whether an edited text waits for a pause in typing before it is checked (the
    /// editor); `atpad replay` checks each key's text at once, and waits for it.
    private let spellingWaitsForPause: Bool
    /// The version of the text last handed to `spelling`.
    private var spellingAsked: Int?
    /// The version of the text whose whole check the model last took.
    private var spellingTaken: Int?
    /// The document positions the last frame showed: a check looks at them (and at the
    /// words edited since the last check) first.
    var visibleText: Range<Int>?
    /// A long document's changed text is checked once typing pauses: the version last
    /// seen changed, and when its check may start.
    private var spellingPause: (version: Int, until: ContinuousClock.Instant)?
    /// An edited text is checked once the keys have paused this long, or the long pause
    /// after a check that took longer than `spellingPauseAfter` (docs/spelling.md, "In the
    /// editor"): a check started at every key took the second core from the keys' echo,
    /// on a long document and, by a little, on an empty one (BENCHMARKS.md, "Spelling").
    static let spellingPauseAfter = Duration.milliseconds(20)
    static let spellingPauseShort = Duration.milliseconds(100)
    static let spellingPauseLength = Duration.milliseconds(250)

    init(sources: [Unicode.Scalar: any EntitySource], terminal: (any TerminalIO)? = nil,
         drafts: DraftStore? = nil, frecency: FrecencyRecord? = nil, sourceNotes: SourceNotes? = nil,
         writesFiles: Bool = true, posting: PostingContext? = nil, spelling: SpellChecker.Settings? = nil,
         spellingWaitsForPause: Bool = true) {
        self.posting = posting
        self.spellingWaitsForPause = spellingWaitsForPause
        let mailbox = mailbox
        self.spelling = spelling.map { SpellChecker($0, mailbox: mailbox) }
        queries = QueryRunner(sources: sources, mailbox: mailbox)
        instantSources = sources.compactMapValues { $0 as? any InstantSource }
        self.terminal = terminal
        draftStore = drafts
        self.frecency = frecency
        self.sourceNotes = sourceNotes
        self.writesFiles = writesFiles
    }

    /// Records what the file at `path` held when it was opened (nil state: it did not exist).
    func opened(_ path: String, state: DiskState?) {
        disk = (path, state)
    }

    /// Posts `.directoryLoaded` to the mailbox when each directory of `loading` is ready
    /// (or failed), which wakes the loop.
    ///
    /// Its people's names become known words for spelling (the emoji directory's `:`
    /// names are not people's), and the text is checked again once the event is taken.
    func watch(_ loading: [Unicode.Scalar: LoadingDirectory]) {
        for (trigger, directory) in loading {
            let mailbox = mailbox
            let spelling = trigger == ":" ? nil : spelling
            Task.detached(priority: .userInitiated) {
                await directory.waitUntilLoaded()
                if let spelling, let people = directory.loadedEntities { spelling.know(people) }
                mailbox.post(.directoryLoaded(trigger: trigger, failure: directory.failure))
            }
        }
    }

    /// Posts `.participantsFetched` to the mailbox when the conversation's participants
    /// have arrived (or could not be had), which wakes the loop.
    func watch(_ people: ConversationPeople, trigger: Unicode.Scalar) {
        let mailbox = mailbox
        Task.detached(priority: .userInitiated) {
            await people.waitUntilFetched()
            var failure: String?
            if case let .failed(message) = people.current { failure = message }
            mailbox.post(.participantsFetched(trigger: trigger, failure: failure))
        }
    }

    // MARK: - The order of work

    /// Takes one event through the model and runs what it asks for. In-memory answers
    /// still queued are taken in first: an event must find the answers to the keys before it.
    func handle(_ event: AppEvent, on model: inout AppModel) {
        answerInstantQueries(on: &model)
        run(model.update(event), on: &model)
    }

    /// Runs `effects` in order; an effect's result goes back through `model.update`, and
    /// the effects that returns run in turn. Queries are queued for `runPending`.
    func run(_ effects: [AppEffect], on model: inout AppModel) {
        var queue = effects[...]
        while let effect = queue.popFirst() {
            if let event = perform(effect, model: model) { queue += model.update(event) }
        }
    }

    /// The work that follows a frame: answers the queued queries an in-memory directory
    /// answers at once, starts the others as tasks, and takes in what other threads left
    /// in the mailbox (answers, finished loads) and the notes and draft failures for the
    /// message line. Returns whether the model took anything in (the screen may change).
    @discardableResult
    func runPending(on model: inout AppModel) -> Bool {
        checkSpelling(model)
        let changed = answerInstantQueries(on: &model)
        startQueries()
        var events = mailbox.takeAll()
        if changed || !events.isEmpty, let notes = sourceNotes?.take(), !notes.isEmpty {
            events.append(.notice(notes.joined(separator: "; ")))
        }
        if let warning = drafts?.takeWarning() { events.append(.notice(warning)) }
        guard !events.isEmpty else { return changed }
        var namesKnown = false
        for event in events {
            if case let .completion(.ended(id)) = event { queries.ended(id: id) }
            if case let .spellingChecked(version, _, nil) = event { spellingTaken = version }
            if case .directoryLoaded(trigger: let trigger, failure: nil) = event, trigger != ":" { namesKnown = true }
            handle(event, on: &model)
        }
        // The answers may have sent queries that waited for them.
        answerInstantQueries(on: &model)
        startQueries()
        if namesKnown {
            // A directory's names are known words now: the text is checked again at once.
            spellingAsked = nil
            checkSpelling(model)
        }
        return true
    }

    /// Runs pending work until every query has ended: `atpad replay` has each key's
    /// answers in full before the next key.
    func runUntilIdle(on model: inout AppModel) {
        while true {
            if runPending(on: &model) { continue }
            // Until the whole check of the text last asked for has been taken in.
            let spellingBusy = spelling != nil && spellingAsked != nil && spellingTaken != spellingAsked
            guard queries.isBusy || spellingBusy else { return }
            mailbox.wake.wait(milliseconds: 1000)
        }
    }

    /// Hands the text to the spelling checker when it changed since it last was (and the
    /// first time): called after a frame is drawn, so neither the first frame nor a key's
    /// echo waits for it.
    func checkSpelling(_ model: AppModel, now: ContinuousClock.Instant = .now) {
        let version = model.editor.version
        guard let spelling, spellingAsked != version else {
            spellingPause = nil
            return
        }
        if spellingAsked != nil, spellingWaitsForPause {
            // An edit: wait until the keys have paused (longer on a long document).
            if spellingPause?.version != version {
                spelling.textEdited()
                let long = spelling.lastCheckDuration > Self.spellingPauseAfter
                spellingPause = (version, now + (long ? Self.spellingPauseLength : Self.spellingPauseShort))
                return
            }
            if let pause = spellingPause, now < pause.until { return }
        }
        spellingPause = nil
        spellingAsked = version
        spelling.check(SpellChecker.Request(storage: model.editor.storage, version: model.editor.version,
                                            format: model.document.format, git: model.editor.config.git,
                                            regions: visibleText.flatMap { model.editor.spellingRegions(visible: $0) }))
    }

    /// How long the loop may sleep before a paused check is due (`otherwise` when none is).
    func spellingTimeout(now: ContinuousClock.Instant, otherwise: Int) -> Int {
        guard let pause = spellingPause else { return otherwise }
        let left = now.duration(to: pause.until)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let millis = Int(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return otherwise < 0 ? millis : min(otherwise, millis)
    }

    /// Answers the queued queries whose source is in memory (and any their answers ask
    /// for); returns whether there were any. A directory still loading has no answer yet:
    /// its query stays queued for `startQueries`.
    @discardableResult
    private func answerInstantQueries(on model: inout AppModel) -> Bool {
        guard !queued.isEmpty else { return false }
        var answered = false
        var unanswerable: Set<Int> = []
        while let q = queued.first(where: { instantSources[$0.trigger] != nil && !unanswerable.contains($0.id) }) {
            guard let answer = instantSources[q.trigger]?.answerNow(q.query) else {
                unanswerable.insert(q.id)
                continue
            }
            queued.removeAll { $0.id == q.id }
            answered = true
            run(model.update(.completion(.batch(queryID: q.id, answer, isFinal: true))), on: &model)
            run(model.update(.completion(.ended(queryID: q.id))), on: &model)
        }
        return answered
    }

    /// Starts the queued queries as tasks; their answers come through the mailbox.
    private func startQueries() {
        guard !queued.isEmpty else { return }
        let starting = queued
        queued.removeAll()
        for q in starting { queries.start(id: q.id, trigger: q.trigger, query: q.query) }
    }

    // MARK: - Effects

    private func perform(_ effect: AppEffect, model: AppModel) -> AppEvent? {
        switch effect {
        case let .core(core):
            return perform(core)
        case let .save(request):
            return save(request, model: model)
        case let .quit(status, output):
            exit = (status, output)
        case .suspend:
            terminal?.suspend()
        case let .setClipboard(text):
            terminal?.setClipboard(text)
        case .reload:
            return reload(model)
        case let .completePath(typed):
            return .pathCompletions(typed: typed, candidates: PathCompletion.candidates(for: typed, home: model.home))
        case let .startDrafts(path):
            drafts?.discard()
            let wake = mailbox.wake
            drafts = draftStore.map { DraftWriter(store: $0, documentPath: path, onWarning: { wake.wake() }) }
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
        case let .post(target, document):
            return post(document, to: target, lookup: model.document.lookup, from: model.document.format)
        case let .noteOnExit(text):
            exitNote = text
        }
        return nil
    }

    private func perform(_ effect: Effect) -> AppEvent? {
        switch effect {
        case let .query(id, trigger, query):
            queued.append((id, trigger, query))
        case let .cancel(id):
            guard let i = queued.firstIndex(where: { $0.id == id }) else {
                queries.cancel(id: id)  // its task posts `.ended`
                return nil
            }
            // Never answered or started: it ends here.
            queued.remove(at: i)
            return .completion(.ended(queryID: id))
        case let .picked(entity, trigger):
            frecency?.recordPick(of: entity.id, trigger: trigger)
        case .documentChanged:
            drafts?.documentChanged(now: .now)
        case let .suggest(id, word):
            // As many as `atpad check` prints: with the Add and Ignore rows, they fit the chooser.
            let suggestions = (spelling?.suggestions(for: word) ?? []).prefix(CheckCommand.suggestionLimit)
            return .completion(.batch(queryID: id, suggestions.map { Candidate(entity: Entity(id: $0, name: $0)) },
                                      isFinal: true))
        case let .addWord(word):
            spelling?.add(word)
        default:
            break  // a copy reaches the terminal as `.setClipboard`, through the model
        }
        return nil
    }

    /// Writes a file, first asking (through the model) before replacing another existing
    /// file or one another program changed (docs/editor.md). Atomically when a temporary file can
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
        // Never replace a device, FIFO or socket, even one put where the file was (docs/editor.md):
        // said here, before any question; `AtomicFile` refuses one that appears meanwhile.
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
        // The temporary file goes beside the file written: through a symlink, its target's.
        let folder = PathName.folder(of: (try? AtomicFile.resolvingSymlinks(path)) ?? path)
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

    /// Starts a post on a thread of its own (it may wait for seconds on the network or on
    /// `gh`); its outcome comes back through the mailbox as `.postFinished`. A request
    /// that cannot be made (a variable unset since the start) ends it at once.
    private func post(_ document: MarkedText, to target: PostTarget, lookup: EntityLookup, from format: DocumentFormat) -> AppEvent? {
        guard let posting else { return .postFinished(.failed("Not posted to \(target): this session posts nothing")) }
        let request: PostRequest
        do {
            request = try PostPreparation.request(target, document: document, lookup: lookup, from: format,
                                                 environment: posting.environment)
        } catch {
            return .postFinished(.failed("Not posted to \(target): \(error)"))
        }
        let mailbox = mailbox
        BackgroundThread.start(name: "atpad post") {
            let reply = PostTransport.perform(request, timeout: posting.timeout, environment: posting.environment)
            mailbox.post(.postFinished(request.outcome(of: reply)))
        }
        return nil
    }

    /// Reads the edited file again, in its format.
    private func reload(_ model: AppModel) -> AppEvent {
        guard let path = model.document.path else { return .notice("No file to reload") }
        do {
            // A file that is gone is not an empty one: the text stays as it is.
            guard let bytes = try DocumentFile.readBytes(path, regularOnly: true) else {
                return .notice("Not reloaded: \(AppModel.fileName(path)) was deleted (Ctrl-S saves it again)")
            }
            let decoded = try model.document.format.decode(bytes: bytes, lookup: model.document.lookup,
                                                           git: model.editor.config.git)
            disk = (path, DiskState.of(path, bytes: bytes))
            return .reloaded(decoded.document, ending: decoded.ending)
        } catch {
            return .notice("Not reloaded: \(error)")
        }
    }
}

/// Tab completion of file names for `Save as:`.
enum PathCompletion {
    /// The paths that start with `typed`, sorted; a folder ends in `/`. Hidden files only
    /// when the typed name starts with a dot.
    static func candidates(for typed: String, home: String?) -> [String] {
        let expanded = PathName.expandingTilde(typed, home: home)
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
                var isFolder = false
                let path = folderPart + name
                _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
                return isFolder ? path + "/" : path
            }
    }
}
