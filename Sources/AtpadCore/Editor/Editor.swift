/// The editor core: a document, its selection, the mention and search state machine,
/// and undo — driven by keys and completion events, answering with effects.
///
/// Every change to the document goes through `apply`, which bleaches what an edit cuts,
/// maps the selection and the search anchor, records the inverse for undo and keeps the
/// cursor out of mentions. Nothing here touches a terminal, a file or a clock.
public struct Editor: Sendable {
    public private(set) var storage: TextStorage
    public internal(set) var selection: Selection
    /// The mention Backspace or Delete selected (the next one deletes or trims it).
    public internal(set) var selectedMention: Mention?
    /// The search in progress, if any.
    public internal(set) var search: Search?
    public var config: EditorConfig
    /// What Enter and pasted line breaks insert: "\r\n" when the document's first line
    /// ended in CR LF when it was opened (SPEC §7), else "\n". Existing breaks keep theirs.
    public internal(set) var lineEnding: String
    /// The internal clipboard (text with its mentions).
    public internal(set) var clipboard: MarkedText?
    /// Incremented by every change to the document (the app compares it to detect edits).
    public private(set) var version = 0
    /// The undo position (`UndoHistory.position`) of the text last saved (or loaded).
    var savedPosition = 0

    /// Esc dismissed a search: no search reopens by itself until a separator is typed.
    var dismissed = false
    /// Where the space the last pick added sits, while the cursor is right after it and
    /// no other key came: closing punctuation typed next takes its place (SPEC §6).
    var addedSpace: Int?
    var history = UndoHistory()
    /// The column Up/Down aim for, kept across consecutive vertical moves.
    var goalColumn: Int?
    var nextQueryID = 1
    /// The query in flight for each trigger (at most one).
    var inFlight: [Unicode.Scalar: (id: Int, cancelled: Bool)] = [:]
    var pendingEffects: [Effect] = []
    /// What each recent version changed, for readers that saw an earlier one (the layout).
    var journal = ChangeJournal()

    public init(_ doc: MarkedText = MarkedText(), cursor: Int? = nil, config: EditorConfig = EditorConfig()) {
        storage = TextStorage(doc)
        lineEnding = Editor.lineEnding(of: doc.text)
        self.config = config
        let c = min(max(cursor ?? storage.count, 0), storage.count)
        selection = .cursor(c)
        snapCursor()
    }

    /// The line ending a text's first line uses: "\r\n" when its first LF follows a CR,
    /// "\n" otherwise (also for a text of one line, which has no ending to follow).
    public static func lineEnding(of text: String) -> String {
        guard let feed = text.utf8.firstIndex(of: 0x0A), feed > text.utf8.startIndex else { return "\n" }
        return text.utf8[text.utf8.index(before: feed)] == 0x0D ? "\r\n" : "\n"
    }

    // MARK: - Reading

    public var cursor: Int { selection.head }
    public var text: String { storage.string }
    public var mentions: [Mention] { storage.allMentions }
    public var marked: MarkedText { storage.marked }
    public var canUndo: Bool { history.canUndo }

    /// What changed in the document since `version` (one of the last few), or nil when
    /// that version is too far back to tell.
    public func change(since version: Int) -> DocumentChange? {
        journal.change(since: version, current: self.version, count: storage.count)
    }

    // MARK: - The apply path

    /// Applies `ops` in order: bleaches mentions an edit only partly covers, removes the
    /// ones it covers, maps the selection and search anchor, snaps the cursor out of
    /// mentions, and (when `kind` is given) records one undo step.
    @discardableResult
    mutating func apply(_ ops: [EditOp], selectionAfter: Selection? = nil, undo kind: UndoHistory.Kind? = .other,
                        startsWord: Bool = false, endsWithBlank: Bool = false) -> Bool {
        guard !ops.isEmpty else { return false }
        let before = selection
        var inverse: [EditOp] = []
        var forward: [EditOp] = []
        var sel = selection
        var touched = ChangeTracker(count: storage.count)
        for op in ops {
            switch op {
            case let .replace(range, text, inserted):
                let cut = range.isEmpty ? [storage.mention(containing: range.lowerBound)].compactMap { $0 }
                    : storage.mentions(overlapping: range)
                for m in cut
                where range.isEmpty || m.range.lowerBound < range.lowerBound || m.range.upperBound > range.upperBound {
                    touched.touch(m.range, count: storage.count)
                    storage.removeMention(at: m.range)
                    inverse.append(.addMention(m))
                    forward.append(.removeMention(m))
                }
                touched.touch(range, count: storage.count)
                let removed = storage.replace(range, with: text, mentions: inserted)
                let length = text.unicodeScalars.count
                inverse.append(.replace(range.lowerBound ..< range.lowerBound + length, with: removed.text,
                                        mentions: removed.mentions.map { $0.shifted(by: -range.lowerBound) }))
                forward.append(op)
                // A mention whose edge no longer falls on a grapheme boundary (a combining
                // mark typed right after it, a deletion joining clusters) turns plain.
                // Only the mentions next to the edit and the ones it inserted can be affected.
                let neighbours = [storage.mention(endingAt: range.lowerBound),
                                  storage.mention(startingAt: range.lowerBound + length)]
                let candidates = neighbours.compactMap { $0 } + inserted.map { $0.shifted(by: range.lowerBound) }
                for m in candidates
                where !storage.isBoundary(m.range.lowerBound) || !storage.isBoundary(m.range.upperBound) {
                    touched.touch(m.range, count: storage.count)
                    storage.removeMention(at: m.range)
                    inverse.append(.addMention(m))
                    forward.append(.removeMention(m))
                }
                sel.anchor = PositionMap.map(sel.anchor, through: range, length: length, assoc: .after)
                sel.head = PositionMap.map(sel.head, through: range, length: length, assoc: .after)
                mapSearch(through: range, length: length)
            case let .addMention(m):
                touched.touch(m.range, count: storage.count)
                storage.addMention(m)
                inverse.append(.removeMention(m))
                forward.append(op)
            case let .removeMention(m):
                touched.touch(m.range, count: storage.count)
                storage.removeMention(at: m.range)
                inverse.append(.addMention(m))
                forward.append(op)
            }
        }
        selection = selectionAfter ?? sel
        selection.anchor = min(max(selection.anchor, 0), storage.count)
        selection.head = min(max(selection.head, 0), storage.count)
        snapCursor()
        version += 1
        journal.record(touched.change(newCount: storage.count), version: version)
        pendingEffects.append(.documentChanged)
        if let kind {
            history.record(UndoHistory.Step(inverse: inverse.reversed(), forward: forward, selectionBefore: before,
                                            selectionAfter: selection, kind: kind, endsWithBlank: endsWithBlank),
                           startsWord: startsWord)
        }
        return true
    }

    /// Moves the search anchor through a replacement; a deleted trigger ends the search.
    private mutating func mapSearch(through range: Range<Int>, length: Int) {
        guard var s = search else { return }
        switch s.kind {
        case .explicit:
            if range.contains(s.start) {
                endSearch()
                return
            }
            s.start = PositionMap.map(s.start, through: range, length: length, assoc: .after)
        case .implicit:
            s.start = PositionMap.map(s.start, through: range, length: length, assoc: .before)
        }
        search = s
    }

    /// Keeps an empty selection's cursor out of mentions: it moves to the nearer edge.
    mutating func snapCursor() {
        guard selection.isEmpty else { return }
        if !storage.isBoundary(selection.head) { selection = .cursor(storage.nextBoundary(after: selection.head)) }
        guard let m = storage.mention(containing: selection.head) else { return }
        let p = selection.head
        let edge = (p - m.range.lowerBound) <= (m.range.upperBound - p) ? m.range.lowerBound : m.range.upperBound
        selection = .cursor(edge)
    }

    // MARK: - Undo

    mutating func undo() {
        endSearch()
        selectedMention = nil
        dismissed = false
        guard let step = history.popUndo() else { return }
        apply(step.inverse, selectionAfter: step.selectionBefore, undo: nil)
    }

    mutating func redo() {
        endSearch()
        selectedMention = nil
        dismissed = false
        guard let step = history.popRedo() else { return }
        apply(step.forward, selectionAfter: step.selectionAfter, undo: nil)
    }

    /// Marks the end of a typing run (after a motion), so the next edit starts a new step.
    mutating func breakUndoCoalescing() {
        history.canCoalesce = false
    }

    /// Collects and clears the effects produced so far.
    mutating func takeEffects() -> [Effect] {
        var seen = false
        let effects = pendingEffects.filter { e in
            if e == .documentChanged {
                if seen { return false }
                seen = true
            }
            return true
        }
        pendingEffects.removeAll()
        return effects
    }
}
