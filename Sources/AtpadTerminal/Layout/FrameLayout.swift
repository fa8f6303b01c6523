import AtpadCore

/// Lays out a whole frame from the editor and the view state, as a pure function: the
/// title row, the text area, the message rows, the help bar or the prompt, and over them
/// the chooser or an overlay (the F1 key list, the F2 preview) — or only a notice, on a
/// terminal too small to edit in.
///
/// ```
/// row 0            title      atpad — notes.md [+] · 3 mentions          Ln 12, Col 4
/// rows 1…h-3       text area  (soft-wrapped document; the chooser pops up here)
/// row h-2          message    errors and notices (a long one takes up to rows h-4…h-2,
///                             and the text area gives those rows up for the frame)
/// row h-1          help bar   ^S Save  ^Q Quit  ^Z Undo  ^Space Mention  F1 Help  ^F Find
///                  or prompt  Find: query█                 Enter Done  ^F/↓ Next  …
/// ```
public enum FrameLayout {
    /// Terminals with fewer rows than this get the one-line picker instead of the box.
    static let popupMinimumHeight = 6

    /// The text area of a `width`×`height` terminal. The app gives the editor these for
    /// soft wrap and Up/Down (`config.width`) and for PgUp/PgDn (`config.pageRows`), so
    /// the core and the screen agree on rows. (A message on more than one row takes rows
    /// from it for the frames that show that message.)
    public static func textArea(width: Int, height: Int) -> (columns: Int, rows: Int) {
        (max(1, width), max(1, height - 3))
    }

    /// The frame for `editor` and `view` on a `width`×`height` terminal: everything is laid
    /// out afresh (only the visible lines are wrapped), and nothing is kept from the frame
    /// before; the backend works out which cells changed.
    public static func frame(for editor: Editor, view: EditorView, width: Int, height: Int) -> Frame {
        var screen = Screen(width: width, height: height)
        if TooSmallNotice.applies(width: width, height: height) {
            TooSmallNotice.draw(into: &screen)
            return Frame(screen: screen, viewport: view.viewport, map: .empty)
        }
        let position = editor.lineAndColumn(of: editor.cursor)
        TitleBar.draw(view, mentionCount: editor.storage.listedMentionCount, position: position,
                      subject: editor.gitSubject, into: &screen, row: 0)
        // The text area keeps at least one row.
        let message = MessageLine.rows(view.message, width: width, limit: height - 3, clusters: &screen.clusters)
        let messageTop = height - 1 - message.count

        if let overlay = view.overlay {
            // An overlay covers the message rows too, unless there is a message to show.
            let rows = 1 ..< (view.message.isEmpty ? height - 1 : messageTop)
            switch overlay {
            case .help:
                HelpOverlay.draw(KeyHelp.all, into: &screen, rows: rows)
            case let .preview(format, text):
                PreviewOverlay.draw(format: format, text: text, into: &screen, rows: rows)
            }
            if !view.message.isEmpty { MessageLine.draw(message, into: &screen, top: messageTop) }
            if let prompt = view.prompt {
                screen.cursor = PromptRow.draw(prompt, into: &screen, row: height - 1)
            } else {
                HelpBar.draw(overlay == .help ? KeyHelp.closeBar : KeyHelp.previewBar, into: &screen, row: height - 1)
            }
            return Frame(screen: screen, viewport: view.viewport, map: .empty)
        }

        let textRows = messageTop - 1
        let area = TextArea(editor: editor, viewport: view.viewport, width: max(1, width), height: textRows)
        let cursor = area.draw(editor, matches: view.matches, currentMatch: view.currentMatch, into: &screen, top: 1)
        MessageLine.draw(message, into: &screen, top: messageTop)

        var chooser: ChooserArea?
        if let prompt = view.prompt {
            // The prompt owns the keys (and the terminal's one cursor): no chooser.
            screen.cursor = PromptRow.draw(prompt, into: &screen, row: height - 1)
        } else {
            HelpBar.draw(helpEntries(editor.search), into: &screen, row: height - 1)
            if let search = editor.search, search.isOpen, let cursor {
                let content = ChooserContent(search: search,
                                             directoryLoading: view.loadingDirectories.contains(search.trigger))
                if height >= popupMinimumHeight {
                    let anchor = area.location(of: search.start).map { $0.column } ?? cursor.column
                    // The box may cover the text and the message rows, but not the title or
                    // the help bar, which shows the chooser's keys.
                    chooser = ChooserPopup.draw(content, maxRows: editor.config.chooserRows, anchorColumn: anchor,
                                                cursorRow: cursor.row, region: 1 ..< height - 1, into: &screen)
                }
                if chooser == nil {
                    chooser = ChooserPicker.draw(content, into: &screen, row: height - 1)
                }
            }
            screen.cursor = cursor
        }
        let map = LayoutMap(textTop: 1, textHeight: textRows, rows: area.rows,
                            documentEnd: editor.storage.count, chooser: chooser)
        return Frame(screen: screen, viewport: area.viewport, map: map)
    }

    /// The keys the help bar offers: the chooser's while it owns keys, else the editor's.
    static func helpEntries(_ search: Search?) -> [KeyHelp.Entry] {
        guard let search, search.isOpen else { return KeyHelp.bar }
        return search.kind == .explicit ? KeyHelp.explicitChooserBar : KeyHelp.implicitChooserBar
    }
}
