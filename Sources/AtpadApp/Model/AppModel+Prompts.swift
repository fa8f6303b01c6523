import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// The prompts (docs/keys.md, "Prompts and the chooser"): `Save as:`, `Find:`, `Replace:` /
/// `With:`, `Go to line:`. Editing keys edit the field; Enter acts; Esc cancels; Ctrl-Q
/// cancels and quits.
extension AppModel {
    mutating func promptKey(_ prompt: Prompt, _ key: Key) -> [AppEffect] {
        switch Keymap.command(for: key, in: prompt.keyMode) {
        case .quit?:
            cancel(prompt)
            return requestQuit()
        case .cancel?:
            cancel(prompt)
            message = ""
            return []
        case .findNext?:
            return findStep(prompt, by: 1)
        case .findPrevious?:
            return findStep(prompt, by: -1)
        case .completePath?:
            return [.completePath(prompt.field.text)]
        case .submit?:
            return submit(prompt)
        default:
            break
        }
        var edited = prompt
        let (taken, changed) = edited.field.handle(key)
        guard taken else { return [] }
        mode = .prompt(edited)
        if changed, case .find = edited.kind { return findTyped(edited) }
        return []
    }

    /// Leaves a prompt without acting; Find puts the selection back where it was.
    private mutating func cancel(_ prompt: Prompt) {
        mode = .editing
        if case let .find(origin, _, _) = prompt.kind { _ = core(editor.select(origin)) }
    }

    private mutating func submit(_ prompt: Prompt) -> [AppEffect] {
        let text = prompt.field.text
        switch prompt.kind {
        case let .saveAs(then):
            let path = expandingHome(text)
            guard !path.isEmpty else {
                message = "Type a file name (Esc cancels)"
                return []
            }
            let format = document.formatIsFixed ? document.format : document.formatRule.format(of: path)
            var save: SaveRequest
            do {
                save = try request(path: path, format: format, confirmOverwrite: path != document.path,
                                   fromPrompt: true, then: then)
            } catch {
                message = "Not saved: \(error.message)"
                return []
            }
            // Another file is asked about as such; the edited one as changed on disk.
            save.checkDisk = path == document.path
            return [.save(save)]
        case .find:
            mode = .editing
            if !text.isEmpty { lastFind = text }
            return []
        case .replace:
            guard !text.isEmpty else {
                mode = .editing
                return []
            }
            mode = .prompt(Prompt(kind: .with(search: text), field: TextField()))
            return []
        case let .with(search):
            lastFind = search
            return startReplace(search, with: text)
        case .goToLine:
            guard let (line, column) = AppModel.lineAndColumn(text) else {
                message = "Type a line number, or line:column"
                return []
            }
            mode = .editing
            return core(editor.select(.cursor(editor.position(line: line, column: column))))
        }
    }

    /// `N`, `N:C` (or `N,C`); nil for anything else. A number of any length is taken: one
    /// past the last line (or past the line's end) goes to the last one (docs/keys.md), however
    /// many digits it has (`99999999999999999999` reads as the largest Int).
    static func lineAndColumn(_ text: String) -> (Int, Int?)? {
        let parts = text.trimmed().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard let first = parts.first, let line = number(first) else { return nil }
        if parts.count == 1 { return (line, nil) }
        guard parts.count == 2, let column = number(parts[1]) else { return nil }
        return (line, column)
    }

    /// The decimal number `digits` spells (a sign may come first), saturating at Int.max
    /// (Int.min); nil when it is not one.
    private static func number(_ digits: Substring) -> Int? {
        let negative = digits.hasPrefix("-")
        let body = digits.hasPrefix("+") || negative ? digits.dropFirst() : digits
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits) ?? (negative ? Int.min : Int.max)
    }

    /// `path` with `~` standing for the home folder the app was started with.
    func expandingHome(_ path: String) -> String {
        PathName.expandingTilde(path, home: home)
    }

    /// Tab in `Save as:`: one candidate completes; several complete to what they share
    /// and are listed on the message line.
    mutating func completePath(typed: String, candidates: [String]) {
        guard case var .prompt(prompt) = mode, case .saveAs = prompt.kind, prompt.field.text == typed else { return }
        guard !candidates.isEmpty else {
            message = "No file names start with that"
            return
        }
        let shared = candidates.dropFirst().reduce(candidates[0]) { common, next in
            String(zip(common, next).prefix { $0 == $1 }.map(\.0))
        }
        if shared.count > typed.count { prompt.field.set(shared) }
        mode = .prompt(prompt)
        message = candidates.count > 1 ? candidates.map(AppModel.lastComponent).joined(separator: "  ") : ""
    }

    private static func lastComponent(_ path: String) -> String {
        let isFolder = path.hasSuffix("/")
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return isFolder ? name + "/" : name
    }

    // MARK: - Find

    /// Find's next (Ctrl-F, Down) and previous (Shift-Tab, Up) while its prompt is open.
    private mutating func findStep(_ prompt: Prompt, by step: Int) -> [AppEffect] {
        var prompt = prompt
        if prompt.field.text.isEmpty, let last = lastFind {
            // An empty Find and "next": search for the last query again.
            prompt.field.set(last)
            return findTyped(prompt)
        }
        guard case let .find(origin, matches, current) = prompt.kind, !matches.isEmpty else { return [] }
        let next = ((current ?? -step) + step + matches.count) % matches.count
        prompt.kind = .find(origin: origin, matches: matches, current: next)
        mode = .prompt(prompt)
        message = AppModel.matchCount(next, of: matches.count)
        return core(editor.select(editor.matchSelection(matches[next])))
    }

    /// The query changed: find every match again and go to the first at or after where
    /// Find started (the view follows the cursor there).
    private mutating func findTyped(_ prompt: Prompt) -> [AppEffect] {
        guard case let .find(origin, _, _) = prompt.kind else { return [] }
        var prompt = prompt
        let matches = editor.matches(of: prompt.field.text)
        guard !matches.isEmpty else {
            prompt.kind = .find(origin: origin, matches: [], current: nil)
            mode = .prompt(prompt)
            message = prompt.field.text.isEmpty ? "" : "No matches"
            return core(editor.select(origin))
        }
        let start = origin.range.lowerBound
        let current = matches.firstIndex { $0.lowerBound >= start } ?? 0
        prompt.kind = .find(origin: origin, matches: matches, current: current)
        mode = .prompt(prompt)
        message = AppModel.matchCount(current, of: matches.count)
        return core(editor.select(editor.matchSelection(matches[current])))
    }

    static func matchCount(_ index: Int, of count: Int) -> String {
        "Match \(index + 1) of \(count)"
    }

    /// Ctrl-N / Ctrl-P after Find closed: the next / previous match of the last query from
    /// the cursor, wrapping around the document.
    mutating func findAgain(forward: Bool) -> [AppEffect] {
        guard let query = lastFind else { return [] }
        let matches = editor.matches(of: query)
        guard !matches.isEmpty else {
            message = "No matches for \(query)"
            return []
        }
        let selected = editor.selection.range
        let index: Int
        var wrapped = false
        if forward {
            let after = selected.isEmpty ? editor.cursor + 1 : selected.upperBound
            if let i = matches.firstIndex(where: { $0.lowerBound >= after }) { index = i } else { index = 0; wrapped = true }
        } else {
            if let i = matches.lastIndex(where: { $0.lowerBound < selected.lowerBound }) { index = i } else {
                index = matches.count - 1
                wrapped = true
            }
        }
        message = AppModel.matchCount(index, of: matches.count) + (wrapped ? " (wrapped)" : "")
        return core(editor.select(editor.matchSelection(matches[index])))
    }
}
