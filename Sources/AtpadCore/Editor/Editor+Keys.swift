/// Maps each key to what it does, given the state: chooser keys first while a search owns
/// them, then editing and motion. This is the only entry point for keys.
extension Editor {
    /// Handles one key and returns the effects the app must run.
    public mutating func handle(_ key: Key) -> [Effect] {
        if !Editor.isVertical(key) { goalColumn = nil }
        let held = selectedMention
        let spaceAfterPick = addedSpace
        addedSpace = nil
        if key != .backspace && key != .delete { selectedMention = nil }
        if handleChooserKey(key) { return takeEffects() }
        // Any other key ends a re-targeting search first (the mention stays as it was).
        if search?.retarget != nil { endSearch() }
        if key == .escape {
            // Esc unselects a selected mention or a selection; it never edits.
            if held == nil && !selection.isEmpty { selection = .cursor(cursor) }
            if search != nil { endSearch(dismiss: true) }
            return takeEffects()
        }
        switch key {
        case let .char(c):
            if let at = spaceAfterPick, closesAfterPick(c, space: at) {
                replaceAddedSpace(at, with: c)
            } else if let at = spaceAfterPick, c == " ", isRightAfter(space: at) {
                keepAddedSpace()
            } else {
                type(c)
            }
        case .enter:
            // Enter right after a pick takes its space: no trailing whitespace (SPEC §6).
            if let at = spaceAfterPick, isRightAfter(space: at) {
                replaceAddedSpace(at, with: Character(lineEnding))
            } else {
                type(Character(lineEnding))
            }
        case .tab: type("\t")
        case .backTab: break
        case .backspace: backspace(held: held)
        case .delete: deleteForward(held: held)
        case .left: motion(to: selection.isEmpty ? stepLeft(from: cursor) : selection.range.lowerBound, extend: false)
        case .right: motion(to: selection.isEmpty ? stepRight(from: cursor) : selection.range.upperBound, extend: false)
        case .shiftLeft: motion(to: stepLeft(from: cursor), extend: true)
        case .shiftRight: motion(to: stepRight(from: cursor), extend: true)
        case .up: vertical(-1, extend: false)
        case .down: vertical(1, extend: false)
        case .shiftUp: vertical(-1, extend: true)
        case .shiftDown: vertical(1, extend: true)
        case .pageUp: vertical(-max(1, config.pageRows), extend: false)
        case .pageDown: vertical(max(1, config.pageRows), extend: false)
        case .home, .ctrl("a"): motion(to: storage.lineStart(cursor), extend: false)
        case .end, .ctrl("e"): motion(to: storage.lineEnd(cursor), extend: false)
        case .shiftHome: motion(to: storage.lineStart(cursor), extend: true)
        case .shiftEnd: motion(to: storage.lineEnd(cursor), extend: true)
        case .ctrlHome: motion(to: 0, extend: false)
        case .ctrlEnd: motion(to: storage.count, extend: false)
        case .ctrlLeft, .alt("b"): motion(to: wordLeft(from: cursor), extend: false)
        case .ctrlRight, .alt("f"): motion(to: wordRight(from: cursor), extend: false)
        case .ctrl("w"), .altBackspace: deleteRange(selection.isEmpty ? wordLeft(from: cursor)..<cursor : selection.range)
        case .alt("d"): deleteRange(selection.isEmpty ? cursor..<wordRight(from: cursor) : selection.range)
        case .ctrl("k"):
            let end = storage.lineEnd(cursor)
            // At a line's end, the whole line break goes (both scalars of a CR LF).
            deleteRange(cursor..<(end == cursor ? end + storage.lineBreakLength(at: end) : end))
        case .ctrl("u"): deleteRange(storage.lineStart(cursor)..<cursor)
        case .ctrl("z"): undo()
        case .ctrl("y"): redo()
        case .ctrl("c"): copy(held: held)
        case .ctrl("x"): cut()
        case .ctrl("v"): if let clip = clipboard { insert(clip) }
        case .ctrlSpace:
            // A kept construct names no one: there is nothing to re-target.
            if let m = held, !m.isKept, selection.isEmpty { startRetarget(m) } else { mentionHere() }
        case let .paste(text): paste(text)
        default: break  // Ctrl-S, Ctrl-Q, F1 and unbound keys belong to the app or nothing
        }
        return takeEffects()
    }

    private static func isVertical(_ key: Key) -> Bool {
        switch key {
        case .up, .down, .shiftUp, .shiftDown, .pageUp, .pageDown: return true
        default: return false
        }
    }

    private mutating func vertical(_ rows: Int, extend: Bool) {
        var goal = goalColumn
        let target = verticalTarget(from: cursor, rows: rows, goal: &goal)
        motion(to: target, extend: extend)
        goalColumn = goal
    }

    /// Keys the chooser takes while a search is open (SPEC §5); returns false for keys it
    /// leaves to the editor. An implicit chooser never steals Enter or arrows.
    private mutating func handleChooserKey(_ key: Key) -> Bool {
        guard let s = search else { return false }
        let rows = max(1, config.chooserRows)
        if case let .alt(c) = key, let d = c.wholeNumberValue, (1...9).contains(d), s.isOpen {
            let index = s.scrollTop + d - 1
            if index < s.items.count { pick(index) }
            return true
        }
        if key == .escape {
            endSearch(dismiss: true)
            // Esc leaves a re-targeted mention as it was: still selected.
            if let m = s.retarget { selectedMention = m }
            return true
        }
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
        switch s.hasImplicitKeys ? .implicit : s.kind {
        case .explicit:
            switch key {
            case .up, .down:
                guard !s.items.isEmpty else { return false }
                moveSelection(by: key == .up ? -1 : 1)
            case .ctrl("p"), .backTab: moveSelection(by: -1)
            case .ctrl("n"): moveSelection(by: 1)
            case .pageUp: moveSelection(by: -rows)
            case .pageDown: moveSelection(by: rows)
            case .enter, .tab:
                guard !s.items.isEmpty else { return false }
                pick(s.selected)
            default: return false
            }
            return true
        case .implicit:
            switch key {
            case .tab:
                guard !s.items.isEmpty else { return false }
                pick(s.selected)
            case .ctrl("n"), .ctrl("p"):
                guard !s.items.isEmpty else { return true }
                search?.navigated = true
                moveSelection(by: key == .ctrl("n") ? 1 : -1)
            case .enter:
                guard s.navigated, !s.items.isEmpty else { return false }
                pick(s.selected)
            default: return false
            }
            return true
        }
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
        apply([.replace(range, with: String(c), mentions: [])],
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
        if let t = trigger(for: first), c.unicodeScalars.count == 1, canStartExplicit(at: p) {
            startExplicit(at: p, trigger: t)
            return
        }
        if CharacterClass.isWord(first) {
            if defersImplicitSearch && search.map({ $0.kind == .implicit && !$0.isOpen }) ?? true {
                implicitSearchPending = true
                return
            }
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
        apply([.replace(at..<at + 1, with: String(c), mentions: [])],
              selectionAfter: .cursor(at + c.unicodeScalars.count))
        breakUndoCoalescing()
        dismissed = false
    }

    /// A space typed right after a pick is the one the pick added: nothing is inserted
    /// (`@John Doe ` never becomes `@John Doe  `), and the space is the person's now.
    private mutating func keepAddedSpace() {
        endSearch()
        breakUndoCoalescing()
        dismissed = false
    }

    /// Ctrl-Space (SPEC §3): an explicit search at the cursor with the default trigger.
    /// Right after a trigger (and its query) it reopens that search; right after a word it
    /// puts the trigger before the word and searches for it; else it inserts the trigger.
    private mutating func mentionHere() {
        let t = config.defaultTrigger
        guard !isInCode(cursor) else { return }
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
                    apply([.replace(start..<start, with: String(Character(t)), mentions: [])],
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
        apply([.replace(range, with: String(Character(t)), mentions: [])], selectionAfter: .cursor(p + 1), undo: .typing,
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
