import AtpadCore

/// What the chooser shows, whatever its shape (a popup box or a one-line picker): each
/// result's name and detail as safe cells, the status row, and which results are in view.
struct ChooserContent {
    let search: Search
    /// The search's directory is still being read.
    var directoryLoading = false

    var count: Int { search.items.count }
    var selected: Int { min(max(search.selected, 0), max(0, count - 1)) }

    /// The status row: the source's error, "searching…" before the first results, or
    /// "no matches" for a finished search that found nothing.
    var status: String? {
        if let error = search.error { return error }
        guard search.items.isEmpty else { return nil }
        guard search.isLoading else { return "no matches" }
        return directoryLoading ? "loading directory…" : "searching…"
    }

    /// More results may still come while some are shown (a quieter sign than the row).
    var isLoadingMore: Bool { search.isLoading && !search.items.isEmpty }

    /// The name of result `i`, its matched characters emphasised unless the row is selected
    /// (the selected row is one colour, so it reads as one bar), after the emoji it
    /// inserts if it is an emoji completion (`👍 thumbs up`). Long clusters are numbered
    /// in `clusters`, the table of the screen drawn.
    func name(_ i: Int, clusters: inout LongClusters) -> [ScreenCell] {
        let candidate = search.items[i]
        let role: Role = i == selected ? .chooserSelected : .chooser
        let mark = candidate.participantRole == nil ? "" : Self.participantMark + " "
        let glyph = (Self.emoji(of: candidate.entity).map { mark + $0 + " " } ?? (mark.isEmpty ? nil : mark))
            .map { VisibleText.cells($0, role: role, clusters: &clusters) } ?? []
        if i == selected { return glyph + VisibleText.cells(candidate.entity.name, role: role, clusters: &clusters) }
        return glyph + VisibleText.cells(candidate.entity.name, role: role, emphasis: candidate.matches,
                                         emphasisRole: .chooserMatch, clusters: &clusters)
    }

    /// What an insert completion inserts when that is one emoji (one grapheme cluster
    /// whose first code point is an emoji drawn as one: 👍, ❤️, 👩‍👩‍👧‍👦, #️⃣), as every entry
    /// of the bundled emoji directory has; nil for anything else (`#12`, a mention, a
    /// lone `©` or digit), whose name is drawn alone.
    static func emoji(of entity: Entity) -> String? {
        guard let insert = entity.insert, insert.count == 1, let first = insert.unicodeScalars.first,
              !first.isASCII || insert.unicodeScalars.count > 1, first.properties.isEmoji,
              first.properties.isEmojiPresentation || insert.unicodeScalars.count > 1 else { return nil }
        return insert
    }

    /// The mark before a participant's name
    /// (docs/posting.md, "Participants: the conversation's people first").
    static let participantMark = "●"

    /// The detail of result `i`: a participant's role, the handle (with the search's
    /// trigger, `@jdoe`) and the directory's detail text, or nothing.
    func detail(_ i: Int, clusters: inout LongClusters) -> [ScreenCell] {
        let entity = search.items[i].entity
        let parts = [search.items[i].participantRole,
                     entity.handle.flatMap { $0.isEmpty ? nil : String(Character(search.trigger)) + $0 },
                     entity.detail.flatMap { $0.isEmpty ? nil : $0 }].compactMap { $0 }
        return VisibleText.cells(parts.joined(separator: " · "), role: i == selected ? .chooserSelected : .chooserDetail,
                                 clusters: &clusters)
    }

    /// The results in view when `rows` rows show them: from the core's scroll position,
    /// moved as little as needed to keep the selected one in view (the box may have fewer
    /// rows than the core scrolls for).
    func window(rows: Int) -> Range<Int> {
        let rows = max(0, min(rows, count))
        guard rows > 0 else { return 0..<0 }
        var first = min(max(search.scrollTop, 0), count - rows)
        if selected < first { first = selected }
        if selected >= first + rows { first = selected - rows + 1 }
        return first ..< first + rows
    }
}
