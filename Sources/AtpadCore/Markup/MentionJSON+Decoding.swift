/// Reading the `json` format (docs/formats.md) back into a document.
///
/// The input must be a JSON object with a string `text`; `mentions`, when present, must be
/// an array. Anything else is a `FormatError` naming the line. Each mention needs `trigger`
/// (one character), `id` and `name` (non-empty strings) and `start`/`end` (scalar offsets);
/// `utf16` and `utf8` are redundant and ignored, and so are unknown keys, except that
/// string `handle` and `url` keys are kept on the mention for the formats that use them.
///
/// A mention that is malformed or does not fit the text — out of bounds, overlapping an
/// earlier one, off a grapheme-cluster boundary, or whose range does not hold its trigger
/// and name — is dropped, and a note says which and why; the text is always kept. This is
/// the same leniency as atpad markup, where no file fails to open for its mentions.
/// Mentions may come in any order: they are sorted by start.
///
/// The blanks after the object (the file's final newline, or none) are the document's
/// `ending`, which the writer puts back after the object (docs/formats.md).
extension MentionJSON {
    /// The document in `json`, with notes about the mentions that had to be dropped.
    public static func decode(_ json: String) throws(FormatError) -> DecodedDocument {
        var json = json
        let result = json.withUTF8 { bytes in Result { () throws(FormatError) in try decode(bytes) } }
        return try result.get()
    }

    /// Whether `bytes` hold atpad's comment object — a JSON object with a string `text` —
    /// or nothing yet (empty, or only whitespace: a comment to be written). Any other file
    /// named `.json` (`package.json`) is data, opened as `text` (docs/formats.md).
    public static func holdsComment(_ bytes: [UInt8]) -> Bool {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return true }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let root = try? JSONReader.value(of: buffer), case .object(let members) = root.kind,
                  let text = members.last(where: { $0.key == "text" })?.value, case .string = text.kind else { return false }
            return true
        }
    }

    /// Reads the `json` format given as valid UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(FormatError) -> DecodedDocument {
        let root: JSONValue
        do {
            root = try JSONReader.value(of: bytes)
        } catch {
            throw FormatError("line \(JSONReader.line(of: error.offset, in: bytes)): \(error.message)")
        }
        func failure(_ value: JSONValue, _ message: String) -> FormatError {
            FormatError("line \(JSONReader.line(of: value.offset, in: bytes)): \(message)")
        }
        guard case .object(let members) = root.kind else {
            throw failure(root, "expected an object with \"text\" and \"mentions\", found \(root.kind.noun)")
        }
        guard let textValue = members.last(where: { $0.key == "text" })?.value else {
            throw failure(root, "the object has no \"text\"")
        }
        guard case .string(let text) = textValue.kind else {
            throw failure(textValue, "\"text\" must be a string, found \(textValue.kind.noun)")
        }
        var items: [JSONValue] = []
        if let list = members.last(where: { $0.key == "mentions" })?.value {
            guard case .array(let elements) = list.kind else {
                throw failure(list, "\"mentions\" must be an array, found \(list.kind.noun)")
            }
            items = elements
        }

        var dropped: [(number: Int, why: String)] = []
        var candidates: [(mention: Mention, number: Int)] = []
        for (index, item) in items.enumerated() {
            switch mention(from: item) {
            case .success(let m): candidates.append((m, index + 1))
            case .failure(let why): dropped.append((index + 1, "mention \(index + 1): \(why.message)"))
            }
        }
        candidates.sort { $0.mention.range.lowerBound < $1.mention.range.lowerBound }
        var mentions: [Mention] = []
        mentions.reserveCapacity(candidates.count)
        var textCopy = text
        textCopy.withUTF8 { utf8 in
            var fit = MentionFit(bytes: utf8)
            var end = 0
            for (m, number) in candidates {
                if let why = fit.problem(with: m, after: end) {
                    dropped.append((number, "mention \(number) (\(m.id)): \(why)"))
                } else {
                    mentions.append(m)
                    end = m.range.upperBound
                }
            }
        }
        var notes: [String] = []
        if !dropped.isEmpty {
            dropped.sort { $0.number < $1.number }
            let shown = dropped.prefix(3).map(\.why).joined(separator: "; ")
            let more = dropped.count > 3 ? "; and \(dropped.count - 3) more" : ""
            let subject = dropped.count == 1 ? "1 invalid mention was" : "\(dropped.count) invalid mentions were"
            notes.append("\(subject) dropped (their text is kept): \(shown)\(more)")
        }
        var tail = bytes.count
        while tail > 0, bytes[tail - 1] == 0x20 || bytes[tail - 1] == 0x0A || bytes[tail - 1] == 0x0D || bytes[tail - 1] == 0x09 {
            tail -= 1
        }
        return DecodedDocument(document: MarkedText(text: text, mentions: mentions), notes: notes,
                               ending: Array(bytes[tail...]))
    }

    /// The mention an element of `mentions` describes, or why it does not describe one.
    private static func mention(from value: JSONValue) -> Result<Mention, FormatError> {
        guard case .object(let members) = value.kind else {
            return .failure(FormatError("expected an object, found \(value.kind.noun)"))
        }
        func member(_ key: String) -> JSONValue.Kind? { members.last { $0.key == key }?.value.kind }
        func string(_ key: String) -> String? {
            if case .string(let s)? = member(key) { return s }
            return nil
        }
        func integer(_ key: String) -> Int? {
            if case .number(let literal)? = member(key) { return Int(literal) }
            return nil
        }
        guard let trigger = string("trigger"), trigger.unicodeScalars.count == 1, let scalar = trigger.unicodeScalars.first else {
            return .failure(FormatError("\"trigger\" must be a string of one character"))
        }
        guard let id = string("id"), !id.isEmpty else { return .failure(FormatError("\"id\" must be a non-empty string")) }
        guard let name = string("name"), !name.isEmpty else { return .failure(FormatError("\"name\" must be a non-empty string")) }
        guard let start = integer("start"), let end = integer("end") else {
            return .failure(FormatError("\"start\" and \"end\" must be whole numbers"))
        }
        let m = Mention(trigger: scalar, id: id, name: name, start: start, handle: string("handle"), url: string("url"))
        guard start >= 0, end == m.range.upperBound else {
            return .failure(FormatError("range \(start)..<\(end) is not the length of \(JSONText.quote(m.text))"))
        }
        return .success(m)
    }
}

/// Checks mentions, in order of their starts, against the UTF-8 of the text they claim,
/// walking the text once.
private struct MentionFit {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The scalar offset and byte offset the walk has reached.
    private var scalar = 0
    private var byte = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Why `m` cannot be a mention of the text (given that the last kept one ends at
    /// `end`), or nil when it fits.
    mutating func problem(with m: Mention, after end: Int) -> String? {
        let range = m.range
        if range.lowerBound < end { return "range \(range.lowerBound)..<\(range.upperBound) overlaps the mention before it" }
        guard let start = UTF8Scan.advance(bytes, byte: &byte, scalar: &scalar, to: range.lowerBound),
              let stop = bytesEnd(from: start, scalars: range.count) else {
            return "range \(range.lowerBound)..<\(range.upperBound) is past the end of the text"
        }
        let expected = Array(m.text.utf8)
        guard stop - start == expected.count, UnsafeBufferPointer(rebasing: bytes[start ..< stop]).elementsEqual(expected) else {
            let found = UTF8Scan.string(bytes, start ..< stop)
            return "range \(range.lowerBound)..<\(range.upperBound) holds \(JSONText.quote(found)), not \(JSONText.quote(m.text))"
        }
        guard UTF8GraphemeBoundary.isBoundary(bytes, at: start), UTF8GraphemeBoundary.isBoundary(bytes, at: stop) else {
            return "range \(range.lowerBound)..<\(range.upperBound) splits a character"
        }
        return nil
    }

    /// The byte offset `count` scalars after byte `start`, or nil past the end.
    private func bytesEnd(from start: Int, scalars count: Int) -> Int? {
        var b = start
        for _ in 0 ..< count {
            guard b < bytes.count else { return nil }
            b += 1
            while b < bytes.count, UTF8Scan.isContinuation(bytes[b]) { b += 1 }
        }
        return b
    }
}
