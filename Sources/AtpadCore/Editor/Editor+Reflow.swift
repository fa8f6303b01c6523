/// Alt-Q: the paragraph at the cursor, or those the selection touches, refilled to the
/// body width (``Reflow``, docs/git.md, "Reflow").
extension Editor {
    mutating func reflow() {
        endSearch()
        let text = storage.slice(0 ..< storage.count)
        let scalars = Array(text.unicodeScalars)
        let mentions = storage.allMentions
        let protected = mentions.map(\.range) + Reflow.codeSpans(scalars)
        let range = selection.isEmpty ? cursor ..< cursor : selection.range
        switch Reflow.plan(scalars, protected: protected, from: range.lowerBound, to: range.upperBound,
                           width: config.bodyWidth, comment: config.git?.comment, stop: gitScissors) {
        case .failure(.notProse):
            pendingEffects.append(.notice("Not reflowed: lists, quotes, tables, code and trailers keep their lines"))
        case .failure(.nothing):
            pendingEffects.append(.notice("Nothing to reflow here"))
        case let .success(plan):
            var moved: [Mention] = []
            for (m, new) in zip(mentions, plan.moved) {
                guard let new else { continue }
                var m = m
                m.range = new
                moved.append(m)
            }
            let end = plan.range.lowerBound + plan.text.unicodeScalars.count
            apply(replacing(plan.range, with: plan.text, mentions: moved), selectionAfter: .cursor(end))
            breakUndoCoalescing()
        }
    }
}
