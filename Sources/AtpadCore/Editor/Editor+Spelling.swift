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
    /// corrections, asking for Hunspell's suggestions. The search wraps at the end.
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
