import AtpadCore

/// `textDocument/hover` on a mention (docs/editors.md, "Hover"): the person its handle
/// names in the trigger's directory — name, handle, detail, url and their accounts.
enum LSPHover {
    static func hover(at offset: Int, in document: LSPDocument, settings: LSPSettings,
                      encoding: LSPPositionEncoding) -> JSONValue {
        let editor = document.editor
        // On the trigger itself, the handle is the one after it.
        let onTrigger = editor.storage.scalar(at: offset).map { settings.triggers.contains($0) } ?? false
        let end = LSPMentions.handleEnd(from: onTrigger ? offset + 1 : offset, in: editor.storage)
        guard let search = editor.explicitSearch(before: end), search.start <= offset, !search.query.isEmpty,
              let entity = settings.person(trigger: search.trigger, handle: search.query) else { return .null }
        var lines = ["**\(entity.name)**" + (entity.handle.map { " `\(String(Character(search.trigger)))\($0)`" } ?? "")]
        if let detail = entity.detail { lines.append(detail) }
        if let url = entity.url { lines.append(url) }
        if let email = entity.email { lines.append(email) }
        for (service, account) in entity.accounts.sorted(by: { $0.key < $1.key }) {
            lines.append("\(service.rawValue): `\(account)`")
        }
        return ["contents": ["kind": "markdown", "value": .string(lines.joined(separator: "\n\n"))],
                "range": encoding.range(search.start..<end, in: editor.storage)]
    }
}

/// Where a handle written after a trigger ends: GitHub's handles are letters, digits and
/// `-` (docs/formats.md).
enum LSPMentions {
    static func isHandle(_ s: Unicode.Scalar) -> Bool {
        s == "-" || CharacterClass.isWord(s)
    }

    /// The end of the handle characters from `offset` on.
    static func handleEnd(from offset: Int, in storage: TextStorage) -> Int {
        var p = offset
        while let s = storage.scalar(at: p), isHandle(s), p - offset < 256 { p += 1 }
        return p
    }
}
