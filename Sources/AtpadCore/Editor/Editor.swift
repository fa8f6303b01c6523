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
    /// ended in CR LF when it was opened (docs/editor.md), else "\n". Existing breaks keep theirs.
    public internal(set) var lineEnding: String
    /// The internal clipboard (text with its mentions).
    public internal(set) var clipboard: MarkedText?
    /// The directory as the document's format sees it: a paste is read with it as a file
    /// of that format is, and a picked mention shows the handle it gives.
    public var lookup: EntityLookup = .empty
    /// Incremented by every change to the document (the app compares it to detect edits).
    public private(set) var version = 0
    /// The undo position (`UndoHistory.position`) of the text last saved (or loaded).
    var savedPosition = 0

    /// Esc dismissed a search: no search reopens by itself until a separator is typed.
    var dismissed = false
    /// Where the space the last pick added sits, while the cursor is right after it and
    /// no other key came: closing punctuation typed next takes its place (docs/keys.md).
    var addedSpace: Int?
    /// Where the spaces picks added are, sorted, for as long as they stay (mapped through
    /// every change by `apply`, restored by undo and redo): one still last on its line is
    /// not written (`writtenDocument`, docs/editor.md). A space typed right after a pick
    /// makes it the person's, no longer soft.
    var softSpaces: [Int] = []
    var history = UndoHistory()
    /// The column Up/Down aim for, kept across consecutive vertical moves.
    var goalColumn: Int?
    var nextQueryID = 1
    /// The query in flight for each trigger (at most one).
    var inFlight: [Unicode.Scalar: (id: Int, cancelled: Bool)] = [:]
    var pendingEffects: [Effect] = []
    /// Where the top-level Markdown blocks start (Markdown formats only; nil otherwise).
    public internal(set) var markdownBlocks: MarkdownBlocks?
    /// What the front end last drew of Markdown, by the bytes of each piece.
    let markdownCache = MarkdownRunCache()
    /// Where a commit message's scissors line starts (``GitFile``): git's diff from there on.
    public internal(set) var gitScissors: Int?
    /// The misspelt words marked, mapped through every change (docs/spelling.md).
    public internal(set) var spelling = SpellMarks()
    public init(_ doc: MarkedText = MarkedText(), cursor: Int? = nil, config: EditorConfig = EditorConfig()) {
        storage = TextStorage(doc)
        lineEnding = Editor.lineEnding(of: doc.text)
        self.config = config
        let c = min(max(cursor ?? storage.count, 0), storage.count)
        selection = .cursor(c)
        snapCursor()
        if config.markdown { markdownBlocks = MarkdownBlocks(storage) }
        findGitScissors()
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

    // MARK: - The apply path

    /// The transaction replacing `range` of the document with `text` and the mentions it
    /// carries (ranged from the start of `text`).
    func replacing(_ range: Range<Int>, with text: String, mentions: [Mention] = []) -> Transaction {
        .replacing(range, with: text, mentions: mentions, length: storage.count)
    }

    /// Applies `transaction`: turns plain the mentions it names and those an edit only
    /// partly covers, changes the text and adds its mentions, turns plain the mentions
    /// whose edge stopped being a grapheme boundary, maps the selection and the search
    /// anchor through the change, snaps the cursor out of mentions, and (when `kind` is
    /// given) records the inverse as one undo step. Returns the transaction as applied —
    /// with every mention it turned plain — or nil when it changes nothing.
    ///
    /// `softSpace` is the position (after the change) of a space a pick added, which
    /// becomes soft (`softSpaces`) in the same step.
    @discardableResult
    mutating func apply(_ transaction: Transaction, selectionAfter: Selection? = nil,
                        undo kind: UndoHistory.Kind? = .other, startsWord: Bool = false,
                        endsWithBlank: Bool = false, softSpace: Int? = nil) -> Transaction? {
        guard !transaction.isEmpty else { return nil }
        let softBefore = softSpaces
        let changes = transaction.changes
        let edits = changes.edits
        let before = selection
        // A mention an edit only partly covers turns plain rather than breaks.
        precondition(changes.lengthBefore == storage.count, "a change for another text")
        var removed: [Mention] = []
        for m in transaction.removedMentions {
            if let gone = storage.removeMention(at: m.range) { removed.append(gone) }
        }
        for m in storage.mentionsCut(by: edits) {
            if let gone = storage.removeMention(at: m.range) { removed.append(gone) }
        }
        let taken = storage.apply(edits, adding: transaction.addedMentions)
        if config.markdown || markdownBlocks != nil { updateMarkdownBlocks(edits, removed: taken.texts) }
        if config.git != nil { updateGitScissors(edits, delta: changes.lengthAfter - changes.lengthBefore) }
        // A mention whose edge no longer falls on a grapheme boundary (a combining mark
        // typed right after it, a deletion joining clusters) turns plain too. Only the
        // mentions added and those just outside an edit can be affected.
        var added = transaction.addedMentions
        let unbounded = storage.offBoundary(added)
        if !unbounded.isEmpty {
            for m in unbounded { storage.removeMention(at: m.range) }
            let gone = Set(unbounded)
            added.removeAll { gone.contains($0) }
        }
        // Those outside an edit were there before the change, on text it kept.
        let beside = storage.offBoundary(storage.mentionsBeside(edits))
        if !beside.isEmpty {
            for (m, old) in zip(beside, changes.keptRanges(beside.map(\.range), backward: true)) {
                storage.removeMention(at: m.range)
                if let old {
                    var before = m
                    before.range = old
                    removed.append(before)
                }
            }
        }
        if removed.count > 1 { removed.sort(by: Transaction.inOrder) }
        let applied = Transaction(changes: changes, removing: removed, adding: added)

        var moved = selection
        moved.anchor = changes.mapPos(moved.anchor, assoc: .after)
        moved.head = changes.mapPos(moved.head, assoc: .after)
        mapSearch(through: changes)
        mapSoftSpaces(through: changes, adding: softSpace)
        spelling.map(through: changes)
        selection = selectionAfter ?? moved
        selection.anchor = min(max(selection.anchor, 0), storage.count)
        selection.head = min(max(selection.head, 0), storage.count)
        snapCursor()
        version += 1
        pendingEffects.append(.documentChanged)
        if let kind {
            var restored = removed
            if !taken.mentions.isEmpty {
                restored += taken.mentions
                restored.sort(by: Transaction.inOrder)
            }
            let inverse = Transaction(changes: changes.inverted(removed: taken.texts), removing: added, adding: restored)
            history.record(UndoHistory.Step(inverse: inverse, forward: applied, selectionBefore: before,
                                            selectionAfter: selection, kind: kind, endsWithBlank: endsWithBlank,
                                            softSpacesBefore: softBefore, softSpacesAfter: softSpaces),
                           startsWord: startsWord)
        }
        return applied
    }

    /// Moves the search anchor through a change; a deleted trigger ends the search.
    private mutating func mapSearch(through changes: ChangeSet) {
        guard var s = search else { return }
        switch s.kind {
        case .explicit:
            if changes.deletes(scalarAt: s.start) {
                endSearch()
                return
            }
            s.start = changes.mapPos(s.start, assoc: .after)
        case .implicit:
            s.start = changes.mapPos(s.start, assoc: .before)
        }
        search = s
    }

    /// Moves the soft spaces through a change: a deleted one is gone, and `added` (a
    /// position after the change) joins them.
    private mutating func mapSoftSpaces(through changes: ChangeSet, adding added: Int?) {
        guard !softSpaces.isEmpty || added != nil else { return }
        var moved: [Int] = []
        moved.reserveCapacity(softSpaces.count + 1)
        for p in softSpaces where !changes.deletes(scalarAt: p) {
            moved.append(changes.mapPos(p, assoc: .after))
        }
        if let added { moved.append(added) }
        moved.sort()
        softSpaces = moved.filter { storage.scalar(at: $0) == " " && storage.mention(containing: $0) == nil }
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
        softSpaces = step.softSpacesBefore
    }

    mutating func redo() {
        endSearch()
        selectedMention = nil
        dismissed = false
        guard let step = history.popRedo() else { return }
        apply(step.forward, selectionAfter: step.selectionAfter, undo: nil)
        softSpaces = step.softSpacesAfter
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
