/// Undo and redo stacks of steps; a step holds the transaction that reverts it, the one
/// that redoes it and the selections on both sides, so text, mentions and cursor come
/// back together, through the editor's one apply path.
///
/// Every step has an id, renewed whenever another edit is merged into it, so the id of
/// the step on top of the undo stack names the document's state: the editor is modified
/// exactly when that id differs from the one recorded at the last save.
struct UndoHistory: Sendable {
    /// What kind of edit made a step: consecutive typing or deleting coalesces, and so do
    /// the steps of one group (all the replacements of one Replace prompt).
    enum Kind: Sendable, Equatable {
        case typing
        case deleting
        case other
        /// One of a run of edits made one step whatever happens between them (selections
        /// move from match to match); the token tells runs apart.
        case grouped(Int)
    }

    struct Step: Sendable {
        /// The edits merged into the step, oldest first, each with the transaction that
        /// reverts it. They are composed when the step is undone or redone, not as each
        /// key is typed: a word typed is one step of several edits.
        private var parts: [(inverse: Transaction, forward: Transaction)]
        var selectionBefore: Selection
        var selectionAfter: Selection
        var kind: Kind
        /// The last typed character was whitespace (the next word starts a new step).
        var endsWithBlank: Bool
        /// The soft spaces of picks (`Editor.softSpaces`) on both sides of the step, so
        /// undo and redo bring back which spaces are soft with the text.
        var softSpacesBefore: [Int] = []
        var softSpacesAfter: [Int] = []
        /// Which document state the step leads to (set by `record`).
        var id = 0

        init(inverse: Transaction, forward: Transaction, selectionBefore: Selection, selectionAfter: Selection,
             kind: Kind, endsWithBlank: Bool, softSpacesBefore: [Int] = [], softSpacesAfter: [Int] = []) {
            parts = [(inverse, forward)]
            self.selectionBefore = selectionBefore
            self.selectionAfter = selectionAfter
            self.kind = kind
            self.endsWithBlank = endsWithBlank
            self.softSpacesBefore = softSpacesBefore
            self.softSpacesAfter = softSpacesAfter
        }

        /// Applying it reverts the step: the last edit's inverse first.
        var inverse: Transaction {
            parts.dropFirst().reduce(parts[0].inverse) { $1.inverse.compose($0) }
        }

        /// Applying it redoes the step.
        var forward: Transaction {
            parts.dropFirst().reduce(parts[0].forward) { $0.compose($1.forward) }
        }

        /// Takes `later`'s edits after this step's.
        mutating func merge(_ later: Step) {
            parts += later.parts
            selectionAfter = later.selectionAfter
            endsWithBlank = later.endsWithBlank
            softSpacesAfter = later.softSpacesAfter
        }

        /// Composes the parts once, for a step about to be undone or redone.
        mutating func collapse() {
            if parts.count > 1 { parts = [(inverse, forward)] }
        }
    }

    private(set) var undoStack: [Step] = []
    private(set) var redoStack: [Step] = []
    /// False after anything that should break coalescing (a motion, an undo, a save).
    var canCoalesce = false
    /// The group whose step is on top and may still grow (cleared by an undo, a redo, a
    /// save or any other edit; motions leave it, since Replace moves between matches).
    private var openGroup: Int?
    /// The id the next recorded or merged step gets; 0 stands for the empty history.
    private var nextID = 1

    /// The id of the document state the history is at: the top step's, or 0 at the start.
    var position: Int { undoStack.last?.id ?? 0 }

    /// Records a step, merging it into the previous one when both are typing (or both
    /// deleting) at the same place within one word, or both belong to the open group.
    mutating func record(_ step: Step, startsWord: Bool) {
        redoStack.removeAll()
        var step = step
        step.id = nextID
        nextID += 1
        if let top = undoStack.indices.last, merges(step, into: undoStack[top], startsWord: startsWord) {
            undoStack[top].merge(step)
            // A merged step leads to a new state: a save point at the old one is gone.
            undoStack[top].id = step.id
        } else {
            undoStack.append(step)
        }
        switch step.kind {
        case .typing, .deleting:
            canCoalesce = true
            openGroup = nil
        case .other:
            canCoalesce = false
            openGroup = nil
        case let .grouped(group):
            canCoalesce = false
            openGroup = group
        }
    }

    private func merges(_ step: Step, into last: Step, startsWord: Bool) -> Bool {
        guard last.kind == step.kind else { return false }
        switch step.kind {
        case .other:
            return false
        case let .grouped(group):
            return openGroup == group
        case .typing, .deleting:
            return canCoalesce && last.selectionAfter == step.selectionBefore
                && !(step.kind == .typing && last.endsWithBlank && startsWord)
        }
    }

    /// Sets the soft spaces the step on top leads to (a space typed right after a pick
    /// makes the pick's space the person's without an edit of its own).
    mutating func setSoftSpacesAfterTop(_ positions: [Int]) {
        guard let top = undoStack.indices.last else { return }
        undoStack[top].softSpacesAfter = positions
    }

    /// Ends every run: the next edit starts a step of its own (at a save point).
    mutating func closeStep() {
        canCoalesce = false
        openGroup = nil
    }

    mutating func popUndo() -> Step? {
        closeStep()
        guard var step = undoStack.popLast() else { return nil }
        step.collapse()
        redoStack.append(step)
        return step
    }

    mutating func popRedo() -> Step? {
        closeStep()
        guard var step = redoStack.popLast() else { return nil }
        step.collapse()
        undoStack.append(step)
        return step
    }

    var canUndo: Bool { !undoStack.isEmpty }
}
