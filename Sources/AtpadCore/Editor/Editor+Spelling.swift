/// Spelling in the editor (docs/spelling.md, "In the editor"): the marks a background check
/// found, taken only for the text it was made for; the words drawn as misspelt; F7's
/// chooser of corrections.
extension Editor {
    /// The ids of the chooser's last two rows of a correction.
    public static let addWordRowID = "spelling.add"
    public static let ignoreWordRowID = "spelling.ignore"

    /// Takes the misspelt words a check of the text at `version` found, and returns
    /// whether it did: a check of another version is dropped, since the text has moved on
    /// (the check of the text as it is now follows).
    @discardableResult
    public mutating func takeMisspellings(_ found: [SpellMarks.Mark], version: Int) -> Bool {
        guard version == self.version else { return false }
        spelling.take(found, version: version)
        return true
    }

    /// Takes the misspelt words a check of `regions` of the text at `version` found (the
    /// words edited since the last check and the rows in view), and returns whether it did.
    @discardableResult
    public mutating func takeMisspellings(_ found: [SpellMarks.Mark], in regions: [Range<Int>], version: Int) -> Bool {
        guard version == self.version else { return false }
        spelling.take(found, in: regions)
        return true
    }

    /// What a check of part of the text looks at first (docs/spelling.md, "In the editor"):
    /// the text edited since the last check and the rows in view, `visible`, each widened
    /// to whole blocks of Markdown (what is code there depends on the lines around it) or
    /// to whole lines; sorted, apart. Nil when that is not much less than the whole text —
    /// a short text, or edits far apart — or in git's files (their comments depend on the
    /// whole file): the whole text is checked at once then.
    public func spellingRegions(visible: Range<Int>) -> [Range<Int>]? {
        guard config.git == nil, storage.count > Self.partialSpellingFloor else { return nil }
        let count = storage.count
        func widened(_ r: Range<Int>) -> Range<Int> {
            let clamped = min(max(r.lowerBound, 0), count) ..< min(max(r.upperBound, 0), count)
            if config.markdown { return (markdownBlocks ?? MarkdownBlocks(storage)).window(around: clamped, in: storage) }
            return storage.lineStart(clamped.lowerBound) ..< storage.lineEnd(clamped.upperBound)
        }
        var regions = [widened(visible)]
        if let edited = spelling.edited {
            let r = widened(edited)
            if r.upperBound < regions[0].lowerBound {
                regions.insert(r, at: 0)
            } else if r.lowerBound > regions[0].upperBound {
                regions.append(r)
            } else {
                regions = [min(r.lowerBound, regions[0].lowerBound) ..< max(r.upperBound, regions[0].upperBound)]
            }
        }
        return regions.reduce(0) { $0 + $1.count } * 4 < count ? regions : nil
    }

    /// Texts up to this many scalars are always checked whole: it takes a few milliseconds.
    static let partialSpellingFloor = 16_384

    /// The misspelt words to draw in `visible`: every mark there but the word being typed
    /// (the cursor inside it or at its end), which waits until the cursor leaves it.
    public func misspellings(in visible: Range<Int>) -> [Range<Int>] {
        let marks = spelling.marks(overlapping: visible)
        guard !marks.isEmpty else { return [] }
        let typing = selection.isEmpty ? cursor : -1
        return marks.compactMap { $0.range.lowerBound < typing && typing <= $0.range.upperBound ? nil : $0.range }
    }

    /// F7 (`after` false: the misspelt word at or after the cursor) and Alt-N (`after`:
    /// the one after it): puts the cursor at its start and opens the chooser of its
    /// corrections, asking for the word's suggestions. The search wraps at the end.
    mutating func correctSpelling(after: Bool) {
        endSearch()
        let from = selection.range.lowerBound
        let mark = after ? spelling.next(after: from)
            : spelling.words.first { $0.range.upperBound >= from } ?? spelling.words.first
        guard let mark else {
            pendingEffects.append(.notice(!config.checksSpelling ? "Spelling is off"
                                          : spelling.checkedVersion == nil ? "Spelling is being checked"
                                          : "No misspelt words"))
            return
        }
        motion(to: mark.range.lowerBound, extend: false)
        let id = nextQueryID
        nextQueryID += 1
        var s = Search(kind: .explicit, trigger: config.defaultTrigger, start: mark.range.lowerBound, query: "",
                       queryID: id, sent: true)
        s.correction = Search.Correction(range: mark.range, word: mark.word)
        search = s
        pendingEffects.append(.suggest(queryID: id, word: mark.word))
    }

    /// The rows of a correction's chooser: the suggestions, then "Add WORD to my words"
    /// and "Ignore WORD in this document".
    static func correctionRows(_ suggestions: [Candidate], word: String) -> [Candidate] {
        suggestions.map { Candidate(entity: Entity(id: "spelling:" + $0.entity.name, name: $0.entity.name)) } + [
            Candidate(entity: Entity(id: addWordRowID, name: "Add \(word) to my words")),
            Candidate(entity: Entity(id: ignoreWordRowID, name: "Ignore \(word) in this document")),
        ]
    }

    /// Picks row `index` of a correction's chooser: a suggestion replaces the word (one
    /// transaction, one undo step); the last rows add the word to the personal list or
    /// ignore it in this document, and its marks go at once.
    mutating func pickCorrection(_ index: Int, _ correction: Search.Correction) {
        guard let s = search, index >= 0, index < s.items.count else { return }
        let entity = s.items[index].entity
        endSearch()
        switch entity.id {
        case Self.addWordRowID:
            spelling.forget(correction.word)
            pendingEffects.append(.addWord(correction.word))
        case Self.ignoreWordRowID:
            spelling.ignore(correction.word)
        default:
            // The word as it is still (a check may not have come since): replaced whole.
            guard storage.slice(correction.range) == correction.word else { return }
            let text = entity.name
            apply(replacing(correction.range, with: text),
                  selectionAfter: .cursor(correction.range.lowerBound + text.unicodeScalars.count))
            breakUndoCoalescing()
        }
    }
}
