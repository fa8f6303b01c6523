import AtpadCore
import AtpadTerminal

/// What the terminal draws for the model: the title, message, prompt, matches and
/// overlay, as the `EditorView` the pure layout takes.
extension AppModel {
    func view(viewport: Viewport) -> EditorView {
        var view = EditorView(fileName: document.path.map(AppModel.fileName) ?? document.untitledName,
                              isModified: editor.isModified, message: messageLine, isReadOnly: document.isReadOnly,
                              viewport: viewport, loadingDirectories: loadingDirectories)
        switch mode {
        case .editing, .quitQuestion, .draftQuestion, .overwriteQuestion, .changedOnDiskQuestion, .postQuestion, .posting:
            break
        case .help:
            view.overlay = .help
        case let .preview(text):
            view.overlay = .preview(format: document.format.rawValue, text: text)
        case let .prompt(prompt):
            view.prompt = prompt.field.line(label: prompt.label, hint: prompt.hint)
            if case let .find(_, matches, current) = prompt.kind {
                view.matches = matches
                view.currentMatch = current
            }
        case let .replaceQuestion(run):
            view.matches = run.matches
            view.currentMatch = run.matches.firstIndex(of: run.current)
        }
        // The answers are in the question's line; the keys that cancel it, where any do,
        // at its end (the draft question only takes its answers).
        if let question, let keys = mode.questionKeys {
            view.prompt = PromptLine(label: question, hint: Keymap.keys(for: .cancel, in: keys).isEmpty ? nil : .cancel)
        }
        return view
    }
}
