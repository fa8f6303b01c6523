import AtpadCore

/// Alt-R: `Replace:`, `With:`, then `Replace? (y)es (n)o (a)ll` at each match from the
/// cursor to the end, wrapping to the start and stopping where it began. Every
/// replacement of one run joins one undo group, so one Ctrl-Z takes them all back.
extension AppModel {
    mutating func startReplace(_ search: String, with replacement: String) -> [AppEffect] {
        replaceGroups += 1
        let origin = editor.cursor
        var run = ReplaceRun(search: search, replacement: replacement, group: replaceGroups, origin: origin,
                             current: origin..<origin, matches: [])
        guard advance(&run, from: origin) else {
            mode = .editing
            message = "No matches for \(search)"
            return []
        }
        return ask(run)
    }

    mutating func answerReplace(_ run: ReplaceRun, _ key: Key) -> [AppEffect] {
        var run = run
        var effects: [AppEffect] = []
        switch key {
        case .char("y"), .char("Y"):
            effects += replaceCurrent(&run)
            guard advance(&run, from: run.current.lowerBound + run.replacement.unicodeScalars.count) else {
                return effects + finish(run)
            }
            return effects + ask(run)
        case .char("n"), .char("N"):
            guard advance(&run, from: run.current.upperBound) else { return finish(run) }
            return ask(run)
        case .char("a"), .char("A"):
            repeat {
                effects += replaceCurrent(&run)
            } while advance(&run, from: run.current.lowerBound + run.replacement.unicodeScalars.count)
            return effects + finish(run)
        case .escape, .ctrl("c"), .ctrl("g"):
            return finish(run)
        case .ctrl("q"):
            return finish(run) + requestQuit()
        default:
            return []
        }
    }

    /// Replaces the current match (joining the run's undo group).
    private mutating func replaceCurrent(_ run: inout ReplaceRun) -> [AppEffect] {
        let range = run.current
        let effects = core(editor.replace(range, with: run.replacement, group: run.group))
        run.replaced += 1
        // After the wrap, every replacement lies before the starting point and moves it.
        if run.wrapped { run.origin += run.replacement.unicodeScalars.count - range.count }
        return effects
    }

    /// Moves to the next match at or after `position`, wrapping once; false when the walk
    /// is back where it began.
    private mutating func advance(_ run: inout ReplaceRun, from position: Int) -> Bool {
        let matches = editor.matches(of: run.search)
        run.matches = matches
        if !run.wrapped {
            if let next = matches.first(where: { $0.lowerBound >= position }) {
                run.current = next
                return true
            }
            run.wrapped = true
            return advance(&run, from: 0)
        }
        guard let next = matches.first(where: { $0.lowerBound >= position && $0.upperBound <= run.origin }) else {
            return false
        }
        run.current = next
        return true
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
        return []
    }
}
