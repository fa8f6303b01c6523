import AtpadCore
import AtpadDirectory
import AtpadTerminal
import Foundation

/// One editing session in a terminal: the thin runtime around the app model. It reads
/// input, turns it into `AppEvent`s (mouse positions through the last frame's map), lets
/// `AppModel.update` decide, has the `EffectRunner` carry out the effects, and draws one
/// frame per batch of input.
///
/// The loop runs on the main thread and owns the terminal; directory queries run as tasks
/// and post their answers to a mailbox the loop drains between input batches.
final class EditSession {
    private var model: AppModel
    private let options: EditOptions
    private let terminal: any TerminalIO
    private let runner: EffectRunner
    private var frame: Frame?
    private var viewport = Viewport()
    /// The mouse button is down on the text (a drag extends the selection).
    private var dragging = false
    /// The theme resolved for the terminal's colours (worked out once, not per frame).
    private var styles: (colors: Int, byRole: [Role: Style])?
    /// How long the last frame's layout and drawing took (for the trace).
    private var lastLayout = Duration.zero
    private var lastBackend = Duration.zero

    /// With `ATPAD_TRACE_FILE` set, the time from input to drawn frame, per batch.
    private let trace = getenv("ATPAD_TRACE_FILE").map { FrameTrace(path: String(cString: $0)) }

    init(_ options: EditOptions, terminal: any TerminalIO = TerminalBackend()) {
        self.options = options
        self.terminal = terminal
        let document = AppModel.Document(path: options.path, format: options.format,
                                         formatIsFixed: options.formatIsFixed, lookup: options.lookup,
                                         isReadOnly: options.isReadOnly,
                                         untitledName: options.fromStandardInput ? "[stdin]" : nil,
                                         formatRule: options.formatRule)
        model = AppModel(editor: Editor(options.document, cursor: 0, config: options.config), document: document,
                         print: options.print, terminalClipboard: options.terminalClipboard)
        model.loadingDirectories = Set(options.loading.keys)
        // The echo first: a key's implicit search follows its frame (`.settle`).
        model.editor.defersImplicitSearch = true
        runner = EffectRunner(sources: options.sources, terminal: terminal, drafts: options.drafts,
                              frecency: options.frecency)
        if let path = options.path { runner.opened(path, state: options.disk) }
    }

    /// Runs until the person quits; returns the exit status (SPEC §8). The comment to
    /// print with `--print` is returned too, so it is written after the screen is gone.
    func run() -> (status: Int32, printed: [UInt8]?) {
        do {
            try terminal.start(ttyPath: nil)
        } catch {
            FileHandle.standardError.write(Data("atpad: \(error)\n".utf8))
            return (2, nil)
        }
        defer {
            runner.queries.cancelAll()
            terminal.stop()
        }
        let (rows, columns) = terminal.size()
        _ = model.update(.resize(rows: rows, columns: columns))
        if !options.warnings.isEmpty { model.message = options.warnings.joined(separator: "; ") }
        let offered = offeredDraft()
        runner.run(model.start(offering: offered), on: &model)
        draw()
        while runner.exit == nil {
            let waiting = runner.queries.isBusy || !model.loadingDirectories.isEmpty
            let wake = runner.queries.mailbox.wakeDescriptor
            let idle = waiting ? 50 : 250
            let timeout = runner.drafts?.pollTimeout(now: .now, otherwise: idle) ?? idle
            let events = terminal.readEvents(timeoutMilliseconds: timeout, wakeDescriptor: wake >= 0 ? wake : nil)
            let started = ContinuousClock.now
            if let signal = terminal.takeSignal() {
                // SIGHUP, SIGTERM (and the others): the draft keeps what was typed.
                runner.run(model.update(.signal(signal)), on: &model)
                break
            }
            for (n, event) in events.enumerated() {
                // Every key of a burst but the last has its in-memory answers at once (the
                // next key must find them, SPEC §3); the last one's wait for its echo.
                let last = n == events.count - 1
                for appEvent in appEvents(for: event) {
                    // The key before this one in a burst had its implicit search deferred:
                    // it follows now, answered at once, as in `replay`.
                    if model.editor.implicitSearchPending { runner.run(model.update(.settle), on: &model) }
                    runner.run(model.update(appEvent), on: &model, deferringInstantAnswers: last)
                    if runner.exit != nil { break }
                }
                if runner.exit != nil { break }
            }
            if runner.exit != nil { break }
            // Draw what the keys did before starting the queries they asked for, so the
            // echo never waits for a search to be set up.
            if !events.isEmpty {
                draw()
                trace?.record(events: events.count, since: started, layout: lastLayout, backend: lastBackend,
                              wake: terminalWake)
            }
            // Then what the last key deferred, and the answers an in-memory directory has
            // at once, before the next key.
            let settled = model.update(.settle)
            runner.run(settled, on: &model)
            let answeredAtOnce = runner.answerDeferred(on: &model) || !settled.isEmpty
            runner.startQueries()
            let answered = runner.deliverAnswers(to: &model) || answeredAtOnce
            runner.startQueries()
            if answered, let notes = options.sourceNotes?.take(), !notes.isEmpty {
                model.message = notes.joined(separator: "; ")
            }
            let loaded = noteFinishedLoads()
            // Only answers and finished loads change the screen now: a quiet wake-up
            // (the poll timing out) draws nothing.
            if answered || loaded { draw() }
            // The draft is handed to its writer after the frame, never before it.
            runner.drafts?.tick(now: .now) { DraftSnapshot(model.editor) }
            if let warning = runner.drafts?.takeWarning() {
                model.message = warning
                draw()
            }
        }
        let exit = runner.exit ?? (1, nil)
        return (exit.status, exit.status == 0 ? exit.output : nil)
    }

    /// The draft to ask about at start: for a FILE, its draft when newer than the file;
    /// with no FILE at all, the newest unnamed draft of the last 24 hours whose atpad has
    /// gone (`atpad -` brings its own text, so it is offered none).
    private func offeredDraft() -> Draft? {
        guard let drafts = options.drafts else { return nil }
        if let path = options.path { return drafts.newerDraft(for: path) }
        if options.fromStandardInput { return nil }
        return drafts.newestUnnamedDraft(since: Date().addingTimeInterval(-24 * 60 * 60))
    }

    private var terminalWake: ContinuousClock.Instant {
        (terminal as? TerminalBackend)?.lastWake ?? .now
    }

    /// The directories that finished loading, as events; returns whether any did.
    private func noteFinishedLoads() -> Bool {
        var changed = false
        for trigger in model.loadingDirectories {
            guard let directory = options.loading[trigger], !directory.isLoading else { continue }
            runner.run(model.update(.directoryLoaded(trigger: trigger, failure: directory.failure)), on: &model)
            changed = true
        }
        return changed
    }

    /// What one input event means to the model: mouse positions are looked up in the last
    /// frame (the model knows no screen).
    private func appEvents(for event: InputEvent) -> [AppEvent] {
        switch event {
        case .endOfInput:
            return [.endOfInput]
        case .resize:
            let (rows, columns) = terminal.size()
            return [.resize(rows: rows, columns: columns)]
        case let .key(key):
            return [.key(key)]
        case let .mouse(mouse):
            guard let frame, model.mode == .editing else { return [] }
            switch mouse.kind {
            case .press:
                if let item = frame.map.chooserItem(atRow: mouse.row, column: mouse.column) { return [.pickRow(item)] }
                guard let position = frame.map.position(atRow: mouse.row, column: mouse.column) else { return [] }
                dragging = true
                return [.click(position: position, extend: false)]
            case .drag:
                guard dragging, let position = frame.map.position(atRow: mouse.row, column: mouse.column) else { return [] }
                return [.click(position: position, extend: true)]
            case .release:
                dragging = false
                return []
            case .wheelUp, .wheelDown:
                return [.wheel(up: mouse.kind == .wheelUp)]
            }
        }
    }

    // MARK: - Drawing

    private func draw() {
        let (rows, columns) = terminal.size()
        let layoutStart = ContinuousClock.now
        // The last frame is handed over (not copied): the next one reuses its screen.
        let next = FrameLayout.frame(for: model.editor, view: model.view(viewport: viewport), width: columns,
                                     height: rows, after: &frame)
        lastLayout = ContinuousClock.now - layoutStart
        viewport = next.viewport
        frame = next
        let colors = options.noColor || !terminal.hasColors ? 0 : terminal.colorCount
        if styles?.colors != colors {
            styles = (colors, options.theme.styles(colors: colors))
        }
        let drawStart = ContinuousClock.now
        terminal.draw(next.screen, damage: next.damage, styles: styles!.byRole, colors: colors > 0)
        lastBackend = ContinuousClock.now - drawStart
    }
}
