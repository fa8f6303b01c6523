// The fuzz target of every readable format (issue 32): random bytes are opened in a format,
// edited once through the editor core, and saved. Built and run by `scripts/fuzz` with
// libFuzzer (`swiftc -sanitize=fuzzer`); not part of `swift build` (CONTRIBUTING.md,
// "Fuzzing"). A property that does not hold stops the run with `fatalError`, printing the
// format and the input; libFuzzer keeps the input as `crash-…`.
//
// The properties (docs/formats.md, "Files come back as they were"):
//   (a) opening and saving without an edit gives the same bytes;
//   (b) one edit — typing, a deletion or a paste — changes only its bytes: the saved file is
//       the original with the bytes of what was removed taken out and those of what was put
//       in written in their place, give or take escape backslashes the edit made necessary
//       (`EditedBytes`, the definition `OneEditPropertyTests` uses); in json, whose offsets
//       move with every edit, the saved file reads back as the edited document;
//   (c) decode(encode(x)) == x in the lossless formats (atpad, json) for documents made of
//       the input's text and mentions, and the document opened in (a) comes back from
//       atpad markup (its kept constructs of other formats as their text).

import AtpadCore
import AtpadTestSupport

// MARK: - The input

/// What one fuzz input asks for. Its bytes are read in this order (a short input leaves
/// the rest zero or empty):
///
///   byte 0        the format: one of the readable formats, by remainder
///   byte 1        the edit (`Edit`, by remainder) and, in its high bits, the deletion key
///   bytes 2…3     the first cursor place, by remainder of the document's places
///   bytes 4…5     the second one (the other end of a selection)
///   byte 6        how many bytes of edit text follow (0…63)
///   …             the edit text (typed or pasted), as UTF-8 with replacement characters
///   the rest      the file
struct FuzzInput {
    /// Every format a file can be opened in: a format added later is fuzzed too.
    static let formats: [DocumentFormat] = DocumentFormat.allCases.filter { !$0.isOutputOnly }

    /// The kinds of edit, one per input.
    enum Edit: CaseIterable {
        case typeAtCursor, typeOverSelection, pasteAtCursor, pasteOverSelection, deleteSelection, deleteAtCursor
    }

    /// The keys that delete at a cursor.
    static let deletionKeys: [Key] = [.backspace, .delete, .altBackspace, .alt("d"), .ctrl("k"), .ctrl("u")]

    var format: DocumentFormat
    var edit: Edit
    var deletionKey: Key
    var places: (UInt16, UInt16)
    var text: String
    var file: [UInt8]

    init(_ bytes: [UInt8]) {
        func byte(_ k: Int) -> Int { k < bytes.count ? Int(bytes[k]) : 0 }
        format = Self.formats[byte(0) % Self.formats.count]
        edit = Edit.allCases[byte(1) % Edit.allCases.count]
        deletionKey = Self.deletionKeys[(byte(1) / Edit.allCases.count) % Self.deletionKeys.count]
        places = (UInt16(byte(2) | byte(3) << 8), UInt16(byte(4) | byte(5) << 8))
        let start = min(7, bytes.count), end = min(start + byte(6) % 64, bytes.count)
        text = String(decoding: bytes[start ..< end], as: UTF8.self)
        file = Array(bytes[end...])
    }
}

// MARK: - The directory

/// A small fixed directory, so that mentions are read back: people with ids, handles,
/// urls and accounts on the services, and two `#` channels.
let people: [Entity] = [
    Entity(id: "u1", name: "John Doe", handle: "jdoe", url: "https://example.com/jdoe"),
    Entity(id: "u2", name: "Jane Roe", handle: "jane.roe"),
    Entity(id: "u3", name: "王伟"),
    Entity(id: "u4", name: "Zoë [x] Ørsted", url: "https://example.com/a_(b)"),
    // Discord ids are numbers.
    Entity(id: "1", name: "Ana Lima", handle: "ana"),
    // Someone read by their accounts on the services first.
    Entity(id: "p7", name: "Ann Lee", handle: "annl", email: "ann@example.com",
           accounts: [.github: "ann-gh", .gitlab: "ann.gl", .slack: "U0123", .jira: "5b10ac8d", .zulip: "42"]),
]
let channels: [Entity] = [Entity(id: "C1", name: "general"), Entity(id: "3", name: "ops")]
let lookup = EntityLookup(["@": people, "#": channels])

// MARK: - The properties

/// Stops the run: a property does not hold.
func fail(_ what: String, _ input: FuzzInput, _ details: [(String, String)] = []) -> Never {
    var message = "\n\(input.format): \(what)\n  edit:   \(input.edit) \(input.deletionKey) places \(input.places)"
    message += "\n  text:   \(String(reflecting: input.text))\n  file:   \(show(input.file))"
    for (name, value) in details { message += "\n  \(name): \(value)" }
    fatalError(message)
}

/// Bytes as a Swift literal of their text (`\u{FFFD}` where they are not UTF-8), and as hex.
func show(_ bytes: [UInt8]) -> String {
    let hex = bytes.prefix(400).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return String(reflecting: String(decoding: bytes, as: UTF8.self)) + " (hex \(hex)\(bytes.count > 400 ? "…" : ""))"
}

func describe(_ doc: MarkedText) -> String {
    String(reflecting: doc.text) + " " + doc.mentions.map {
        "\($0.kind) \($0.range) \(String(reflecting: $0.text)) id \(String(reflecting: $0.id))"
            + ($0.source.map { " from \($0.format) \(String(reflecting: $0.text))" } ?? "")
    }.joined(separator: ", ")
}

/// Exact equality: scalar for scalar (stricter than String's canonical equivalence), and
/// the mentions' kinds, triggers, ids, names and ranges.
func same(_ a: MarkedText, _ b: MarkedText) -> Bool {
    a == b && a.text.unicodeScalars.elementsEqual(b.text.unicodeScalars)
}

func check(_ input: FuzzInput) {
    let format = input.format
    if format == .atpad || format == .json { checkLosslessFormat(input) }
    // json reads json documents only; any other format reads anything.
    guard let read = try? format.decode(bytes: input.file, lookup: lookup).document else {
        if format != .json { fail("decoding failed", input) }
        return
    }
    checkSavingUnchanged(input.file, read: read, input)
    checkMarkupRoundTrip(read, input)
    checkOneEdit(read, input)
}

/// (a) Opening and saving without an edit gives the same bytes.
func checkSavingUnchanged(_ file: [UInt8], read: MarkedText, _ input: FuzzInput) {
    let saved: [UInt8]
    do {
        saved = try input.format.encodeBytes(read, lookup: lookup)
    } catch {
        fail("saving the opened file failed: \(error)", input, [("read", describe(read))])
    }
    // json is written in its one layout: a json file in another layout is rewritten in it
    // (docs/formats.md), holding the same document, which saves as it is from then on.
    if saved != file, input.format == .json {
        guard let again = try? DocumentFormat.json.decode(bytes: saved).document, same(again, read),
              DocumentFormat.json.encodeUTF8(again) == saved else {
            fail("saving a json file in another layout changed its document", input,
                 [("opened", show(file)), ("saved", show(saved)), ("read", describe(read))])
        }
        return
    }
    if saved != file {
        fail("saving without an edit changed the bytes", input,
             [("opened", show(file)), ("saved", show(saved)), ("read", describe(read))])
    }
}

/// (c) A lossless format (atpad, json) gives back documents made of the input: its text,
/// with a mention of the directory where a byte 0x01 stands (the next byte says whom and
/// with which trigger) and a mention of anyone where a byte 0x02 stands (the next bytes
/// give the lengths of a name and an id, then their bytes).
func checkLosslessFormat(_ input: FuzzInput) {
    let format = input.format
    let doc = document(from: input.file)
    // Both readers keep mentions on grapheme boundaries (a combining mark after a
    // mention's markup makes it text), so only such documents come back whole.
    guard isValid(doc) else { return }
    let written = format.encodeUTF8(doc)
    guard let read = try? format.decode(utf8: written) else {
        fail("\(format) could not read what it wrote", input, [("document", describe(doc)), ("written", show(written))])
    }
    if !same(read.document, doc) || !read.notes.isEmpty {
        fail("\(format) did not give back the document it wrote", input,
             [("document", describe(doc)), ("written", show(written)), ("read", describe(read.document)),
              ("notes", "\(read.notes)")])
    }
}

func document(from bytes: [UInt8]) -> MarkedText {
    var text = String.UnicodeScalarView()
    var mentions: [Mention] = []
    var run: [UInt8] = []
    var k = 0
    func next() -> Int {
        defer { k += 1 }
        return k < bytes.count ? Int(bytes[k]) : 0
    }
    func take(_ n: Int) -> String {
        let end = min(k + n, bytes.count)
        defer { k = end }
        return String(decoding: bytes[min(k, end) ..< end], as: UTF8.self)
    }
    func flush() {
        text.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        run = []
    }
    while k < bytes.count {
        let b = bytes[k]
        k += 1
        guard b == 1 || b == 2 else {
            run.append(b)
            continue
        }
        flush()
        let pick = next()
        let trigger = AtpadMarkup.triggers[pick % AtpadMarkup.triggers.count]
        let m: Mention
        if b == 1 {
            let entity = (people + channels)[(pick / AtpadMarkup.triggers.count) % (people.count + channels.count)]
            m = Mention(trigger: trigger, entity: entity, start: text.count)
        } else {
            let lengths = next()
            let name = take(1 + lengths % 8), id = take(1 + lengths / 8 % 8)
            guard !name.isEmpty, !id.isEmpty else { continue }
            m = Mention(trigger: trigger, id: id, name: name, start: text.count)
        }
        mentions.append(m)
        text.append(contentsOf: m.text.unicodeScalars)
    }
    flush()
    return MarkedText(text: String(text), mentions: mentions)
}

/// Whether `doc` keeps every promise of a document: mentions in order, in range, not
/// overlapping, covering exactly trigger + name, on grapheme-cluster boundaries.
func isValid(_ doc: MarkedText) -> Bool {
    let scalars = Array(doc.text.unicodeScalars)
    let boundaries = Set(clusterBoundaries(doc.text))
    var end = 0
    for m in doc.mentions {
        guard m.range.lowerBound >= end, m.range.upperBound <= scalars.count, m.isKept || !m.name.isEmpty && !m.id.isEmpty,
              scalars[m.range].elementsEqual(m.text.unicodeScalars),
              boundaries.contains(m.range.lowerBound), boundaries.contains(m.range.upperBound)
        else { return false }
        end = m.range.upperBound
    }
    return true
}

/// (c) The document a file opened in (a) comes back from atpad markup, the lossless
/// format: mentions (showing their names) and atpad's own kept constructs as they are,
/// kept constructs of other formats as their text (docs/formats.md: "In another format a kept construct is its text").
func checkMarkupRoundTrip(_ read: MarkedText, _ input: FuzzInput) {
    guard input.format != .atpad else { return }
    // Markup holds names: a mention showing a handle (`@jdoe` read from GitHub) comes back
    // showing the name (docs/formats.md, "How a mention is shown").
    var expected = EntityLookup.empty.showing(read, in: .atpad)
    expected.mentions.removeAll { $0.kind == .kept && $0.source?.format != .atpad }
    let written: [UInt8]
    do {
        written = try DocumentFormat.atpad.encodeBytes(read)
    } catch {
        fail("atpad markup could not write the opened document: \(error)", input, [("read", describe(read))])
    }
    // A character of the stand-ins' range (U+10FF80…, only json reads one as a character)
    // is read back from a markup file as the bytes of its UTF-8, as every format but json
    // reads it (RawBytes): those documents come back as the same bytes.
    if input.format == .json, (read.text.unicodeScalars + read.mentions.flatMap { $0.id.unicodeScalars })
        .contains(where: { $0.value >= 0x10_FF80 }) {
        guard let back = try? DocumentFormat.atpad.decode(bytes: written).document,
              (try? DocumentFormat.atpad.encodeBytes(back)) == written else {
            fail("the opened document did not come back from atpad markup as the same bytes", input,
                 [("read", describe(read)), ("written", show(written))])
        }
        return
    }
    guard let back = try? DocumentFormat.atpad.decode(bytes: written).document,
          same(withBytesAsText(back), withBytesAsText(expected)) else {
        let back = try? DocumentFormat.atpad.decode(bytes: written).document
        fail("the opened document did not come back from atpad markup", input,
             [("read", describe(read)), ("expected", describe(expected)), ("written", show(written)),
              ("back", back.map(describe) ?? "an error")])
    }
}

/// `doc` with each `.bytes` token made the plain text it was read from (its bytes' stand-ins,
/// `RawBytes`). A byte inside a kept construct of another format is a stand-in in its text,
/// and a stand-in in plain text reads back as a `.bytes` token: compared this way, the two
/// are the same bytes.
func withBytesAsText(_ doc: MarkedText) -> MarkedText {
    guard doc.mentions.contains(where: { $0.kind == .bytes }) else { return doc }
    let scalars = Array(doc.text.unicodeScalars)
    var text = String.UnicodeScalarView()
    var mentions: [Mention] = []
    var offset = 0, shift = 0
    for m in doc.mentions {
        text.append(contentsOf: scalars[offset ..< m.range.lowerBound])
        if m.kind == .bytes, let source = m.source?.text {
            text.append(contentsOf: source.unicodeScalars)
            shift += source.unicodeScalars.count - m.range.count
        } else {
            text.append(contentsOf: scalars[m.range])
            mentions.append(m.shifted(by: shift))
        }
        offset = m.range.upperBound
    }
    text.append(contentsOf: scalars[offset...])
    return MarkedText(text: String(text), mentions: mentions)
}

/// The scalar offsets where grapheme clusters start, and the end.
func clusterBoundaries(_ text: String) -> [Int] {
    var places = [0]
    var offset = 0
    for character in text {
        offset += character.unicodeScalars.count
        places.append(offset)
    }
    return places
}

/// The cluster boundaries of `doc` that are not strictly inside a token: where a cursor
/// may stand.
func cursorPlaces(in doc: MarkedText) -> [Int] {
    var places = clusterBoundaries(doc.text)
    var tokens = doc.mentions[...]
    places.removeAll { p in
        while let m = tokens.first, m.range.upperBound <= p { tokens.removeFirst() }
        return tokens.first.map { $0.range.lowerBound < p } ?? false
    }
    return places
}

/// `doc` from scalar `range.lowerBound` to `range.upperBound`, with the tokens wholly inside.
func slice(_ doc: MarkedText, _ range: Range<Int>) -> MarkedText {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: Array(doc.text.unicodeScalars)[range])
    let inside = doc.mentions.filter { range.contains($0.range.lowerBound) && $0.range.upperBound <= range.upperBound }
    return MarkedText(text: String(text), mentions: inside.map { $0.shifted(by: -range.lowerBound) })
}

// MARK: - One edit

/// The editor the app would open `doc` of `format` in.
func editor(for doc: MarkedText, format: DocumentFormat, cursor: Int) -> Editor {
    var editor = Editor(doc, cursor: cursor, config: EditorConfig(triggers: ["@", "#"], format: format))
    editor.lookup = lookup
    return editor
}

/// The keys that type `text`, as a terminal sends them: a line break is Enter, a tab is Tab,
/// other control characters are no typing (a terminal sends them as Ctrl keys).
func keys(typing text: String) -> [Key] {
    text.compactMap { c in
        guard let first = c.unicodeScalars.first else { return nil }
        if c.isNewline { return .enter }
        if c == "\t" { return .tab }
        if first.value < 0x20 || first.value == 0x7F { return nil }
        return .char(c)
    }
}

/// The paste step: what a bracketed paste of `text` does to the document, through the
/// editor's one paste key — which reads the text as the document's format reads a file,
/// with the editor's lookup (docs/editor.md, "Paste"). The property checked after it
/// (`checkOneEdit`) takes what was inserted from the edited document.
func paste(_ text: String, into editor: inout Editor) {
    _ = editor.handle(.paste(text))
}

/// (b) One edit at a random place changes only its bytes.
func checkOneEdit(_ read: MarkedText, _ input: FuzzInput) {
    let format = input.format
    let places = cursorPlaces(in: read)
    let place = places[Int(input.places.0) % places.count], second = places[Int(input.places.1) % places.count]
    var editor = editor(for: read, format: format, cursor: place)
    // Where the editor put the cursor (on a cluster boundary, out of tokens: `place` already is).
    let first = editor.cursor
    let oldCount = read.text.unicodeScalars.count
    // The range of the old document the edit replaced (found below for the keys that
    // choose it themselves), and the text it should have put there, when known.
    var range = first ..< first
    var typed: String?
    switch input.edit {
    case .typeAtCursor, .typeOverSelection, .pasteAtCursor, .pasteOverSelection, .deleteSelection:
        if input.edit == .typeOverSelection || input.edit == .pasteOverSelection || input.edit == .deleteSelection {
            _ = editor.select(Selection(anchor: first, head: second))
            range = editor.selection.range
        }
        switch input.edit {
        case .typeAtCursor, .typeOverSelection:
            let keys = keys(typing: input.text)
            guard !keys.isEmpty || !range.isEmpty else { return }
            var text = ""
            for key in keys {
                _ = editor.handle(key)
                switch key {
                case let .char(c): text.append(c)
                case .tab: text += "\t"
                case .enter: text += editor.lineEnding
                default: break
                }
                // Typing is one edit while the cursor follows it. A character that joins the
                // cluster after the cursor (a joiner, or a letter before a combining mark)
                // puts the cursor after that cluster, and the next one would go there.
                if editor.cursor != range.lowerBound + text.unicodeScalars.count { break }
            }
            // Typing over a selection with nothing to type does not delete it.
            if keys.isEmpty { return }
            typed = text
        case .pasteAtCursor, .pasteOverSelection:
            paste(input.text, into: &editor)
        default:
            _ = editor.handle(.backspace)
            // An empty selection is a cursor: Backspace deleted what is before it.
            if range.isEmpty { range = first - (oldCount - editor.marked.text.unicodeScalars.count) ..< first }
        }
    case .deleteAtCursor:
        let key = input.deletionKey
        _ = editor.handle(key)
        // Backspace or Delete next to a token selects it; the second press deletes it.
        if editor.selectedMention != nil, key == .backspace || key == .delete { _ = editor.handle(key) }
        // Backspace, Alt-Backspace and Ctrl-U delete up to the cursor, the others from it. (The
        // cursor after the deletion says nothing: it leaves a cluster the deletion joined.)
        let deleted = oldCount - editor.marked.text.unicodeScalars.count
        let backward = [Key.backspace, .altBackspace, .ctrl("u")].contains(key)
        range = backward ? first - deleted ..< first : first ..< first + deleted
    }
    let edited = editor.marked
    let newCount = edited.text.unicodeScalars.count
    let inserted = newCount - oldCount + range.count
    let old = Array(read.text.unicodeScalars), new = Array(edited.text.unicodeScalars)
    guard inserted >= 0, range.upperBound <= oldCount, old[..<range.lowerBound] == new[..<range.lowerBound],
          old[range.upperBound...] == new[(range.lowerBound + inserted)...] else {
        fail("the editor changed text outside the edit at \(range)", input,
             [("read", describe(read)), ("edited", describe(edited))])
    }
    let newRange = range.lowerBound ..< range.lowerBound + inserted
    let put = slice(edited, newRange)
    if let typed, !put.text.unicodeScalars.elementsEqual(typed.unicodeScalars) {
        fail("typing \(String(reflecting: typed)) at \(range) inserted \(String(reflecting: put.text))", input)
    }
    // The tokens outside the edit are still there, moved by it. The edit may turn plain
    // one right beside it whose edge stopped being a grapheme boundary (a combining mark
    // typed after it, docs/formats.md): then the bytes change there, as they should, and
    // there is nothing to check. Any other change is the apply path's fault.
    let shift = inserted - range.count
    let before = read.mentions.filter { $0.range.upperBound <= range.lowerBound || $0.range.lowerBound >= range.upperBound }
        .map { $0.range.lowerBound >= range.upperBound ? $0.shifted(by: shift) : $0 }
    let after = edited.mentions.filter { $0.range.upperBound <= newRange.lowerBound || $0.range.lowerBound >= newRange.upperBound }
    if read.mentions.contains(where: { $0.range.overlaps(range) && !($0.range.lowerBound >= range.lowerBound && $0.range.upperBound <= range.upperBound) }) {
        // The edit cut a token (a word deletion reaching into one): it is text now.
        return
    }
    let kept = after.filter { m in before.contains { $0 == m && $0.source == m.source } }
    if kept.count != after.count {
        fail("a token outside the edit changed", input,
             [("read", describe(read)), ("edited", describe(edited)), ("range", "\(range) → \(newRange)")])
    }
    if after.count != before.count {
        let gone = before.filter { m in !after.contains { $0 == m } }
        if gone.allSatisfy({ $0.range.upperBound == newRange.lowerBound || $0.range.lowerBound == newRange.upperBound }) {
            return
        }
        fail("a token away from the edit was lost", input,
             [("read", describe(read)), ("edited", describe(edited)), ("range", "\(range) → \(newRange)")])
    }
    let saved: [UInt8]
    do {
        saved = try format.encodeBytes(edited, lookup: lookup)
    } catch {
        fail("saving the edited document failed: \(error)", input, [("edited", describe(edited))])
    }
    // Any saved file opens and saves back as it is, too: (a) on another file.
    if let reread = try? format.decode(bytes: saved, lookup: lookup).document {
        checkSavingUnchanged(saved, read: reread, input)
    } else if format != .json {
        fail("decoding the saved file failed", input, [("saved", show(saved))])
    }
    if format == .json {
        // json counts every mention's offsets in the file: an edit moves the numbers of
        // the mentions after it, so the saved file is checked by reading it back.
        guard let back = try? format.decode(bytes: saved, lookup: lookup), same(back.document, edited) else {
            fail("the edited json document did not come back", input, [("edited", describe(edited)), ("saved", show(saved))])
        }
        return
    }
    let removed: [UInt8], written: [UInt8]
    do {
        removed = try format.encodeBytes(slice(read, range), lookup: lookup)
        written = try format.encodeBytes(put, lookup: lookup)
    } catch {
        fail("writing the edited run failed: \(error)", input, [("edited", describe(edited))])
    }
    if !EditedBytes.isReplacement(of: removed, by: written, from: input.file, to: saved) {
        fail("the edit changed other bytes", input,
             [("edit", "\(range) → \(newRange)"), ("removed", show(removed)), ("written", show(written)),
              ("opened", show(input.file)), ("saved", show(saved)), ("read", describe(read)), ("edited", describe(edited))])
    }
}

// MARK: - libFuzzer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    check(FuzzInput(bytes))
    return 0
}
