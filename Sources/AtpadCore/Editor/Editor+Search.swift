/// Triggers and searches (docs/keys.md, "Prompts and the chooser") and the completion
/// protocol (ARCHITECTURE.md, "The mention and search state machine"): when a search
/// starts, what its query is, when it ends, and how batches of results are taken in.
extension Editor {
    // MARK: - Trigger detection

    /// The configured trigger `s` stands for (`＠` acts as `@`), or nil.
    func trigger(for s: Unicode.Scalar) -> Unicode.Scalar? {
        let t = CharacterClass.triggerEquivalent(s)
        return config.triggers.contains(t) ? t : nil
    }

    /// Whether a trigger at `position` may start an explicit search: at the start of the
    /// text or after whitespace or opening punctuation (so never in `ab@c` or `\@`), and
    /// not inside inline code or a fenced code block (in Markdown formats: in prose as
    /// GitHub reads it).
    func canStartExplicit(at position: Int) -> Bool {
        if position > 0 {
            if storage.mention(endingAt: position) != nil { return false }
            guard opensTrigger(before: position) else { return false }
        }
        return mayMention(at: position)
    }

    /// Whether a mention may start at `position` (where a trigger is, or, with `probe`,
    /// where that trigger would be typed): in Markdown formats GitHub's rule
    /// (`isMarkdownProse`), in the others not in code (`isInCode`).
    /// Never in git's part of a git file (its comment lines, the diff under the scissors).
    func mayMention(at position: Int, probe: String? = nil) -> Bool {
        if config.git != nil, isGitsText(position) { return false }
        return config.markdown ? isMarkdownProse(position, probe: probe) : !isInCode(position)
    }

    /// Whether what comes before `position` lets a trigger there start a search: the start,
    /// whitespace or opening punctuation, or a run of emphasis marks (`**`, `_`, `~~`) that
    /// itself follows one of those (docs/behaviour.md, "Emphasis before a trigger").
    private func opensTrigger(before position: Int) -> Bool {
        guard let prev = storage.scalar(at: position - 1) else { return true }
        if CharacterClass.isWhitespace(prev) || CharacterClass.isOpening(prev) { return true }
        guard CharacterClass.isEmphasisMark(prev) else { return false }
        // Markdown's runs are short: a few marks at most are looked through.
        var p = position - 1
        while p > 0, position - p < 8, let s = storage.scalar(at: p - 1), CharacterClass.isEmphasisMark(s) { p -= 1 }
        if storage.mention(endingAt: p) != nil { return false }
        guard let before = storage.scalar(at: p - 1) else { return true }
        return CharacterClass.isWhitespace(before) || CharacterClass.isOpening(before)
    }

    /// Whether `position` is inside inline code (an unclosed backtick earlier on its line)
    /// or a fenced code block (an odd number of ``` fence lines before it).
    public func isInCode(_ position: Int) -> Bool {
        // Most documents have no backticks at all: answer that in O(log n).
        if storage.backticks(before: position) == 0 { return false }
        let lineStart = storage.lineStart(position)
        var inFence = false
        if lineStart > 0 {
            // CR LF is one Character, so it must be named as a separator of its own.
            for line in storage.slice(0..<lineStart).split(omittingEmptySubsequences: false, whereSeparator: {
                $0 == "\n" || $0 == "\r\n"
            })
            where line.drop(while: { $0 == " " }).hasPrefix("```") {
                inFence.toggle()
            }
        }
        let before = storage.slice(lineStart..<position)
        if inFence { return true }
        if before.drop(while: { $0 == " " }).hasPrefix("```") { return true }
        return before.reduce(0) { $0 + ($1 == "`" ? 1 : 0) } % 2 == 1
    }

    /// The end of the word that starts at `position` (word characters, stopping at a
    /// mention; at most 256 scalars). Word characters are classified by scalar (marks
    /// count as word characters), walking the storage's bytes without allocating.
    func wordEnd(from position: Int) -> Int {
        let limit = 256
        var stop = position + storage.scanForward(from: position, limit: limit, CharacterClass.isWord)
        if stop > position, let m = storage.mentions(overlapping: position..<stop).first {
            stop = max(position, m.range.lowerBound)
        }
        return storage.isBoundary(stop) ? stop : storage.previousBoundary(before: stop)
    }

    /// The start of the word that ends at `position` and how many characters it has
    /// (stopping at a separator or a mention's end; at most `cap` scalars).
    func wordStart(before position: Int, cap: Int = 64) -> (start: Int, length: Int) {
        var start = position - storage.scanBackward(from: position, limit: cap, CharacterClass.isWord)
        if start < position, let m = storage.mentions(overlapping: start..<position).last {
            start = min(position, m.range.upperBound)
        }
        if !storage.isBoundary(start) { start = storage.nextBoundary(after: start) }
        guard start < position else { return (position, 0) }
        // Count characters, not scalars: only short words need an exact count.
        let scalars = position - start
        let length = scalars > 8 ? scalars : storage.slice(start..<position).count
        return (start, length)
    }

    // MARK: - Starting, following and ending

    /// Starts an explicit search for the trigger at `position`.
    mutating func startExplicit(at position: Int, trigger t: Unicode.Scalar) {
        endSearch()
        search = Search(kind: .explicit, trigger: t, start: position, query: "", queryID: 0, sent: false)
        search?.quiet = config.quietTriggers.contains(t)
        if let trailers = config.personTrailers, t == "@" {
            search?.personTrailer = trailers.isTrailerKey(Substring(storage.slice(storage.lineStart(position)..<position)))
        }
        refreshQuery(force: true)
    }

    /// Re-targets `mention` (Ctrl-Space on a selected mention, docs/keys.md): a search whose
    /// query starts as the mention's name and is edited in the chooser; the text stays as
    /// it is until a pick replaces the mention.
    mutating func startRetarget(_ mention: Mention) {
        endSearch()
        var s = Search(kind: .explicit, trigger: mention.trigger, start: mention.range.lowerBound,
                       query: mention.name, queryID: 0, sent: false)
        s.retarget = mention
        // The name is there to keep or to type over: the first character replaces it.
        s.queryIsSelected = true
        search = s
        sendQuery()
    }

    /// Edits a re-targeting search's query (typing appends, Backspace removes the last
    /// character) and asks again. While the pre-filled name is selected, typing replaces
    /// it; Backspace keeps it for editing (removing its last character).
    mutating func editRetargetQuery(typing c: Character? = nil, _ edit: (inout String) -> Void) {
        guard var s = search, s.retarget != nil else { return }
        if s.queryIsSelected, let c {
            s.query = String(c)
        } else {
            edit(&s.query)
        }
        s.queryIsSelected = false
        search = s
        sendQuery()
    }

    /// Starts an implicit search when the word before the cursor has N word characters.
    mutating func maybeStartImplicit() {
        guard config.implicitThreshold > 0, config.format.searchesAsTyped, !dismissed, search == nil,
              selection.isEmpty else { return }
        let (start, length) = wordStart(before: cursor)
        guard length >= config.implicitThreshold else { return }
        // A word right after a trigger character belongs to explicit searches.
        if start > 0, let prev = storage.scalar(at: start - 1), trigger(for: prev) != nil { return }
        // Common words, and the beginnings of them, stay quiet
        // (docs/keys.md, "Implicit search: when it speaks up").
        guard !config.quietWords.silences(storage.slice(start..<cursor)) else { return }
        guard mayMention(at: start) else { return }
        search = Search(kind: .implicit, trigger: config.defaultTrigger, start: start, query: "", queryID: 0, sent: false)
        refreshQuery(force: true)
    }

    /// Recomputes the query from the text (the text after the trigger up to the cursor,
    /// plus the rest of the word after it) and sends it when it changed; ends the search
    /// when the cursor or trigger no longer allow it.
    mutating func refreshQuery(force: Bool = false) {
        guard var s = search else { return }
        // A re-targeting query lives in the chooser, not in the text.
        if s.retarget != nil { return force ? sendQuery() : () }
        let head = cursor
        guard selection.isEmpty else { return endSearch() }
        let query: String
        switch s.kind {
        case .explicit:
            guard head > s.start, let t = storage.scalar(at: s.start),
                  CharacterClass.triggerEquivalent(t) == s.trigger else { return endSearch() }
            query = storage.slice((s.start + 1)..<wordEnd(from: head))
            if query.unicodeScalars.contains(where: CharacterClass.isNewline) { return endSearch() }
        case .implicit:
            let (start, length) = wordStart(before: head)
            guard length >= config.implicitThreshold else { return endSearch() }
            s.start = start
            query = storage.slice(start..<wordEnd(from: head))
            if config.quietWords.silences(query) { return endSearch() }
        }
        if query != s.query || force {
            s.query = query
            search = s
            sendQuery()
        } else {
            search = s
        }
    }

    /// Gives the current search a new query id and sends it, or leaves it waiting while
    /// another request for the same trigger is in flight (coalescing: only the newest
    /// waiting query is sent when that one ends).
    private mutating func sendQuery() {
        guard var s = search else { return }
        s.queryID = nextQueryID
        nextQueryID += 1
        // The previous results stay until the first answer replaces them (no blink).
        s.showsPrevious = !s.items.isEmpty
        s.isFinal = false
        s.error = nil
        s.sent = false
        if s.quiet && s.query.count < 2 {
            // An insert-completion search asks nothing before two characters (`:)`,
            // `10:30` never show a chooser): it stands as a final, empty answer.
            s.items = []
            s.selected = 0
            s.scrollTop = 0
            s.showsPrevious = false
            s.isFinal = true
            s.sent = true
            search = s
            return
        }
        if let busy = inFlight[s.trigger] {
            if !busy.cancelled {
                pendingEffects.append(.cancel(id: busy.id))
                inFlight[s.trigger] = (busy.id, true)
            }
        } else {
            pendingEffects.append(.query(id: s.queryID, trigger: s.trigger, query: s.query))
            inFlight[s.trigger] = (s.queryID, false)
            s.sent = true
        }
        search = s
    }

    /// Ends the search in progress (cancelling its query if it is still running).
    /// `dismiss` makes it stick: nothing reopens by itself until a separator is typed.
    mutating func endSearch(dismiss: Bool = false) {
        if dismiss { dismissed = true }
        guard let s = search else { return }
        search = nil
        if let busy = inFlight[s.trigger], busy.id == s.queryID, !busy.cancelled {
            pendingEffects.append(.cancel(id: busy.id))
            inFlight[s.trigger] = (busy.id, true)
        }
    }

    /// Asks the open search's query again when it searches `trigger`'s directory (whose
    /// answer changed: the conversation's participants arrived). The results shown stay
    /// until the new answer replaces them.
    public mutating func askAgain(trigger: Unicode.Scalar) -> [Effect] {
        guard let s = search, s.trigger == trigger else { return [] }
        refreshQuery(force: true)
        return takeEffects()
    }

    // MARK: - Results

    /// Takes in an answer from a source: appends a batch (dropping ids already shown),
    /// marks the end, records a failure; anything for a stale query is ignored.
    public mutating func receive(_ event: CompletionEvent) -> [Effect] {
        switch event {
        case let .batch(id, candidates, isFinal):
            if var s = search, s.queryID == id, let correction = s.correction {
                s.items = Editor.correctionRows(candidates, word: correction.word)
                s.isFinal = true
                search = s
            } else if var s = search, s.queryID == id {
                s.dropPreviousResults()
                var seen = Set(s.items.map(\.entity.id))
                // An implicit search shows strong matches only (docs/keys.md; a source that
                // does not rank, a command or URL, is taken as it answers).
                for c in candidates where !seen.contains(c.entity.id) && (s.kind == .explicit || c.isStrong != false) {
                    seen.insert(c.entity.id)
                    s.items.append(s.personTrailer ? PersonTrailers.candidate(c) : c)
                }
                if isFinal { s.isFinal = true }
                search = s
            }
            if isFinal { finishRequest(id) }
        case let .failed(id, message):
            if var s = search, s.queryID == id {
                s.error = message
                s.dropPreviousResults()
                search = s
            }
            finishRequest(id)
        case let .ended(id):
            finishRequest(id)
        }
        return takeEffects()
    }

    /// Frees the in-flight slot of `id` and sends the query that waited for it.
    private mutating func finishRequest(_ id: Int) {
        guard let (trigger, _) = inFlight.first(where: { $0.value.id == id }) else { return }
        inFlight[trigger] = nil
        if let s = search, s.trigger == trigger, !s.sent {
            pendingEffects.append(.query(id: s.queryID, trigger: s.trigger, query: s.query))
            inFlight[trigger] = (s.queryID, false)
            search?.sent = true
        }
    }

    // MARK: - Chooser navigation

    /// Moves the highlighted result by `delta`, clamped, scrolling to keep it visible.
    mutating func moveSelection(by delta: Int) {
        guard var s = search, !s.items.isEmpty else { return }
        s.selected = min(max(s.selected + delta, 0), s.items.count - 1)
        let rows = max(1, config.chooserRows)
        if s.selected < s.scrollTop { s.scrollTop = s.selected }
        if s.selected >= s.scrollTop + rows { s.scrollTop = s.selected - rows + 1 }
        search = s
    }
}
