/// The document as a whole (docs/keys.md): whether it differs from what was last saved, and
/// replacing all of it (a recovered draft, a reload from disk).
extension Editor {
    /// Whether the text differs from what was last saved or loaded. It follows undo and
    /// redo: undoing back to the saved text clears it, redoing sets it again.
    public var isModified: Bool { history.position != savedPosition }

    /// The document as it is written — saved, printed (`--print`), previewed (F2), posted:
    /// the text without the soft spaces of picks still last on their lines
    /// (`trailingSoftSpaces`), so a pick at the end of a line leaves no trailing
    /// whitespace in the file; the editor keeps showing the space, where the next word
    /// typed goes after it (docs/editor.md). Every other byte is the editor's.
    public var writtenDocument: MarkedText {
        let gone = trailingSoftSpaces
        guard !gone.isEmpty else { return storage.marked }
        return storage.marked.removingScalars(at: gone)
    }

    /// The soft spaces (`softSpaces`) with nothing after them on their line but other
    /// such spaces: before a line break (LF or CR LF) or at the end of the text. Sorted.
    public var trailingSoftSpaces: [Int] {
        var out: [Int] = []
        for p in softSpaces.reversed() {
            let next = p + 1
            if next == storage.count || storage.lineBreakLength(at: next) > 0 || out.last == next { out.append(p) }
        }
        return out.reversed()
    }

    /// Marks the current text as saved. The next edit starts an undo step of its own, so
    /// undoing it returns exactly to the saved text.
    public mutating func markSaved() {
        history.closeStep()
        savedPosition = history.position
    }

    /// Replaces the whole document with `doc` (a recovered draft) as one undoable step,
    /// the cursor at `cursor` (where the draft says the person was typing; the start by
    /// default, and never past the end): the text then differs from what was last saved.
    public mutating func replaceDocument(with doc: MarkedText, cursor: Int = 0) {
        replaceAll(with: doc, cursor: max(cursor, 0))
    }

    /// Replaces the whole document with `doc` as read again from disk, as one undoable
    /// step, and marks it saved: undo goes back to the text before the reload, which is
    /// then modified. The cursor keeps its offset where the new text still reaches it.
    public mutating func reload(_ doc: MarkedText) {
        replaceAll(with: doc, cursor: cursor)
        markSaved()
    }

    /// One step replacing everything; a search or selected mention does not survive it.
    private mutating func replaceAll(with doc: MarkedText, cursor position: Int) {
        // A recovered draft (atpad markup) shows names: its mentions show what this
        // document's readers see, as when the file was opened (docs/formats.md).
        let doc = lookup.showing(doc, in: config.readersFormat ?? config.format)
        endSearch()
        selectedMention = nil
        goalColumn = nil
        // The new text is the document as opened now: its first line decides new breaks.
        lineEnding = Editor.lineEnding(of: doc.text)
        let count = doc.text.unicodeScalars.count
        history.closeStep()
        apply(replacing(0 ..< storage.count, with: doc.text, mentions: doc.mentions),
              selectionAfter: .cursor(min(position, count)))
        // The app learns of the new document from the call itself, not a draft effect;
        // anything else pending (a search's cancel) still reaches it with the next key.
        pendingEffects.removeAll { $0 == .documentChanged }
    }
}
