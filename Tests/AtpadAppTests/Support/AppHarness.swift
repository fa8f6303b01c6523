@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation

/// An app model driven by key scripts, collecting the effects it asks for.
struct AppHarness {
    var model: AppModel
    var effects: [AppEffect] = []

    /// `markup` is atpad markup with `|` for the cursor (default: the start, as the
    /// editor opens).
    init(_ markup: String = "", path: String? = nil, format: DocumentFormat = .atpad, formatIsFixed: Bool = false,
         print: Bool = false, clipboard: Bool = true) throws {
        let (doc, cursor) = try AtpadMarkup.decodeWithCursor(markup)
        let editor = Editor(doc, cursor: cursor ?? 0, config: EditorConfig())
        model = AppModel(editor: editor, document: .init(path: path, format: format, formatIsFixed: formatIsFixed),
                         print: print, terminalClipboard: clipboard)
    }

    /// Types a key script (`KeyScript` notation); returns the effects of these keys only.
    @discardableResult
    mutating func keys(_ script: String) throws -> [AppEffect] {
        var produced: [AppEffect] = []
        for key in try KeyScript.parse(script) { produced += model.update(.key(key)) }
        effects += produced
        return produced
    }

    @discardableResult
    mutating func send(_ event: AppEvent) -> [AppEffect] {
        let produced = model.update(event)
        effects += produced
        return produced
    }

    var text: String { model.editor.text }
    var cursor: Int { model.editor.cursor }
    /// The plain text with `|` at the cursor.
    var marked: String {
        var text = Array(model.editor.text.unicodeScalars)
        text.insert("|", at: model.editor.cursor)
        return String(String.UnicodeScalarView(text))
    }

    /// The save the model asked for last.
    var lastSave: SaveRequest? {
        effects.reversed().lazy.compactMap { if case let .save(r) = $0 { return r } else { return nil } }.first
    }

    /// The quit the model asked for, if any.
    var quit: (status: Int32, output: String?)? {
        for effect in effects {
            if case let .quit(status, output) = effect { return (status, output.map { String(decoding: $0, as: UTF8.self) }) }
        }
        return nil
    }

    /// The bottom row as the view shows it: the prompt's label and text.
    var promptLine: String? {
        model.view(viewport: Viewport()).prompt.map { $0.text.isEmpty ? $0.label : $0.label + " " + $0.text }
    }
}
