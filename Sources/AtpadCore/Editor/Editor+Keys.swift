/// Runs each key's command from ``Keymap``, given the state: the chooser's bindings first
/// while a search owns them, then editing and motion. This is the only entry point for keys.
extension Editor {
    /// Handles one key and returns the effects the app must run.
    public mutating func handle(_ key: Key) -> [Effect] {
        let command = Keymap.command(for: key, in: .editing)
        if command?.isVerticalMotion != true { goalColumn = nil }
        let held = selectedMention
        let spaceAfterPick = addedSpace
        addedSpace = nil
        if command != .backspace && command != .deleteForward { selectedMention = nil }
        if handleChooserKey(key) { return takeEffects() }
        // Any other key ends a re-targeting search first (the mention stays as it was),
        // and a correction's chooser (the word stays as it was).
        if search?.retarget != nil || search?.correction != nil { endSearch() }
        switch key {
        case let .char(c):
            if let at = spaceAfterPick, closesAfterPick(c, space: at) {
                replaceAddedSpace(at, with: c)
            } else if let at = spaceAfterPick, c == " ", isRightAfter(space: at) {
                keepAddedSpace(at)
            } else {
                type(c)
            }
            return takeEffects()
        case let .paste(text):
            paste(text)
            return takeEffects()
        default:
            break
        }
        switch command {
        case .unselect?:
            // Esc unselects a selected mention or a selection; it never edits.
            if held == nil && !selection.isEmpty { selection = .cursor(cursor) }
            if search != nil { endSearch(dismiss: true) }
        case .newline?:
            // Enter right after a pick takes its space: no trailing whitespace
            // (docs/keys.md, "Prompts and the chooser").
            if let at = spaceAfterPick, isRightAfter(space: at) {
                replaceAddedSpace(at, with: Character(lineEnding))
            } else {
                type(Character(lineEnding))
            }
        case .insertTab?: type("\t")
        case .backspace?: backspace(held: held)
        case .deleteForward?: deleteForward(held: held)
        case let .move(motion)?: move(motion, extend: false)
        case let .select(motion)?: move(motion, extend: true)
        case .deleteWordBack?: deleteRange(selection.isEmpty ? wordLeft(from: cursor)..<cursor : selection.range)
        case .deleteWordForward?: deleteRange(selection.isEmpty ? cursor..<wordRight(from: cursor) : selection.range)
        case .deleteToLineEnd?:
            let end = storage.lineEnd(cursor)
            // At a line's end, the whole line break goes (both scalars of a CR LF).
            deleteRange(cursor..<(end == cursor ? end + storage.lineBreakLength(at: end) : end))
        case .deleteToLineStart?: deleteRange(storage.lineStart(cursor)..<cursor)
        case .undo?: undo()
        case .redo?: redo()
        case .copy?: copy(held: held)
        case .cut?: cut()
        case .paste?: if let clip = clipboard { insert(clip) }
        case .signOff?: signOff()
        case .reflow?: reflow()
        case .correctSpelling?: correctSpelling(after: false)
        case .nextMisspelling?: correctSpelling(after: true)
        case .mentionHere?:
            // A kept construct names no one: there is nothing to re-target.
            if let m = held, !m.isKept, selection.isEmpty { startRetarget(m) } else { mentionHere() }
        default: break  // the app's commands (save, find, quit…), and unbound keys
        }
        return takeEffects()
    }

    /// A motion; plain Left/Right over a selection go to its edge instead of stepping.
    private mutating func move(_ direction: Motion, extend: Bool) {
        switch direction {
        case .left:
            motion(to: selection.isEmpty || extend ? stepLeft(from: cursor) : selection.range.lowerBound, extend: extend)
        case .right:
            motion(to: selection.isEmpty || extend ? stepRight(from: cursor) : selection.range.upperBound, extend: extend)
        case .up: vertical(-1, extend: extend)
        case .down: vertical(1, extend: extend)
        case .pageUp: vertical(-max(1, config.pageRows), extend: extend)
        case .pageDown: vertical(max(1, config.pageRows), extend: extend)
        case .lineStart: motion(to: storage.lineStart(cursor), extend: extend)
        case .lineEnd: motion(to: storage.lineEnd(cursor), extend: extend)
        case .wordLeft: motion(to: wordLeft(from: cursor), extend: extend)
        case .wordRight: motion(to: wordRight(from: cursor), extend: extend)
        case .documentStart: motion(to: 0, extend: extend)
        case .documentEnd: motion(to: storage.count, extend: extend)
        }
    }

    private mutating func vertical(_ rows: Int, extend: Bool) {
        var goal = goalColumn
        let target = verticalTarget(from: cursor, rows: rows, goal: &goal)
        motion(to: target, extend: extend)
        goalColumn = goal
    }

    /// Keys the chooser takes while a search is open
    /// (docs/keys.md, "Prompts and the chooser"), by the chooser's bindings in ``Keymap``;
    /// returns false for keys it leaves to the editor. An implicit (quiet) chooser never
    /// steals Enter or arrows.
    private mutating func handleChooserKey(_ key: Key) -> Bool {
        guard let s = search else { return false }
        if s.retarget != nil {
            // The query is edited in the chooser's first row, never in the text.
            switch key {
            case let .char(c):
                editRetargetQuery(typing: c) { $0.append(c) }
                return true
            case .backspace:
                editRetargetQuery { if !$0.isEmpty { $0.removeLast() } }
                return true
            default: break
            }
        }
        let quiet = s.hasImplicitKeys || s.kind == .implicit
        let rows = max(1, config.chooserRows)
        switch Keymap.command(for: key, in: quiet ? .quietChooser : .chooser) {
        case let .pickRow(n)?:
            guard s.isOpen else { return false }
            let index = s.scrollTop + n - 1
            if index < s.items.count { pick(index) }
        case .dismiss?:
            // A correction's chooser was no search the person started: nothing to keep closed.
            endSearch(dismiss: s.correction == nil)
            // Esc leaves a re-targeted mention as it was: still selected.
            if let m = s.retarget { selectedMention = m }
        case let step? where step == .chooseNext || step == .choosePrevious:
            if quiet {
                guard !s.items.isEmpty else { return true }
                search?.navigated = true
            } else if key == .up || key == .down, s.items.isEmpty {
                // With nothing to choose, the arrows move in the text.
                return false
            }
            moveSelection(by: step == .chooseNext ? 1 : -1)
        case .choosePageUp?: moveSelection(by: -rows)
        case .choosePageDown?: moveSelection(by: rows)
        case .pick?:
            // A quiet chooser takes Enter only once Tab or Ctrl-N/P chose something.
            guard !s.items.isEmpty, !quiet || key != .enter || s.navigated else { return false }
            pick(s.selected)
        default:
            return false
        }
        return true
    }

    // MARK: - Typing

    /// Types one character at the cursor (replacing a selection) and steps the search
    /// state machine: a trigger may start a search, a space or newline may end one, a word
    /// character may start or narrow an implicit one.
    mutating func type(_ c: Character) {
        guard let first = c.unicodeScalars.first else { return }
        // Over a selection this is one replacement, so one undo step brings the selected
        // text back; later typing coalesces into it (the step ends at the cursor).
        if !selection.isEmpty { endSearch() }
        let range = selection.range
        let p = range.lowerBound
        let blank = CharacterClass.isWhitespace(first)
        apply(replacing(range, with: String(c)),
              selectionAfter: .cursor(p + c.unicodeScalars.count), undo: .typing,
              startsWord: !blank, endsWithBlank: blank)

        if let s = search, s.kind == .explicit {
            if CharacterClass.isNewline(first) {
                endSearch()
            } else if CharacterClass.isBlank(first) {
                let secondSpace = storage.scalar(at: p - 1).map(CharacterClass.isBlank) ?? false
                if s.query.isEmpty || (s.isFinal && s.items.isEmpty) || secondSpace {
                    endSearch()
                } else {
                    refreshQuery()
                }
            } else {
                refreshQuery()
            }
            return
        }
        // In `text` (code, data) no trigger starts a search by itself: only Ctrl-Space does.
        if config.format.searchesAsTyped, let t = trigger(for: first), c.unicodeScalars.count == 1,
           canStartExplicit(at: p) {
            startExplicit(at: p, trigger: t)
            return
        }
        if CharacterClass.isWord(first) {
            if search?.kind == .implicit { refreshQuery() } else { maybeStartImplicit() }
        } else {
            endSearch()
            dismissed = false
        }
    }

    /// Whether the cursor is still just after the space a pick added at `space`.
    private func isRightAfter(space: Int) -> Bool {
        selection.isEmpty && cursor == space + 1 && storage.scalar(at: space) == " "
    }

    /// Whether `c`, typed right after a pick, takes the place of the space it added at
    /// `space`: closing punctuation, or a Markdown emphasis mark closing around the
    /// mention (`**@jdoe**`, as `*`, `_`, `~` open before a trigger), with the cursor still
    /// just after that space.
    private func closesAfterPick(_ c: Character, space: Int) -> Bool {
        guard isRightAfter(space: space), c.unicodeScalars.count == 1, let s = c.unicodeScalars.first else { return false }
        return CharacterClass.isClosing(s) || CharacterClass.isEmphasisMark(s)
    }

    /// Puts closing punctuation (or a line break) where a pick's added space was
    /// (`@John Doe!`), as its own undo step, so undo brings the space back.
    private mutating func replaceAddedSpace(_ at: Int, with c: Character) {
        endSearch()
        apply(replacing(at..<at + 1, with: String(c)), selectionAfter: .cursor(at + c.unicodeScalars.count))
        breakUndoCoalescing()
        dismissed = false
    }

    /// A space typed right after a pick is the one the pick added: nothing is inserted
    /// (`@John Doe ` never becomes `@John Doe  `), and the space is the person's now (no
    /// longer soft: it is written even last on its line).
    private mutating func keepAddedSpace(_ at: Int) {
        softSpaces.removeAll { $0 == at }
        // The pick's step (on top) leads to it as the person's: redo brings it back so.
        history.setSoftSpacesAfterTop(softSpaces)
        endSearch()
        breakUndoCoalescing()
        dismissed = false
    }

    /// Ctrl-Space (docs/keys.md, "Every key"): an explicit search at the cursor with the
    /// default trigger. Right after a trigger (and its query) it reopens that search; right
    /// after a word it puts the trigger before the word and searches for it; else it
    /// inserts the trigger.
    private mutating func mentionHere() {
        let t = config.defaultTrigger
        guard mayMention(at: cursor, probe: String(Character(t))) else { return }
        if selection.isEmpty, storage.mention(endingAt: cursor) == nil {
            if let prev = storage.scalar(at: cursor - 1), trigger(for: prev) == t {
                dismissed = false
                startExplicit(at: cursor - 1, trigger: t)
                return
            }
            let (start, length) = wordStart(before: cursor)
            if length > 0, storage.mention(endingAt: start) == nil {
                if start > 0, let prev = storage.scalar(at: start - 1), trigger(for: prev) == t,
                   canStartExplicit(at: start - 1) {
                    // `@jd|` after Esc: the dismissed search opens again (never `@jd@`).
                    dismissed = false
                    startExplicit(at: start - 1, trigger: t)
                    return
                }
                if canStartExplicit(at: start) {
                    // `hi jd|` → `hi @jd|`, searching for `jd`.
                    endSearch()
                    apply(replacing(start..<start, with: String(Character(t))),
                          selectionAfter: .cursor(cursor + 1))
                    breakUndoCoalescing()
                    dismissed = false
                    startExplicit(at: start, trigger: t)
                    return
                }
            }
        }
        // The trigger replaces a selection in the same step.
        let range = selection.range
        let p = range.lowerBound
        apply(replacing(range, with: String(Character(t))), selectionAfter: .cursor(p + 1), undo: .typing,
              startsWord: true)
        dismissed = false
        startExplicit(at: p, trigger: t)
    }
}

// MARK: - Pointer actions

extension Editor {
    /// A mouse click or drag at a document position: moves the cursor (extending the
    /// selection when dragging), snapping out of mentions; like any motion it ends a search.
    public mutating func click(at position: Int, extend: Bool = false) -> [Effect] {
        selectedMention = nil
        goalColumn = nil
        motion(to: position, extend: extend)
        return takeEffects()
    }

    /// Picks result `index` of the open chooser (a click on its row).
    public mutating func pickResult(_ index: Int) -> [Effect] {
        selectedMention = nil
        pick(index)
        return takeEffects()
    }
}
