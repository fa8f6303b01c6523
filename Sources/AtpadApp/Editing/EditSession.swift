import AtpadCore
import AtpadDirectory
import AtpadTerminal
import Foundation

/// Everything the editor needs from the command line, as plain values.
struct EditOptions: Sendable {
    var path: String?
    var document: MarkedText
    /// The file's format, to save it (and to print it with `--print`).
    var format: DocumentFormat = .atpad
    /// The directory as the format sees it (handles and urls by id), when it needs one.
    var lookup: EntityLookup = .empty
    var sources: [Unicode.Scalar: any EntitySource]
    /// Directories still loading on their own threads, by trigger.
    var loading: [Unicode.Scalar: LoadingDirectory] = [:]
    /// Notes about the directories for the message line.
    var warnings: [String] = []
    var config: EditorConfig
    var theme: Theme
    var noColor: Bool
    var print: Bool
    /// Where recovery drafts go (nil: no home folder, no drafts).
    var drafts: DraftStore? = nil
    /// The frecency file, updated on each pick (nil: none kept).
    var frecency: FrecencyRecord? = nil
}

/// One editing session in the terminal: the loop that reads input, lets the core decide,
/// runs its effects, saves, asks before quitting, and draws one frame per batch of input.
///
/// The loop runs on the main thread and owns ncurses; directory queries run as tasks and
/// post their answers to a mailbox the loop drains between input batches.
final class EditSession {
    private var options: EditOptions
    private var editor: Editor
    private var view: EditorView
    private let backend = TerminalBackend()
    private let runner: QueryRunner
    private var frame: Frame?
    /// Ctrl-Q on a modified document is asking "save changes?".
    private var confirmingQuit = false
    /// A newer recovery draft of the file was found and the person is asked what to do.
    private var offeredDraft: Draft?
    /// Writes the recovery draft off the input path (nil: drafts are off).
    private var drafts: DraftWriter?
    /// A save succeeded during this session (the exit status is 0 then).
    private var savedOnce = false
    /// The mouse button is down on the text (a drag extends the selection).
    private var dragging = false
    /// The theme resolved for the terminal's colours (worked out once, not per frame).
    private var styles: (colors: Int, byRole: [Role: Style])?
    /// How long the last frame's layout took (for the trace).
    private var lastLayout = Duration.zero
    /// How long the last frame took to hand to the terminal (for the trace).
    private var lastBackend = Duration.zero

    /// With `ATPAD_TRACE_FILE` set, the time from input to drawn frame, per batch.
    private let trace = ProcessInfo.processInfo.environment["ATPAD_TRACE_FILE"].map(FrameTrace.init)

    init(_ options: EditOptions) {
        self.options = options
        editor = Editor(options.document, cursor: 0, config: options.config)
        view = EditorView(fileName: options.path.map { ($0 as NSString).lastPathComponent }, isModified: false,
                          message: "", viewport: Viewport())
        runner = QueryRunner(sources: options.sources)
    }

    /// Runs until the person quits; returns the exit status (SPEC §8). The comment to
    /// print with `--print` is returned too, so it is written after the screen is gone.
    func run() -> (status: Int32, printed: String?) {
        do {
            try backend.start(ttyPath: nil)
        } catch {
            FileHandle.standardError.write(Data("atpad: \(error)\n".utf8))
            return (2, nil)
        }
        defer {
            runner.cancelAll()
            backend.stop()
        }
        resize()
        if !options.warnings.isEmpty { view.message = options.warnings.joined(separator: "; ") }
        view.loadingDirectories = Set(options.loading.keys)
        startDrafts()
        draw()
        while true {
            let waiting = runner.isBusy || !view.loadingDirectories.isEmpty
            let wake = runner.mailbox.wakeDescriptor
            let timeout = drafts?.pollTimeout(now: .now, otherwise: waiting ? 50 : 250) ?? (waiting ? 50 : 250)
            let events = backend.readEvents(timeoutMilliseconds: timeout, wakeDescriptor: wake >= 0 ? wake : nil)
            let started = ContinuousClock.now
            if let signal = backend.takeSignal() {
                // SIGHUP, SIGTERM (and the others): the draft keeps what was typed.
                drafts?.flushNow { editor.storage }
                options.frecency?.finishSaving()
                return (128 + signal, nil)
            }
            for event in events {
                if let status = handle(event) {
                    return (status, status == 0 && options.print ? output() : nil)
                }
            }
            // Draw what the keys did before starting the queries they asked for, so the
            // echo never waits for a search to be set up.
            let drawn = !events.isEmpty
            if drawn {
                draw()
                trace?.record(events: events.count, since: started, layout: lastLayout, backend: lastBackend, wake: backend.lastWake)
            }
            startQueries()
            let answers = runner.mailbox.takeAll()
            for event in answers {
                if case let .ended(id) = event { runner.ended(id: id) }
                perform(editor.receive(event))
            }
            startQueries()
            let loadingChanged = noteFinishedLoads()
            // Only answers and finished loads change the screen now: a quiet wake-up
            // (the poll timing out) draws nothing.
            if !answers.isEmpty || loadingChanged { draw() }
            // The draft is handed to its writer after the frame, never before it.
            drafts?.tick(now: .now) { editor.storage }
            if let warning = drafts?.takeWarning() {
                view.message = warning
                draw()
            }
        }
    }

    /// Takes the directories that finished loading off the "loading directory…" list; a
    /// load that failed is reported on the message line. Returns whether anything changed.
    private func noteFinishedLoads() -> Bool {
        guard !view.loadingDirectories.isEmpty else { return false }
        var changed = false
        for trigger in view.loadingDirectories {
            guard let directory = options.loading[trigger], !directory.isLoading else { continue }
            view.loadingDirectories.remove(trigger)
            if let failure = directory.failure { view.message = "Directory for \(Character(trigger)) not loaded: \(failure)" }
            changed = true
        }
        return changed
    }

    // MARK: - Drafts

    /// Sets up the draft writer, first asking about a draft newer than the file (SPEC §7).
    private func startDrafts() {
        guard let store = options.drafts else { return }
        if let path = options.path, let draft = store.newerDraft(for: path) {
            offeredDraft = draft
            view.message = "Recover unsaved draft? (r)ecover (d)iscard (k)eep both"
            return
        }
        drafts = DraftWriter(store: store, documentPath: options.path)
    }

    /// r, d or k to the draft offer; other keys are ignored until one of them is pressed.
    private func answerDraftOffer(_ key: Key) {
        guard let draft = offeredDraft, let store = options.drafts else { return }
        switch key {
        case .char("r"), .char("R"):
            // The draft's text becomes the document, as an unsaved change to the file.
            editor.replaceDocument(with: draft.document)
            view.isModified = editor.isModified
            view.message = draft.damage.map { "Draft recovered as plain text: \($0)" } ?? "Draft recovered; Ctrl-S saves it"
        case .char("d"), .char("D"):
            try? store.remove(draftAt: draft.path)
            view.message = "Draft discarded"
        case .char("k"), .char("K"):
            if let kept = try? store.keepAside(draft) {
                view.message = "Draft kept as \(kept)"
            } else {
                view.message = "Could not keep the draft aside; it stays at \(draft.path)"
            }
        default:
            return
        }
        offeredDraft = nil
        drafts = DraftWriter(store: store, documentPath: options.path)
        if editor.isModified { drafts?.documentChanged(now: .now) }
    }

    // MARK: - Input

    /// Handles one input event; returns an exit status when the session ends.
    private func handle(_ event: InputEvent) -> Int32? {
        switch event {
        case .endOfInput:
            // The terminal went away: keep what was typed in the draft.
            if editor.isModified { drafts?.flushNow { editor.storage } }
            return savedOnce && !editor.isModified ? 0 : 1
        case .resize:
            resize()
        case let .mouse(mouse):
            handle(mouse)
        case let .key(key):
            return handle(key)
        }
        return nil
    }

    private func handle(_ key: Key) -> Int32? {
        if view.overlay != nil {
            view.overlay = nil  // any key closes the key list
            return nil
        }
        if offeredDraft != nil {
            answerDraftOffer(key)
            return nil
        }
        if confirmingQuit {
            switch key {
            case .char("y"), .char("Y"):
                confirmingQuit = false
                return save() ? 0 : nil
            case .char("n"), .char("N"):
                drafts?.discard()  // quitting on purpose: the changes are given up
                return savedOnce && options.path != nil ? 0 : 1
            case .escape, .ctrl("c"), .ctrl("g"):
                confirmingQuit = false
                view.message = ""
            default:
                break
            }
            return nil
        }
        switch key {
        case .ctrl("s"):
            if save(), options.print, options.path == nil { return 0 }
        case .ctrl("q"):
            if editor.isModified {
                confirmingQuit = true
                view.message = "Save changes before quitting? (y)es (n)o (Esc) cancel"
            } else {
                drafts?.discard()
                return savedOnce ? 0 : 1
            }
        case .f1:
            view.overlay = .help
        default:
            view.message = ""
            perform(editor.handle(key))
        }
        return nil
    }

    private func handle(_ mouse: MouseEvent) {
        guard let frame, view.overlay == nil, !confirmingQuit else { return }
        switch mouse.kind {
        case .press:
            if let item = frame.map.chooserItem(atRow: mouse.row, column: mouse.column) {
                perform(editor.pickResult(item))
            } else if let position = frame.map.position(atRow: mouse.row, column: mouse.column) {
                dragging = true
                perform(editor.click(at: position))
            }
        case .drag:
            if dragging, let position = frame.map.position(atRow: mouse.row, column: mouse.column) {
                perform(editor.click(at: position, extend: true))
            }
        case .release:
            dragging = false
        case .wheelUp, .wheelDown:
            let key: Key = mouse.kind == .wheelUp ? .up : .down
            for _ in 0..<3 { perform(editor.handle(key)) }
        }
    }

    // MARK: - Effects

    /// Queries asked for but not started yet (they start after the frame is drawn).
    private var queued: [(id: Int, trigger: Unicode.Scalar, query: String)] = []

    private func startQueries() {
        for q in queued { runner.start(id: q.id, trigger: q.trigger, query: q.query) }
        queued.removeAll()
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case let .query(id, trigger, query):
                queued.append((id, trigger, query))
            case let .cancel(id):
                if let i = queued.firstIndex(where: { $0.id == id }) {
                    queued.remove(at: i)
                    runner.mailbox.post(.ended(queryID: id))
                } else {
                    runner.cancel(id: id)
                }
            case let .picked(entity, trigger):
                options.frecency?.recordPick(of: entity.id, trigger: trigger)
            case .documentChanged:
                drafts?.documentChanged(now: .now)
            case .copied:
                break
            }
        }
        view.isModified = editor.isModified
    }

    // MARK: - Saving

    /// Saves atomically; on failure the reason goes to the message line and the document
    /// stays in the editor. With `--print` and no file, "saving" confirms the comment.
    @discardableResult
    private func save() -> Bool {
        guard let path = options.path else {
            if options.print {
                savedOnce = true
                drafts?.discard()
                return true
            }
            view.message = "No file to save to: start atpad with a FILE, or use --print"
            return false
        }
        do {
            try DocumentFile.writeAtomically(options.format.encode(editor.marked, lookup: options.lookup), to: path)
            editor.markSaved()
            savedOnce = true
            view.isModified = false
            drafts?.discard()
            let n = editor.storage.mentionCount
            view.message = "Saved \((path as NSString).lastPathComponent) (\(n) mention\(n == 1 ? "" : "s"))"
            return true
        } catch {
            view.message = "\(error)"
            return false
        }
    }

    /// The comment as `--print` writes it.
    private func output() -> String {
        options.format.encode(editor.marked, lookup: options.lookup)
    }

    // MARK: - Drawing

    private func resize() {
        let (rows, columns) = backend.size()
        let area = FrameLayout.textArea(width: columns, height: rows)
        editor.config.width = area.columns
        editor.config.pageRows = area.rows
    }

    private func draw() {
        let (rows, columns) = backend.size()
        let layoutStart = ContinuousClock.now
        // The last frame is handed over (not copied): the next one reuses its screen.
        let next = FrameLayout.frame(for: editor, view: view, width: columns, height: rows, after: &frame)
        lastLayout = ContinuousClock.now - layoutStart
        view.viewport = next.viewport
        frame = next
        let colors = options.noColor || !backend.hasColors ? 0 : backend.colorCount
        if styles?.colors != colors {
            styles = (colors, options.theme.styles(colors: colors))
        }
        let drawStart = ContinuousClock.now
        backend.draw(next.screen, damage: next.damage, styles: styles!.byRole, colors: colors > 0)
        lastBackend = ContinuousClock.now - drawStart
    }
}

/// Writes how long each input batch took to handle and draw (for profiling the echo path):
/// one line per batch, tab-separated: events, µs from the batch read to its frame drawn,
/// µs laying the frame out, µs drawing it, µs reading the batch (wake-up to events).
final class FrameTrace {
    private let handle: FileHandle?

    init(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)
    }

    func record(events: Int, since start: ContinuousClock.Instant, layout: Duration, backend: Duration, wake: ContinuousClock.Instant) {
        guard events > 0, let handle else { return }
        func micros(_ d: Duration) -> Int {
            Int(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
        }
        // Absolute CLOCK_MONOTONIC microseconds of the wake-up and of the frame drawn, to
        // line the trace up with a harness's own timestamps (Python's perf_counter).
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let drawnAt = Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
        let elapsed = micros(ContinuousClock.now - start)
        let wokeAt = drawnAt - elapsed - micros(start - wake)
        handle.write(Data("\(events)\t\(elapsed)\t\(micros(layout))\t\(micros(backend))\t\(micros(start - wake))\t\(wokeAt)\t\(drawnAt)\n".utf8))
    }
}
