import AtpadCore
import AtpadDirectory

/// `textDocument/publishDiagnostics` and the code actions they offer (docs/editors.md,
/// "Diagnostics"): an `@word` that names no one in the `@` directory, and, when spelling
/// is on, the words the spelling checker finds wrong as `atpad check` finds them.
enum LSPDiagnostics {
    /// Information (LSP's `DiagnosticSeverity`): neither is an error in the text.
    static let information = 3
    static let unknownCode = "unknown-person"
    static let spellingCode = "spelling"
    static let suggestionLimit = CheckCommand.suggestionLimit
    /// The most `@word`s whose check ``unknownMentions(_:settings:people:)`` remembers.
    static let rememberedWords = 10_000

    /// The document's diagnostics: its unknown `@word`s and, with spelling on, its misspellings.
    ///
    /// - Parameter people: whether each `@word` checked so far names someone, kept by the
    ///   caller for as long as the settings stand (see ``unknownMentions(_:settings:people:)``).
    static func diagnostics(_ document: LSPDocument, settings: LSPSettings, encoding: LSPPositionEncoding,
                            people: inout [String: Bool]) -> [JSONValue] {
        var found: [(range: Range<Int>, code: String, message: String)] = []
        for range in unknownMentions(document, settings: settings, people: &people) {
            let word = document.editor.storage.slice(range)
            found.append((range, unknownCode, "\(word) is no known person: will not notify anyone"))
        }
        if let spelling = settings.spelling {
            let editor = document.editor
            for m in Misspelling.find(in: editor.marked, format: editor.config.format, git: editor.config.git,
                                      speller: spelling.speller, known: spelling.known) {
                found.append((m.range, spellingCode, "\(m.word): not in the dictionary"))
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { d in
            ["range": encoding.range(d.range, in: document.editor.storage), "severity": .number(information),
             "source": "atpad", "code": .string(d.code), "message": .string(d.message)]
        }
    }

    /// The `@word`s where the editor would allow a mention whose word is no handle of the
    /// `@` directory files. Only said when `@` is served by directory files alone: a
    /// command or URL directory cannot be asked for every word.
    ///
    /// Every change checks every `@word` of the document again, and in a directory too big
    /// for a lookup table each check is a ranking (``LSPSettings/person(trigger:handle:)``):
    /// `people` remembers the answers, so a keystroke checks only the words it made new.
    static func unknownMentions(_ document: LSPDocument, settings: LSPSettings, people: inout [String: Bool]) -> [Range<Int>] {
        let at: Unicode.Scalar = "@"
        // Files alone, with or without the conversation's people first.
        let source = (settings.sources[at] as? ParticipantsFirstSource)?.source ?? settings.sources[at]
        guard source is FileDirectory else { return [] }
        let editor = document.editor
        var ranges: [Range<Int>] = []
        var offset = 0
        for s in editor.text.unicodeScalars {
            defer { offset += 1 }
            guard s == at else { continue }
            let end = LSPMentions.handleEnd(from: offset + 1, in: editor.storage)
            guard end > offset + 1, editor.allowsMention(at: offset) else { continue }
            let word = editor.storage.slice((offset + 1)..<end)
            let known: Bool
            if let remembered = people[word] {
                known = remembered
            } else {
                known = settings.person(trigger: at, handle: word) != nil
                // Bounded: what a long session typed is forgotten at once, then remembered anew.
                if people.count >= Self.rememberedWords { people.removeAll(keepingCapacity: true) }
                people[word] = known
            }
            if !known { ranges.append(offset..<end) }
        }
        return ranges
    }

    /// The command of the "Add WORD to my words" action (`workspace/executeCommand`), with
    /// the word as its one argument.
    static let addWordCommand = "atpad.addWord"

    /// `textDocument/codeAction`: for each spelling diagnostic of the request, replacing
    /// the word with each suggestion, then adding it to the personal word list.
    static func codeActions(_ params: JSONValue, uri: String, document: LSPDocument, settings: LSPSettings) -> JSONValue {
        guard let spelling = settings.spelling else { return [] }
        var actions: [JSONValue] = []
        for diagnostic in params["context"]?["diagnostics"]?.array ?? []
        where diagnostic["code"]?.string == spellingCode && diagnostic["source"]?.string == "atpad" {
            guard let range = diagnostic["range"], let message = diagnostic["message"]?.string,
                  let word = message.split(separator: ":").first.map(String.init) else { continue }
            for suggestion in spelling.speller.suggestions(for: word).prefix(suggestionLimit) {
                actions.append([
                    "title": .string("Replace with '\(suggestion)'"), "kind": "quickfix",
                    "diagnostics": [diagnostic],
                    "edit": ["changes": .object([(key: uri, value: .array([["range": range, "newText": .string(suggestion)]]))])],
                ])
            }
            actions.append([
                "title": .string("Add '\(word)' to my words"), "kind": "quickfix", "diagnostics": [diagnostic],
                "command": ["title": .string("Add '\(word)' to my words"), "command": .string(addWordCommand),
                            "arguments": [.string(word)]],
            ])
        }
        return .array(actions)
    }
}
