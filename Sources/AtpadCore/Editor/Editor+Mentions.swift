/// Mentions as atomic units (docs/keys.md): picking, select-then-delete, trimming, word and
/// range deletion, and the internal clipboard that keeps mentions.
extension Editor {
    // MARK: - Picking

    /// Replaces the trigger, the query and the rest of the word with the mention of result
    /// `index`, adds a space unless a space or closing punctuation follows (a line break
    /// does not count: the next word typed must not glue to the mention), and puts the
    /// cursor after it. One undo step. The added space is soft (`Editor.addedSpace`).
    mutating func pick(_ index: Int) {
        guard let s = search, index >= 0, index < s.items.count else { return }
        if let correction = s.correction { return pickCorrection(index, correction) }
        let entity = s.items[index].entity
        // Someone without an email cannot be named in a trailer: the chooser stays as it
        // is, its detail saying why.
        if s.personTrailer, entity.insert == nil { return }
        var end = s.queryStart + s.query.unicodeScalars.count
        var start = s.start
        if s.kind == .implicit { start = consumedWordsStart(for: entity.name, before: s.start) }
        if let old = s.retarget {
            // Re-targeting replaces the mention itself, nothing around it.
            start = old.range.lowerBound
            end = old.range.upperBound
        }
        let trigger = s.kind == .explicit ? s.trigger : config.defaultTrigger
        endSearch()
        defer { pendingEffects.append(.picked(entity, trigger: trigger)) }

        if let text = entity.insert {
            // An insert completion: its text, plain, with nothing added
            // (docs/directories.md, "Directory files").
            apply(replacing(start..<end, with: text),
                  selectionAfter: .cursor(start + text.unicodeScalars.count))
            breakUndoCoalescing()
            return
        }
        // It shows what the comment's readers will see: `@jdoe` on GitHub, else the name.
        let readers = config.readersFormat ?? config.format
        let mention = lookup.shown(Mention(trigger: trigger, entity: entity, start: 0), in: readers)
        // Someone the readers' service cannot notify is their name, plain, as the file and
        // the service get it (docs/people.md, "Someone a service cannot notify").
        let nameAlone = lookup.writesNameAlone(mention, in: readers)
        let text = nameAlone ? entity.name : mention.text
        let mentions = nameAlone ? [] : [mention]
        let length = text.unicodeScalars.count
        if nameAlone {
            pendingEffects.append(.notice("\(entity.name) has no \(readers.service?.rawValue ?? "") account: "
                                          + "written as text, not notified"))
        }
        if s.retarget != nil {
            apply(replacing(start..<end, with: text, mentions: mentions), selectionAfter: .cursor(start + length))
            breakUndoCoalescing()
            return
        }
        let next = storage.scalar(at: end)
        let needsSpace = next.map { !CharacterClass.isBlank($0) && !CharacterClass.isClosing($0) } ?? true
        var after = start + length
        if needsSpace || next.map(CharacterClass.isBlank) == true { after += 1 }
        apply(replacing(start..<end, with: text + (needsSpace ? " " : ""), mentions: mentions),
              selectionAfter: .cursor(after), softSpace: needsSpace ? start + length : nil)
        breakUndoCoalescing()
        if needsSpace { addedSpace = start + length }
    }

    /// Where an implicit pick starts: before the words just typed before the query when
    /// the picked name starts with them (`bruce wayn` → Bruce Wayne consumes `bruce `).
    private func consumedWordsStart(for name: String, before start: Int) -> Int {
        let words = name.split(separator: " ")
        guard words.count > 1 else { return start }
        let window = storage.slice(max(0, start - 256)..<start)
        for k in stride(from: words.count - 1, through: 1, by: -1) {
            let prefix = words[0..<k].joined(separator: " ") + " "
            guard window.count >= prefix.count else { continue }
            let tail = String(window.suffix(prefix.count))
            guard tail.lowercased() == prefix.lowercased() else { continue }
            let from = start - tail.unicodeScalars.count
            if from > 0, let before = storage.scalar(at: from - 1), CharacterClass.isWord(before) { continue }
            if !storage.mentions(overlapping: from..<start).isEmpty { continue }
            return from
        }
        return start
    }

    // MARK: - Deleting

    /// Backspace: deletes the selection; else selects a mention that ends at the cursor,
    /// then deletes (or, with trimming, first trims) it; else deletes one grapheme.
    mutating func backspace(held: Mention?) {
        selectedMention = nil
        if !selection.isEmpty { return deleteRange(selection.range) }
        if let m = held, m.range.upperBound == cursor {
            let words = m.name.split(separator: " ", omittingEmptySubsequences: true)
            // A kept construct is not a name, and a handle (`@jdoe`) is one word.
            if config.trimMentions, !m.isKept, m.label == nil, words.count > 1 {
                let trimmed = Mention(trigger: m.trigger, id: m.id, name: String(words[0]), start: m.range.lowerBound,
                                      handle: m.handle, url: m.url)
                let cut = trimmed.range.upperBound..<m.range.upperBound
                var trim = replacing(cut, with: "")
                trim.removedMentions = [m]
                trim.addedMentions = [trimmed]
                apply(trim, selectionAfter: .cursor(trimmed.range.upperBound))
                selectedMention = trimmed
            } else {
                apply(replacing(m.range, with: ""), selectionAfter: .cursor(m.range.lowerBound))
            }
            return
        }
        if let m = storage.mention(endingAt: cursor) {
            endSearch()
            // Selecting is not an edit: like a Shift-selection it ends a typing run.
            breakUndoCoalescing()
            selectedMention = m
            return
        }
        guard cursor > 0 else { return }
        let start = storage.previousBoundary(before: cursor)
        let deleted = storage.slice(start..<cursor)
        apply(replacing(start..<cursor, with: ""), selectionAfter: .cursor(start), undo: .deleting)
        if search != nil {
            refreshQuery()
        } else if !dismissed, config.format.searchesAsTyped, deleted.unicodeScalars.allSatisfy(CharacterClass.isBlank),
                  let prev = storage.scalar(at: cursor - 1), let t = trigger(for: prev),
                  storage.mention(endingAt: cursor) == nil, canStartExplicit(at: cursor - 1) {
            // `@ |John` → `@|John`: deleting the space restarts the search with `John`.
            startExplicit(at: cursor - 1, trigger: t)
        }
    }

    /// Delete: mirrors Backspace forward, without trimming.
    mutating func deleteForward(held: Mention?) {
        selectedMention = nil
        if !selection.isEmpty { return deleteRange(selection.range) }
        if let m = held, m.range.lowerBound == cursor {
            apply(replacing(m.range, with: ""), selectionAfter: .cursor(cursor))
            return
        }
        if let m = storage.mention(startingAt: cursor) {
            endSearch()
            // Selecting is not an edit: like a Shift-selection it ends a typing run.
            breakUndoCoalescing()
            selectedMention = m
            return
        }
        guard cursor < storage.count else { return }
        let end = storage.nextBoundary(after: cursor)
        apply(replacing(cursor..<end, with: ""), selectionAfter: .cursor(cursor), undo: .deleting)
        if search != nil { refreshQuery() }
    }

    /// Deletes `range` as one undo step (mentions it only partly covers are bleached by
    /// the apply path; whole ones go with their text).
    mutating func deleteRange(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        apply(replacing(range, with: ""), selectionAfter: .cursor(range.lowerBound))
        breakUndoCoalescing()
        if search != nil { refreshQuery() }
    }

    // MARK: - Clipboard and paste

    /// The selection (or the selected mention) as text with the mentions wholly inside it.
    private func copied(held: Mention?) -> MarkedText? {
        let range = selection.isEmpty ? held?.range : selection.range
        guard let range, !range.isEmpty else { return nil }
        let inside = storage.mentions(overlapping: range)
            .filter { $0.range.lowerBound >= range.lowerBound && $0.range.upperBound <= range.upperBound }
            .map { $0.shifted(by: -range.lowerBound) }
        return MarkedText(text: storage.slice(range), mentions: inside)
    }

    mutating func copy(held: Mention?) {
        if let clip = copied(held: held) {
            clipboard = clip
            pendingEffects.append(.copied(clip.text))
        }
        selectedMention = held
    }

    mutating func cut() {
        guard let clip = copied(held: nil) else { return }
        clipboard = clip
        pendingEffects.append(.copied(clip.text))
        deleteRange(selection.range)
    }

    /// Inserts text with mentions at the cursor (replacing the selection) as one step.
    mutating func insert(_ doc: MarkedText) {
        let range = selection.range
        let change = replacing(range, with: doc.text, mentions: doc.mentions)
        let length = change.changes.lengthAfter - change.changes.lengthBefore + range.count
        apply(change, selectionAfter: .cursor(range.lowerBound + length))
        breakUndoCoalescing()
    }

    /// A bracketed paste: one undo step, never a search per character. The pasted text is
    /// read as a file of the document's format is (``pasted(_:)``), so saving writes back
    /// exactly the bytes pasted.
    mutating func paste(_ text: String) {
        let doc = pasted(text)
        let followsQuery = search?.kind == .explicit && doc.mentions.isEmpty
            && !doc.text.unicodeScalars.contains(where: CharacterClass.isNewline)
        if !followsQuery { endSearch() }
        insert(doc)
        if search != nil { refreshQuery() }
    }

    /// What a paste of `text` inserts (docs/editor.md, "Paste"): atpad's own last copy
    /// when that is what the terminal pasted (its mentions come back); else the text as
    /// the document's format reads a file — `@jdoe` becomes a mention in a `github`
    /// comment, `@[x](y)` only in atpad markup, and nothing in `text` or git's lines — so that saving
    /// writes the pasted bytes back as they were. Line breaks take the document's ending
    /// (docs/formats.md): terminals deliver pasted breaks as LF, so in a CR LF document
    /// each LF not already after a CR gains one.
    func pasted(_ text: String) -> MarkedText {
        if let clip = clipboard, clip.text == text { return clip }
        let text = lineEnding == "\r\n" ? Editor.crlf(text) : text
        // A json comment's file is JSON, but its text is text; an output-only format
        // reads nothing.
        // In git's part of a git file (a comment line, the diff) nothing is decoded.
        guard config.format != .json, !config.format.isOutputOnly, !isGitsText(selection.range.lowerBound),
              let decoded = try? config.format.decode(bytes: Array(text.utf8), lookup: lookup, git: config.git) else {
            return MarkedText(text: text)
        }
        guard let readers = config.readersFormat, readers != config.format else { return decoded.document }
        return lookup.showing(decoded.document, in: readers)
    }

    /// `text` with every LF that does not follow a CR made CR LF (a lone CR stays).
    static func crlf(_ text: String) -> String {
        guard text.utf8.contains(0x0A) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        var previous: UInt8 = 0
        for b in text.utf8 {
            if b == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(b)
            previous = b
        }
        return String(decoding: out, as: UTF8.self)
    }
}
