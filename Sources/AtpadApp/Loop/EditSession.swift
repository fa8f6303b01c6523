import AtpadCore
import AtpadDirectory
import AtpadSystem
import AtpadTerminal
import FoundationEssentials

/// One editing session in a terminal: the thin runtime around the app model. It reads
/// input, turns it into `AppEvent`s (mouse positions through the last frame's map), has
/// the `EffectRunner` take each through `AppModel.update` and run what it returns, and
/// draws one frame per batch of input.
///
/// The loop runs on the main thread and owns the terminal. It sleeps until input, a wake
/// from the mailbox's pipe (an answer, a finished directory load, a draft failure, an exit
/// signal) or the draft's deadline. Each turn: the events → the frame → the work that
/// waits for the frame (`EffectRunner.runPending`) → the frame again if that changed
/// anything → the draft handed to its writer.
final class EditSession {
    private(set) var model: AppModel
    private let options: EditOptions
    private let terminal: any TerminalIO
    private let runner: EffectRunner
    private var frame: Frame?
    private var viewport = Viewport()
    /// The mouse button is down on the text (a drag extends the selection).
    private var dragging = false
    /// The theme resolved for the terminal's colours (worked out once, not per frame).
    private var styles: (colors: Int, byRole: [Role: Style])?
    /// A line for stderr, written by the caller once the screen is gone (quitting while
    /// a post is on its way says that it may still arrive).
    private(set) var exitNote: String?

    init(_ options: EditOptions, terminal: any TerminalIO = TerminalBackend()) {
        self.options = options
        self.terminal = terminal
        let document = AppModel.Document(path: options.path, format: options.format,
                                         formatIsFixed: options.formatIsFixed, lookup: options.lookup,
                                         isReadOnly: options.isReadOnly,
                                         untitledName: options.fromStandardInput ? "[stdin]" : nil,
                                         formatRule: options.formatRule, ending: options.ending)
        var editor = Editor(options.document, cursor: 0, config: options.config)
        editor.lookup = options.lookup
        model = AppModel(editor: editor, document: document,
                         print: options.print, terminalClipboard: options.terminalClipboard)
        model.loadingDirectories = Set(options.loading.keys)
        model.postTarget = options.post?.target
        model.home = ProcessEnvironment.value("HOME")
        runner = EffectRunner(sources: options.sources, terminal: terminal, drafts: options.drafts,
                              frecency: options.frecency, sourceNotes: options.sourceNotes, posting: options.post?.context,
                              spelling: options.spelling)
        if let path = options.path { runner.opened(path, state: options.disk) }
    }

    /// Runs until the person quits; returns the exit status (docs/exit-status.md). The comment to
    /// print with `--print` is returned too, so it is written after the screen is gone.
    func run() -> (status: Int32, printed: [UInt8]?) {
        do {
            try terminal.start(ttyPath: nil)
        } catch {
            StandardOutput.error("atpad: \(error)")
            return (2, nil)
        }
        defer {
            runner.queries.cancelAll()
            terminal.stop()
        }
        let wake = runner.mailbox.wake
        wake.receiveSignals()
        let (rows, columns) = terminal.size()
        runner.handle(.resize(rows: rows, columns: columns), on: &model)
        if !options.warnings.isEmpty { runner.handle(.notice(options.warnings.joined(separator: "; ")), on: &model) }
        if let notice = draftNotice() {
            runner.run(model.start(naming: notice), on: &model)
        } else {
            runner.run(model.start(offering: offeredDraft()), on: &model)
        }
        runner.watch(options.loading)
        if let people = options.participants { runner.watch(people, trigger: "@") }
        // Keys typed while atpad was starting are in before the first frame: none is lost,
        // and none answers a question that was not yet on the screen (docs/drafts.md).
        takeTypedAhead()
        if runner.exit != nil { return finish() }
        draw()
        // After the first frame, never before it (docs/spelling.md, "In the editor").
        runner.checkSpelling(model)
        while runner.exit == nil {
            let now = ContinuousClock.now
            let timeout = runner.spellingTimeout(now: now, otherwise: runner.drafts?.pollTimeout(now: now, otherwise: -1) ?? -1)
            let events = terminal.readEvents(timeoutMilliseconds: timeout,
                                             wakeDescriptor: wake.descriptor >= 0 ? wake.descriptor : nil)
            if let signal = terminal.takeSignal() {
                // SIGHUP, SIGTERM (and the others): the draft keeps what was typed. SIGTSTP
                // suspends; the terminal reports a resize when continued, so a whole frame
                // follows.
                runner.handle(.signal(signal), on: &model)
                if runner.exit != nil { break }
            }
            input: for event in events {
                for appEvent in appEvents(for: event) {
                    runner.handle(appEvent, on: &model)
                    if runner.exit != nil { break input }
                }
            }
            if runner.exit != nil { break }
            if !events.isEmpty { draw() }
            // What waits for the frame: in-memory answers to the keys' queries, the other
            // queries started, and what other threads left in the mailbox. A wake-up that
            // brought nothing draws nothing.
            if runner.runPending(on: &model) { draw() }
            // The draft is handed to its writer after the frame, never before it.
            runner.drafts?.tick(now: .now) { DraftSnapshot(model.editor) }
        }
        return finish()
    }

    /// The exit status and what `--print` prints, once the session is over.
    private func finish() -> (status: Int32, printed: [UInt8]?) {
        if let note = runner.exitNote { exitNote = note }
        let exit = runner.exit ?? (1, nil)
        return (exit.status, exit.status == 0 ? exit.output : nil)
    }

    /// Hands the model the input already waiting before the first frame, keys as typed
    /// ahead.
    private func takeTypedAhead() {
        for event in terminal.readQueuedEvents() {
            for appEvent in appEvents(for: event) {
                if case let .key(key) = appEvent {
                    runner.handle(.typedAhead(key), on: &model)
                } else {
                    runner.handle(appEvent, on: &model)
                }
                if runner.exit != nil { return }
            }
        }
    }

    /// The draft to ask about at start: a FILE's draft when newer than the file.
    private func offeredDraft() -> Draft? {
        guard let path = options.path else { return nil }
        return options.drafts?.newerDraft(for: path)
    }

    /// What the message line names at start without a FILE: the unnamed drafts of the
    /// last 24 hours whose atpad has gone, newest first (docs/drafts.md). `atpad -` brings
    /// its own text, so it is offered none.
    private func draftNotice() -> DraftNotice? {
        guard options.path == nil, !options.fromStandardInput, let drafts = options.drafts else { return nil }
        return DraftNotice(drafts: drafts.unnamedDrafts(since: Date().addingTimeInterval(-24 * 60 * 60)))
    }

    /// What one input event means to the model: mouse positions are looked up in the last
    /// frame (the model knows no screen).
    private func appEvents(for event: InputEvent) -> [AppEvent] {
        switch event {
        case .endOfInput:
            return [.endOfInput]
        case .graphemeClustering:
            return []  // the backend's own business: the frame after it shows what it changes
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
        let next = terminal.layOutFrame { rows, columns in
            FrameLayout.frame(for: model.editor, view: model.view(viewport: viewport), width: columns, height: rows)
        }
        viewport = next.viewport
        frame = next
        if let shown = next.map.visibleText { runner.visibleText = shown }
        let colors = options.noColor || !terminal.hasColors ? 0 : terminal.colorCount
        if styles?.colors != colors {
            styles = (colors, options.theme.styles(colors: colors))
        }
        terminal.draw(next.screen, styles: styles!.byRole, colors: colors > 0, graphemes: options.graphemes)
    }
}
