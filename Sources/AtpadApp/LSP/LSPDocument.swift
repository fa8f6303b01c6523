import AtpadCore

/// A document a client opened (`textDocument/didOpen`), kept as the editor's own model so
/// that where a search may start, what a mention writes and what is spelt wrong are
/// decided by the editor's rules, not again here (docs/editors.md).
struct LSPDocument {
    /// The client's languages atpad serves, and what each is to the editor.
    enum Language {
        case markdown, gitcommit, gitRebase, plaintext

        /// The language of a client's `languageId`: Neovim's filetypes (`gitcommit`,
        /// `gitrebase`) and the protocol's and VS Code's ids (`git-commit`, `git-rebase`);
        /// nil for any other, which is served nothing.
        init?(id: String) {
            switch id {
            case "markdown": self = .markdown
            case "gitcommit", "git-commit": self = .gitcommit
            case "gitrebase", "git-rebase": self = .gitRebase
            case "plaintext", "text": self = .plaintext
            default: return nil
            }
        }
    }

    let language: Language
    var version: Int
    var editor: Editor

    init(language: Language, version: Int, text: String, settings: LSPSettings) {
        self.language = language
        self.version = version
        editor = Editor(MarkedText(text: text), cursor: 0, config: Self.config(language, settings))
        editor.lookup = settings.lookup
    }

    /// The editor's settings for `language`: the config's triggers, no implicit search
    /// (a client asks when it asks), Markdown's rules for Markdown and commit messages
    /// (as the editor reads git's messages: `github`), git's comment lines and person
    /// trailers for git's files.
    static func config(_ language: Language, _ settings: LSPSettings) -> EditorConfig {
        let format: DocumentFormat = language == .plaintext ? .text : .github
        var config = EditorConfig(triggers: settings.triggers, implicitThreshold: 0, format: format)
        switch language {
        case .gitcommit:
            config.git = GitFile(kind: .message)
            config.personTrailers = PersonTrailers(extra: settings.personTrailers)
        case .gitRebase:
            config.git = GitFile(kind: .rebaseList)
        case .markdown, .plaintext:
            break
        }
        return config
    }

    /// The format a mention is written in: GitHub's `@handle` (docs/formats.md).
    var mentionFormat: DocumentFormat { .github }

    /// Applies one `contentChanges` entry: a range and its new text, or the whole text.
    /// Returns false when the range is outside the document.
    mutating func apply(_ change: JSONValue, encoding: LSPPositionEncoding, settings: LSPSettings) -> Bool {
        guard let text = change["text"]?.string else { return false }
        guard let range = change["range"] else {
            editor = Editor(MarkedText(text: text), cursor: 0, config: editor.config)
            editor.lookup = settings.lookup
            return true
        }
        guard let lower = offset(range["start"], encoding), let upper = offset(range["end"], encoding),
              lower <= upper else { return false }
        editor.edit(replacing: lower..<upper, with: text)
        return true
    }

    /// The scalar offset of an LSP `Position`, nil when it is malformed or past the end.
    func offset(_ position: JSONValue?, _ encoding: LSPPositionEncoding) -> Int? {
        guard let line = position?["line"]?.int, let character = position?["character"]?.int else { return nil }
        return encoding.offset(line: line, character: character, in: editor.storage)
    }
}
