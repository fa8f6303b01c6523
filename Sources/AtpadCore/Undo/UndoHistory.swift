/// Undo and redo stacks of steps; a step holds the operations that revert it and the
/// selections on both sides, so text, mentions and cursor come back together.
struct UndoHistory: Sendable {
    /// What kind of edit made a step: consecutive typing or deleting coalesces.
    enum Kind: Sendable, Equatable {
        case typing
        case deleting
        case other
    }

    struct Step: Sendable {
        /// Applying these, in order, reverts the step.
        var inverse: [EditOp]
        /// Applying these, in order, redoes the step.
        var forward: [EditOp]
        var selectionBefore: Selection
        var selectionAfter: Selection
        var kind: Kind
        /// The last typed character was whitespace (the next word starts a new step).
        var endsWithBlank: Bool
    }

    private(set) var undoStack: [Step] = []
    private(set) var redoStack: [Step] = []
    /// False after anything that should break coalescing (a motion, an undo).
    var canCoalesce = false

    /// Records a step, merging it into the previous one when both are typing (or both
    /// deleting) at the same place within one word.
    mutating func record(_ step: Step, startsWord: Bool) {
        redoStack.removeAll()
        if canCoalesce, var last = undoStack.last, last.kind == step.kind, step.kind != .other,
           last.selectionAfter == step.selectionBefore,
           !(step.kind == .typing && last.endsWithBlank && startsWord) {
            last.inverse = step.inverse + last.inverse
            last.forward += step.forward
            last.selectionAfter = step.selectionAfter
            last.endsWithBlank = step.endsWithBlank
            undoStack[undoStack.count - 1] = last
        } else {
            undoStack.append(step)
        }
        canCoalesce = step.kind != .other
    }

    mutating func popUndo() -> Step? {
        canCoalesce = false
        guard let step = undoStack.popLast() else { return nil }
        redoStack.append(step)
        return step
    }

    mutating func popRedo() -> Step? {
        canCoalesce = false
        guard let step = redoStack.popLast() else { return nil }
        undoStack.append(step)
        return step
    }

    var canUndo: Bool { !undoStack.isEmpty }
}
