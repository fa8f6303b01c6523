import Synchronization

/// Markdown in the editor, for documents in a Markdown format (`EditorConfig.markdown`):
/// where a trigger may start a search (GitHub's rule:
/// docs/markdown.md, "Typing `@` in Markdown") and what the front end draws in the
/// `markup.*` roles (docs/markdown.md, "How Markdown is drawn") — both from
/// `MarkdownSyntax`, the one answer to "is this code, a link or HTML".
///
/// A keystroke must not parse a 1 MB comment. `MarkdownBlocks` keeps where the top-level
/// blocks start: parsing from one of them gives the same blocks as parsing the whole text
/// (cmark-gfm reads blocks forward, line by line), so a question about a range parses only
/// the top-level blocks that hold it. An edit keeps the starts before its line, and the
/// later starts when a parse from the edited block finds the first of them still starting
/// a block (an edit that opens a fence or an HTML block makes it look further).
public struct MarkdownBlocks: Sendable, Equatable {
    /// Scalar offsets where top-level blocks start, sorted; the first is 0.
    public private(set) var starts: [Int] = [0]
    /// For each start, whether its block is a paragraph.
    private var paragraph: [Bool] = [false]

    /// A block longer than this (scalars) that is a paragraph is parsed only around the
    /// place asked about: a 1 MB comment of prose is one paragraph, and a keystroke's
    /// frame parses a screenful of it.
    static let longParagraph = 16_384
    /// How much of a long paragraph is parsed on each side of that place, at least.
    static let margin = 512

    /// The index of the first start after `position` (`starts.count` when none).
    private func firstIndex(after position: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= position { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func index(atOrBefore position: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= position { low = mid + 1 } else { high = mid }
        }
        return max(low - 1, 0)
    }

    /// What to parse to answer about `range` (what a frame shows, or a trigger's place):
    /// from the start of the top-level block that holds its start to the start of the
    /// block after the one holding its end — within a long paragraph, only lines around
    /// `range` (cut before and after lines that start with a letter, which continue a
    /// paragraph and start nothing else). The cuts are looked for from multiples of
    /// `margin`, so that a view that moves a little (a line wraps as a key is typed) asks
    /// about the same window, which `MarkdownRunCache` has parsed.
    func window(around range: Range<Int>, in storage: TextStorage) -> Range<Int> {
        let i = index(atOrBefore: range.lowerBound)
        let j = index(atOrBefore: max(range.upperBound - 1, range.lowerBound))
        func end(_ k: Int) -> Int { k + 1 < starts.count ? starts[k + 1] : storage.count }
        var from = starts[i]
        var to = end(j)
        let before = (range.lowerBound / Self.margin - 1) * Self.margin
        let after = (range.upperBound / Self.margin + 2) * Self.margin
        if paragraph[i], end(i) - from > Self.longParagraph, before > from {
            from = MarkdownBlocks.letterLine(atOrBefore: before, after: from, in: storage)
        }
        if paragraph[j], to - starts[j] > Self.longParagraph, after < to {
            to = MarkdownBlocks.letterLine(after: after, before: to, in: storage)
        }
        return from ..< to
    }

    /// The start of a line at or before `position` (and after `floor`) that starts with a
    /// letter; `floor` when there is none nearby.
    static func letterLine(atOrBefore position: Int, after floor: Int, in storage: TextStorage) -> Int {
        var p = storage.lineStart(position)
        for _ in 0 ..< 64 {
            guard p > floor else { return floor }
            if let s = storage.scalar(at: p), s.properties.isAlphabetic { return p }
            p = storage.lineStart(p - 1)
        }
        return floor
    }

    /// The start of a line after `position` (and before `ceiling`) that starts with a
    /// letter; `ceiling` when there is none nearby.
    static func letterLine(after position: Int, before ceiling: Int, in storage: TextStorage) -> Int {
        var p = storage.lineEnd(position)
        for _ in 0 ..< 64 {
            p += storage.lineBreakLength(at: p)
            guard p < ceiling, p > 0 else { return ceiling }
            if let s = storage.scalar(at: p), s.properties.isAlphabetic { return p }
            p = storage.lineEnd(p)
        }
        return ceiling
    }

    /// Moves the starts after old position `position` by `delta`.
    private mutating func shift(after position: Int, by delta: Int) {
        guard delta != 0 else { return }
        for k in firstIndex(after: position) ..< starts.count { starts[k] += delta }
    }

    /// Whether `edit` (already applied), which removed `removed`, leaves every block as
    /// it was: it types or deletes letters, digits, blanks and quiet punctuation after the
    /// first character of a line that starts with a letter and holds no `<` or `>` (which
    /// could end an HTML block). Such a line is prose, a fence's or an HTML block's text
    /// or a table row before and after, and the lines around it read the same.
    static func isInert(_ edit: ChangeSet.Edit, removed: String, in storage: TextStorage) -> Bool {
        func quiet(_ s: Unicode.Scalar) -> Bool {
            s.properties.isAlphabetic || ("0" ... "9").contains(s) || " .,;:'\"()".unicodeScalars.contains(s)
        }
        guard edit.text.unicodeScalars.allSatisfy(quiet), removed.unicodeScalars.allSatisfy(quiet),
              edit.text.unicodeScalars.count + removed.unicodeScalars.count <= 64 else { return false }
        let lineStart = storage.lineStart(edit.start)
        var p = lineStart
        while let s = storage.scalar(at: p), s == " " || s == "\t", p - lineStart < 64 { p += 1 }
        guard let first = storage.scalar(at: p), first.properties.isAlphabetic, edit.start > p else { return false }
        let line = storage.slice(lineStart ..< storage.lineEnd(edit.start + edit.length))
        return !line.unicodeScalars.contains { $0 == "<" || $0 == ">" }
    }

    /// A text's blocks, from a parse of the whole of it.
    init(_ storage: TextStorage) {
        let window = MarkdownWindow(storage, from: 0, to: storage.count, blocksOnly: true)
        (starts, paragraph) = window.blocks()
        if starts.first != 0 {
            starts.insert(0, at: 0)
            paragraph.insert(false, at: 0)
        }
    }

    /// Follows `edits` (already applied to `storage`).
    mutating func update(_ edits: [ChangeSet.Edit], removed: [String] = [], storage: TextStorage) {
        guard let first = edits.first, let last = edits.last else { return }
        let delta = edits.reduce(0) { $0 + $1.length - $1.range.count }
        let editEnd = last.start + last.length
        // Most keys type or delete a letter inside a line of prose: no block changes.
        if edits.count == 1, removed.count == 1, MarkdownBlocks.isInert(first, removed: removed[0], in: storage) {
            shift(after: first.range.upperBound, by: delta)
            return
        }
        // Inside a long paragraph, an edit that leaves the lines around it one paragraph
        // changes no block: the starts after it only move.
        let i = index(atOrBefore: first.start)
        if paragraph[i], i == index(atOrBefore: last.range.upperBound) {
            let oldEnd = i + 1 < starts.count ? starts[i + 1] + delta : storage.count
            if oldEnd - starts[i] > Self.longParagraph {
                let from = first.start - starts[i] > Self.margin
                    ? MarkdownBlocks.letterLine(atOrBefore: first.start - Self.margin, after: starts[i], in: storage) : starts[i]
                let to = oldEnd - editEnd > Self.margin
                    ? MarkdownBlocks.letterLine(after: editEnd + Self.margin, before: oldEnd, in: storage) : oldEnd
                let window = MarkdownWindow(storage, from: from, to: to, blocksOnly: true)
                let (found, kinds) = window.blocks()
                if found == [from], kinds == [true] {
                    for k in (i + 1) ..< starts.count { starts[k] += delta }
                    return
                }
            }
        }
        // A block starting on the first edited line may have stopped starting one.
        let cut = storage.lineStart(first.start)
        var keep = firstIndex(after: cut - 1)
        if keep == 0 { keep = 1 }  // 0 always starts the text
        // Starts on lines the edits did not touch, moved with the text after them.
        var laterIndex = firstIndex(after: last.range.upperBound)
        while laterIndex < starts.count, starts[laterIndex] + delta <= editEnd { laterIndex += 1 }
        func later(_ k: Int) -> Int { starts[laterIndex + k] + delta }
        let laterCount = starts.count - laterIndex
        let from = starts[keep - 1]
        var k = 0
        while true {
            let end = k + 1 < laterCount && k < 4 ? later(k + 1) : storage.count
            let (found, kinds) = MarkdownWindow(storage, from: from, to: end, blocksOnly: true).blocks()
            let matched = end != storage.count && found.contains(later(k))
            guard end == storage.count || matched else {
                k += 1
                continue
            }
            var fresh: [Int] = [], freshKinds: [Bool] = []
            for (start, kind) in zip(found, kinds) where start > from && (!matched || start < later(k)) {
                fresh.append(start)
                freshKinds.append(kind)
            }
            if let f = found.first, f == from { paragraph[keep - 1] = kinds[0] }
            let replaced = keep ..< (matched ? laterIndex + k : starts.count)
            starts.replaceSubrange(replaced, with: fresh)
            paragraph.replaceSubrange(replaced, with: freshKinds)
            if matched {
                for j in (keep + fresh.count) ..< starts.count { starts[j] += delta }
            }
            return
        }
    }
}

/// The part of the document from one top-level block start to another, parsed.
struct MarkdownWindow {
    let start: Int
    let bytes: [UInt8]
    let syntax: MarkdownSyntax

    init(_ storage: TextStorage, from start: Int, to end: Int, probe: (position: Int, text: String)? = nil,
         blocksOnly: Bool = false) {
        self.start = start
        var bytes: [UInt8]
        if let probe {
            bytes = storage.utf8(start ..< probe.position)
            bytes += Array(probe.text.utf8)
            bytes += storage.utf8(probe.position ..< end)
        } else {
            bytes = storage.utf8(start ..< end)
        }
        self.bytes = bytes
        syntax = bytes.withUnsafeBufferPointer { MarkdownSyntax($0, blocksOnly: blocksOnly) }
    }

    /// The byte offset of document position `position` (at or after `start`).
    func byte(of position: Int) -> Int {
        MarkdownWindow.byte(of: position, in: bytes, from: start)
    }

    /// The byte offset in `bytes` (which start at document position `start`) of
    /// document position `position`.
    static func byte(of position: Int, in bytes: [UInt8], from start: Int) -> Int {
        var scalars = start
        var i = 0
        while i < bytes.count, scalars < position {
            i += 1
            while i < bytes.count, UTF8Scan.isContinuation(bytes[i]) { i += 1 }
            scalars += 1
        }
        return i
    }

    /// Byte offsets, increasing, as document positions.
    func positions(_ offsets: [Int]) -> [Int] {
        MarkdownWindow.positions(offsets, in: bytes, from: start)
    }

    /// Byte offsets into `bytes`, increasing, as document positions (`bytes` start at
    /// document position `start`).
    static func positions(_ offsets: [Int], in bytes: [UInt8], from start: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(offsets.count)
        var scalars = start
        var i = 0
        for offset in offsets {
            while i < offset, i < bytes.count {
                if !UTF8Scan.isContinuation(bytes[i]) { scalars += 1 }
                i += 1
            }
            out.append(scalars)
        }
        return out
    }

    /// The top-level block starts, as document positions, and whether each is a paragraph.
    /// Blocks that start on one line (a table the extension cut from a paragraph) count
    /// once, as no paragraph.
    func blocks() -> ([Int], [Bool]) {
        var starts: [Int] = [], paragraph: [Bool] = []
        for (start, isParagraph) in zip(positions(syntax.blockStarts), syntax.blockIsParagraph) {
            if starts.last == start {
                paragraph[paragraph.count - 1] = false
            } else {
                starts.append(start)
                paragraph.append(isParagraph)
            }
        }
        return (starts, paragraph)
    }
}

extension Editor {
    /// The Markdown spans that reach `range`, as document positions, innermost on top:
    /// sorted, disjoint runs each of one kind (the front end draws them in roles).
    public func markdownRuns(in range: Range<Int>) -> [(range: Range<Int>, kind: MarkdownSyntax.Kind)] {
        guard config.markdown, storage.count > 0 else { return [] }
        let blocks = markdownBlocks ?? MarkdownBlocks(storage)
        let window = blocks.window(around: range, in: storage)
        let bytes = storage.utf8(window)
        let runs = markdownCache.parsed(bytes).runs
        var offsets: [Int] = []
        offsets.reserveCapacity(runs.count * 2)
        for run in runs {
            offsets.append(run.range.lowerBound)
            offsets.append(run.range.upperBound)
        }
        // `positions` wants increasing offsets: runs are sorted and disjoint.
        let positions = MarkdownWindow.positions(offsets, in: bytes, from: window.lowerBound)
        var out: [(range: Range<Int>, kind: MarkdownSyntax.Kind)] = []
        for (i, run) in runs.enumerated() {
            let r = positions[2 * i] ..< positions[2 * i + 1]
            if r.overlaps(range) { out.append((r, run.kind)) }
        }
        return out
    }

    /// Whether a trigger at `position` is in Markdown prose, where GitHub makes a mention:
    /// not in code, HTML, a link or a URL, nor a `#` starting a heading. With `probe`, the
    /// trigger is not in the text yet and is tried there. Text being typed counts as what
    /// it is about to be (docs/markdown.md): after an unclosed backtick on the line it is
    /// code, right after `](` a link's destination, after an unclosed `<!--` on the line a
    /// comment, inside a tag being typed (`<a href="`) HTML; and a `#` after a blank at the
    /// end of a heading's line starts a word of its text (`## Notes for #general`), not the
    /// heading's closing `#`s.
    func isMarkdownProse(_ position: Int, probe: String? = nil) -> Bool {
        let blocks = markdownBlocks ?? MarkdownBlocks(storage)
        let around = blocks.window(around: position ..< position + 1, in: storage)
        var syntax: MarkdownSyntax, bytes: [UInt8], offset: Int
        if let probe {
            let window = MarkdownWindow(storage, from: around.lowerBound, to: around.upperBound, probe: (position, probe))
            (syntax, bytes, offset) = (window.syntax, window.bytes, window.byte(of: position))
        } else {
            bytes = storage.utf8(around)
            syntax = markdownCache.parsed(bytes).prose
            offset = MarkdownWindow.byte(of: position, in: bytes, from: around.lowerBound)
        }
        var prose = syntax.proseRun(containing: offset)
        if prose == nil, mayCloseHeading(position, probe: probe) {
            // The `#` with a word after it, as it is about to be: still in the heading, and
            // in its text (where reading finds `#general`), or not a search.
            let word = probe.map { (position: position, text: $0 + "x") } ?? (position: position + 1, text: "x")
            let window = MarkdownWindow(storage, from: around.lowerBound, to: around.upperBound, probe: word)
            let at = window.byte(of: position)
            if window.syntax.spans.contains(where: { $0.kind == .heading && $0.range.contains(at) }),
               let run = window.syntax.proseRun(containing: at) {
                (syntax, bytes, offset, prose) = (window.syntax, window.bytes, at, run)
            }
        }
        guard let run = prose else { return false }
        // An unclosed backtick earlier on the line, in the same prose: a code span being typed.
        var backticks = 0
        var i = offset
        while i > run.lowerBound, bytes[i - 1] != 0x0A {
            i -= 1
            if bytes[i] == UInt8(ascii: "`"), i == 0 || bytes[i - 1] != UInt8(ascii: "\\") { backticks += 1 }
        }
        if backticks % 2 == 1 { return false }
        if offset >= 2, bytes[offset - 1] == UInt8(ascii: "("), bytes[offset - 2] == UInt8(ascii: "]") { return false }
        return !MarkdownHTMLTyping.isInside(bytes, at: offset, syntax: syntax)
    }

    /// Whether a `#` at `position` (or `probe` there) may be read as the closing `#`s of a
    /// heading: it follows a blank and nothing but blanks follow it on its line.
    private func mayCloseHeading(_ position: Int, probe: String?) -> Bool {
        let hash: Unicode.Scalar = "#"
        guard (probe?.unicodeScalars.first ?? storage.scalar(at: position)) == hash,
              let before = storage.scalar(at: position - 1), before == " " || before == "\t" else { return false }
        var p = probe == nil ? position + 1 : position
        while let s = storage.scalar(at: p), s == " " || s == "\t" { p += 1 }
        guard let s = storage.scalar(at: p) else { return true }
        return s == "\n" || s == "\r"
    }

    /// Builds or follows the Markdown block starts after a change (Markdown formats only).
    mutating func updateMarkdownBlocks(_ edits: [ChangeSet.Edit], removed: [String]) {
        guard config.markdown else {
            markdownBlocks = nil
            return
        }
        if markdownBlocks == nil {
            markdownBlocks = MarkdownBlocks(storage)
        } else {
            markdownBlocks!.update(edits, removed: removed, storage: storage)
        }
    }
}

/// The Markdown of the windows parsed last, by their bytes: a frame that shows what the
/// last one showed parses nothing, and one whose window is the last with a letter typed
/// into a word moves the last parse (`MarkdownSyntax.typedInWord`). A memo (the same bytes
/// always give the same runs), so editors that share it (copies of one) cannot disagree.
public final class MarkdownRunCache: Sendable {
    /// A window's runs and its prose (byte ranges in the window).
    struct Parsed: Sendable {
        var runs: [MarkdownSyntax.Span]
        var prose: MarkdownSyntax
    }

    /// The windows parsed last, newest first: the frame's and the trigger's.
    private let recent = Mutex<[(bytes: [UInt8], parsed: Parsed)]>([])
    /// Windows kept (the frame's and the one around a trigger, with room to scroll back).
    private static let capacity = 4

    public init() {}

    func parsed(_ bytes: [UInt8]) -> Parsed {
        let known = recent.withLock { recent -> Parsed? in
            if let hit = recent.first(where: { $0.bytes == bytes }) { return hit.parsed }
            for last in recent where last.bytes.count < bytes.count {
                guard let typed = MarkdownSyntax.typedInWord(from: last.bytes, to: bytes) else { continue }
                // A letter typed into a word: the last parse, moved (no cmark parse).
                let syntax = last.parsed.prose.typing(typed)
                let moved = Parsed(runs: syntax.runs(), prose: syntax)
                Self.remember(bytes, moved, in: &recent)
                return moved
            }
            return nil
        }
        if let known { return known }
        let syntax = bytes.withUnsafeBufferPointer { MarkdownSyntax($0) }
        let parsed = Parsed(runs: syntax.runs(), prose: syntax)
        recent.withLock { Self.remember(bytes, parsed, in: &$0) }
        return parsed
    }

    private static func remember(_ bytes: [UInt8], _ parsed: Parsed, in recent: inout [(bytes: [UInt8], parsed: Parsed)]) {
        // Room first, so the list never outgrows its buffer.
        if recent.count >= capacity { recent.removeLast() }
        recent.insert((bytes, parsed), at: 0)
    }
}

extension MarkdownSyntax {
    /// The spans flattened: sorted, disjoint runs, where a span inside another (a code
    /// span in a quote) takes its part of the outer one.
    public func runs() -> [Span] {
        var out: [Span] = []
        var stack: [Span] = []
        var position = 0
        func emit(_ kind: Kind, _ end: Int) {
            guard end > position else { return }
            if let last = out.last, last.kind == kind, last.range.upperBound == position {
                out[out.count - 1].range = last.range.lowerBound ..< end
            } else {
                out.append(Span(kind: kind, range: position ..< end))
            }
            position = end
        }
        func close(before limit: Int) {
            while let top = stack.last, top.range.upperBound <= limit {
                emit(top.kind, top.range.upperBound)
                stack.removeLast()
                position = max(position, top.range.upperBound)
            }
        }
        for span in spans {
            close(before: span.range.lowerBound)
            if let top = stack.last { emit(top.kind, span.range.lowerBound) }
            position = max(position, span.range.lowerBound)
            stack.append(span)
        }
        close(before: .max)
        return out
    }
}
