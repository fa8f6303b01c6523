import AtpadCore

/// Alt-R: `Replace:`, `With:`, then `Replace? (y)es (n)o (a)ll` at each match from the
/// cursor to the end, wrapping to the start and stopping where it began. Every
/// replacement of one run joins one undo group, so one Ctrl-Z takes them all back; (a)ll
/// replaces the rest as one change.
extension AppModel {
    mutating func startReplace(_ search: String, with replacement: String) -> [AppEffect] {
        // Replace never edits inside a mention or a kept construct: those matches are only
        // counted (docs/editor.md, "Find and replace"); nor in git's diff (docs/git.md).
        let (matches, skipped, inDiff) = editor.outsideTokens(editor.matches(of: search))
        let origin = editor.cursor
        // A match across the starting point is never asked about.
        let walk = matches.filter { $0.lowerBound >= origin } + matches.filter { $0.upperBound <= origin }
        guard !walk.isEmpty else {
            mode = .editing
            let note = AppModel.skippedNote(skipped, inDiff: inDiff)
            let place = inDiff == 0 ? "outside mentions" : skipped == 0 ? "above git's diff" : "outside mentions and git's diff"
            message = note.isEmpty ? "No matches for \(search)" : "No matches for \(search) \(place) (\(note))"
            return []
        }
        replaceGroups += 1
        return ask(ReplaceRun(search: search, replacement: replacement, group: replaceGroups, walk: walk[...],
                              matches: matches, skipped: skipped, inDiff: inDiff))
    }

    /// `1 inside a mention skipped`, `3 inside mentions skipped`, `2 in git's diff
    /// skipped`, both joined by `, `; empty when nothing was.
    static func skippedNote(_ n: Int, inDiff: Int = 0) -> String {
        var notes: [String] = []
        if n > 0 { notes.append(n == 1 ? "1 inside a mention skipped" : "\(n) inside mentions skipped") }
        if inDiff > 0 { notes.append("\(inDiff) in git's diff skipped") }
        return notes.joined(separator: ", ")
    }

    mutating func answerReplace(_ run: ReplaceRun, _ key: Key) -> [AppEffect] {
        var run = run
        switch Keymap.command(for: key, in: .replaceQuestion) {
        case .yes?:
            let current = run.current
            let (changes, effects) = editor.replace([current], with: run.replacement, group: run.group)
            run.replaced += 1
            run.walk.removeFirst()
            run.matches.removeAll { $0 == current }
            run.map(through: changes)
            return core(effects) + next(run)
        case .no?:
            run.walk.removeFirst()
            return next(run)
        case .all?:
            let effects = core(editor.replace(Array(run.walk), with: run.replacement, group: run.group).effects)
            run.replaced += run.walk.count
            return effects + finish(run)
        case .cancel?:
            return finish(run)
        case .quit?:
            return finish(run) + requestQuit()
        default:
            return []
        }
    }

    /// Asks about the next match of the walk, or ends it.
    private mutating func next(_ run: ReplaceRun) -> [AppEffect] {
        run.walk.isEmpty ? finish(run) : ask(run)
    }

    private mutating func ask(_ run: ReplaceRun) -> [AppEffect] {
        mode = .replaceQuestion(run)
        message = ""
        return core(editor.select(.cursor(run.current.lowerBound)))
    }

    private mutating func finish(_ run: ReplaceRun) -> [AppEffect] {
        mode = .editing
        let n = run.replaced
        message = "Replaced \(n) occurrence\(n == 1 ? "" : "s")"
            + (run.skipped + run.inDiff == 0 ? "" : "; \(AppModel.skippedNote(run.skipped, inDiff: run.inDiff))")
        return []
    }
}
