/// The document's text and its mentions, stored in chunks so that an edit costs work in
/// proportion to the edit, not to the document.
///
/// Positions are Unicode-scalar offsets from the start of the text. Each chunk holds a run
/// of UTF-8 bytes and the mentions that lie inside it (with chunk-relative ranges); a chunk
/// boundary never falls strictly inside a mention. A Fenwick tree over chunk sizes finds
/// the chunk of a position and shifts everything after an edit in O(log chunks), which is
/// what keeps a keystroke in a 10 MB document as cheap as in a 10 KB one.
///
/// This type keeps text and mention ranges consistent but knows no editing policy: the
/// editor's apply path decides what to bleach or remove before it calls `replace`.
public struct TextStorage: Sendable {
    struct Chunk: Sendable {
        var bytes: [UInt8]
        var scalars: Int
        var backticks: Int
        var newlines: Int
        var mentions: [Mention]

        static let empty = Chunk(bytes: [])

        init(bytes: [UInt8], mentions: [Mention] = []) {
            self.bytes = bytes
            self.scalars = UTF8Scan.scalarCount(bytes[...])
            self.backticks = TextStorage.countByte(0x60, in: bytes[...])
            self.newlines = TextStorage.countByte(0x0A, in: bytes[...])
            self.mentions = mentions
        }
    }

    /// Chunks are split when they grow past this many scalars.
    static let maxChunk = 1024
    /// The size in bytes chunks are cut to when built or split.
    static let targetChunk = 512

    private(set) var chunks: [Chunk]
    private var sizes: Fenwick
    private var ticks: Fenwick
    private var lineBreaks: Fenwick
    /// The number of Unicode scalars in the text.
    public private(set) var count: Int
    /// The number of mentions in the text.
    public private(set) var mentionCount: Int
    /// How many of those are kept constructs (`Mention.isKept`).
    public private(set) var keptCount: Int
    /// The number of mentions a person counts: tokens that are not kept constructs.
    public var listedMentionCount: Int { mentionCount - keptCount }

    /// Builds storage from text and its mentions (sorted, non-overlapping, in range).
    public init(_ doc: MarkedText = MarkedText()) {
        let bytes = Array(doc.text.utf8)
        chunks = TextStorage.cut(bytes[...], mentions: doc.mentions, base: 0)
        if chunks.isEmpty { chunks = [Chunk(bytes: [])] }
        sizes = Fenwick(chunks.map(\.scalars))
        ticks = Fenwick(chunks.map(\.backticks))
        lineBreaks = Fenwick(chunks.map(\.newlines))
        count = chunks.reduce(0) { $0 + $1.scalars }
        mentionCount = doc.mentions.count
        keptCount = TextStorage.keptIn(doc.mentions)
    }

    // MARK: - Reading

    /// The whole text and its mentions as a plain value.
    public var marked: MarkedText {
        MarkedText(text: string, mentions: allMentions)
    }

    /// The whole text.
    public var string: String {
        var all: [UInt8] = []
        all.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count })
        for chunk in chunks { all.append(contentsOf: chunk.bytes) }
        return String(decoding: all, as: UTF8.self)
    }

    /// The UTF-8 bytes of each chunk in order (every chunk starts and ends on a scalar
    /// boundary), for whole-text scans that must not build a String.
    var byteRuns: some Sequence<[UInt8]> { chunks.lazy.map(\.bytes) }

    /// Every mention, in document order, with document ranges.
    public var allMentions: [Mention] {
        var result: [Mention] = []
        result.reserveCapacity(mentionCount)
        var start = 0
        for chunk in chunks {
            for m in chunk.mentions { result.append(m.shifted(by: start)) }
            start += chunk.scalars
        }
        return result
    }

    /// The text of `range` (clamped to the text).
    public func slice(_ range: Range<Int>) -> String {
        String(decoding: utf8(range), as: UTF8.self)
    }

    /// The UTF-8 bytes of `range` (clamped to the text).
    public func utf8(_ range: Range<Int>) -> [UInt8] {
        let lo = max(0, min(range.lowerBound, count))
        let hi = max(lo, min(range.upperBound, count))
        if lo == hi { return [] }
        var out: [UInt8] = []
        var (i, start) = locate(lo)
        var pos = lo
        while pos < hi && i < chunks.count {
            let chunk = chunks[i]
            let from = pos - start
            let to = min(hi - start, chunk.scalars)
            let b0 = TextStorage.byteOffset(chunk, from)
            let b1 = TextStorage.byteOffset(chunk, to, from: from, byte: b0)
            out.append(contentsOf: chunk.bytes[b0..<b1])
            pos = start + to
            start += chunk.scalars
            i += 1
        }
        return out
    }

    /// The scalar at `position`, or nil at the end of the text.
    public func scalar(at position: Int) -> Unicode.Scalar? {
        guard position >= 0 && position < count else { return nil }
        let (i, start) = locate(position)
        let chunk = chunks[i]
        let b = TextStorage.byteOffset(chunk, position - start)
        return UTF8Scan.scalar(in: chunk.bytes, at: b).0
    }

    /// How many scalars from `position` to the next line break (the CR of a CR LF, a lone
    /// LF, or the end of the text), looking at most `limit` scalars ahead (then `limit`).
    public func distanceToNewline(from position: Int, limit: Int) -> Int {
        let n = distanceToLineFeed(from: position, limit: limit)
        // A CR right before the LF belongs to the line break, not to the line's text.
        if n > 0 && n < limit && scalar(at: position + n) == "\n" && scalar(at: position + n - 1) == "\r" {
            return n - 1
        }
        return n
    }

    /// How many scalars from `position` to the next LF (or the end of the text), looking
    /// at most `limit` scalars ahead (then `limit`). A byte search per chunk.
    private func distanceToLineFeed(from position: Int, limit: Int) -> Int {
        guard position < count, limit > 0 else { return 0 }
        var (i, start) = locate(position)
        var b = TextStorage.byteOffset(chunks[i], position - start)
        var n = 0
        while i < chunks.count {
            let chunk = chunks[i]
            let ascii = chunk.bytes.count == chunk.scalars
            let stop = chunk.bytes[b...].firstIndex(of: 0x0A) ?? chunk.bytes.count
            n += ascii ? stop - b : UTF8Scan.scalarCount(chunk.bytes[b..<stop])
            if n >= limit { return limit }
            if stop < chunk.bytes.count { return n }
            i += 1
            b = 0
        }
        return n
    }

    /// Visits the scalars after `position` in order while `body` returns true (at most
    /// `limit`), decoding straight from the chunks' bytes. Returns how many it accepted.
    @discardableResult
    public func scanForward(from position: Int, limit: Int, _ body: (Unicode.Scalar) -> Bool) -> Int {
        guard position < count, limit > 0 else { return 0 }
        var (i, start) = locate(position)
        var b = TextStorage.byteOffset(chunks[i], position - start)
        var n = 0
        while n < limit && i < chunks.count {
            let bytes = chunks[i].bytes
            while b < bytes.count {
                var end = b + 1
                while end < bytes.count && UTF8Scan.isContinuation(bytes[end]) { end += 1 }
                let s = bytes[b] < 0x80 ? Unicode.Scalar(bytes[b])
                    : (String(decoding: bytes[b..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}")
                guard n < limit, body(s) else { return n }
                n += 1
                b = end
            }
            i += 1
            b = 0
        }
        return n
    }

    /// Visits the scalars before `position` backwards while `body` returns true (at most
    /// `limit`), decoding straight from the chunks' bytes. Returns how many it accepted.
    @discardableResult
    public func scanBackward(from position: Int, limit: Int, _ body: (Unicode.Scalar) -> Bool) -> Int {
        guard position > 0, limit > 0 else { return 0 }
        var (i, start) = locate(position - 1)
        var b = TextStorage.byteOffset(chunks[i], position - start)
        var n = 0
        while n < limit && i >= 0 {
            let bytes = chunks[i].bytes
            while b > 0 {
                var lead = b - 1
                while lead > 0 && UTF8Scan.isContinuation(bytes[lead]) { lead -= 1 }
                let s = bytes[lead] < 0x80 ? Unicode.Scalar(bytes[lead])
                    : (String(decoding: bytes[lead..<b], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}")
                guard n < limit, body(s) else { return n }
                n += 1
                b = lead
            }
            i -= 1
            if i >= 0 { b = chunks[i].bytes.count }
        }
        _ = start
        return n
    }

    /// Whether the scalars on both sides of `position` are ASCII and not CR LF — then
    /// `position` is certainly a grapheme boundary. One chunk lookup in the common case.
    func isASCIIPair(at position: Int) -> Bool {
        guard position > 0 && position < count else { return false }
        let (i, start) = locate(position)
        let chunk = chunks[i]
        let offset = position - start
        if offset > 0 && chunk.bytes.count == chunk.scalars {
            let a = chunk.bytes[offset - 1]
            let b = chunk.bytes[offset]
            return !(a == 0x0D && b == 0x0A)
        }
        guard let a = scalar(at: position - 1), let b = scalar(at: position), a.isASCII, b.isASCII else { return false }
        return !(a == "\r" && b == "\n")
    }

    /// The number of backticks before `position` (cheap: a prefix sum over chunks, then
    /// part of one chunk). Zero means no inline code or fence can be open there.
    func backticks(before position: Int) -> Int {
        let (i, start) = locate(position)
        let chunk = chunks[i]
        let earlier = ticks.prefix(i)
        if chunk.backticks == 0 { return earlier }
        let b = TextStorage.byteOffset(chunk, position - start)
        return earlier + TextStorage.countByte(0x60, in: chunk.bytes[..<b])
    }

    /// The number of newlines before `position`: the 0-based line it is on, in O(log n)
    /// plus part of one chunk.
    public func newlines(before position: Int) -> Int {
        let (i, start) = locate(position)
        let chunk = chunks[i]
        let earlier = lineBreaks.prefix(i)
        if chunk.newlines == 0 { return earlier }
        let b = TextStorage.byteOffset(chunk, min(max(position, 0), count) - start)
        return earlier + TextStorage.countByte(0x0A, in: chunk.bytes[..<b])
    }

    /// The number of lines (newlines plus one).
    public var lineCount: Int { lineBreaks.prefix(chunks.count) + 1 }

    /// The start of 0-based line `line` (clamped to the first and last line), found
    /// through the newline counts in O(log n) plus one chunk.
    public func start(ofLine line: Int) -> Int {
        let target = min(max(line, 0), lineCount - 1)
        if target == 0 { return 0 }
        // The chunk holding newline number `target` (1-based): the chunks before it hold
        // fewer than `target`.
        let (i, before) = lineBreaks.lastIndex(withPrefixAtMost: target - 1)
        let chunk = chunks[i]
        var remaining = target - before
        var b = 0
        while b < chunk.bytes.count {
            if chunk.bytes[b] == 0x0A {
                remaining -= 1
                if remaining == 0 { break }
            }
            b += 1
        }
        return sizes.prefix(i) + UTF8Scan.scalarCount(chunk.bytes[...b])
    }

    /// The start of the line holding `position` (just after the previous newline).
    public func lineStart(_ position: Int) -> Int {
        var (i, start) = locate(min(max(position, 0), count))
        var offset = min(max(position, 0), count) - start
        while true {
            let chunk = chunks[i]
            let b = TextStorage.byteOffset(chunk, offset)
            if let nl = chunk.bytes[..<b].lastIndex(of: 0x0A) {
                return start + UTF8Scan.scalarCount(chunk.bytes[..<(nl + 1)])
            }
            if i == 0 { return 0 }
            i -= 1
            start -= chunks[i].scalars
            offset = chunks[i].scalars
        }
    }

    /// The end of the line holding `position`: at its line break (the CR of a CR LF, which
    /// is one break, or a lone LF) or the end of the text.
    public func lineEnd(_ position: Int) -> Int {
        let p = min(max(position, 0), count)
        let feed = lineFeed(atOrAfter: p)
        return feed > p && feed < count && scalar(at: feed - 1) == "\r" && scalar(at: feed) == "\n" ? feed - 1 : feed
    }

    /// How many scalars the line break at `position` takes: 2 for CR LF, 1 for a lone LF,
    /// 0 elsewhere (a lone CR is text, not a break).
    public func lineBreakLength(at position: Int) -> Int {
        switch scalar(at: position) {
        case "\n": return 1
        case "\r": return scalar(at: position + 1) == "\n" ? 2 : 0
        default: return 0
        }
    }

    /// How many scalars the line break ending at `position` takes (a line's start): 2 for
    /// CR LF, 1 for a lone LF, 0 at the start of the text or inside a line.
    public func lineBreakLength(before position: Int) -> Int {
        guard position > 0, scalar(at: position - 1) == "\n" else { return 0 }
        return position > 1 && scalar(at: position - 2) == "\r" ? 2 : 1
    }

    /// The position of the first LF at or after `position`, or the end of the text.
    private func lineFeed(atOrAfter position: Int) -> Int {
        var (i, start) = locate(min(max(position, 0), count))
        var offset = min(max(position, 0), count) - start
        while i < chunks.count {
            let chunk = chunks[i]
            let b = TextStorage.byteOffset(chunk, offset)
            if let nl = chunk.bytes[b...].firstIndex(of: 0x0A) {
                return start + offset + UTF8Scan.scalarCount(chunk.bytes[b..<nl])
            }
            start += chunk.scalars
            offset = 0
            i += 1
        }
        return count
    }

    // MARK: - Mentions

    /// The mentions that overlap `range`; for an empty range, the one strictly containing it.
    public func mentions(overlapping range: Range<Int>) -> [Mention] {
        var result: [Mention] = []
        var (i, start) = locate(max(0, range.lowerBound - 1))
        while i < chunks.count && start <= range.upperBound {
            for m in chunks[i].mentions {
                let r = m.range.lowerBound + start ..< m.range.upperBound + start
                let hit = range.isEmpty
                    ? (r.lowerBound < range.lowerBound && range.lowerBound < r.upperBound)
                    : r.overlaps(range)
                if hit { result.append(m.shifted(by: start)) }
            }
            start += chunks[i].scalars
            i += 1
        }
        return result
    }

    /// The mention of the chunk holding `position` for which `match` holds (document
    /// ranges). A mention never crosses a chunk, so one chunk is enough.
    private func mention(inChunkOf position: Int, where match: (Range<Int>) -> Bool) -> Mention? {
        guard position >= 0, position <= count else { return nil }
        let (i, start) = locate(position)
        let mentions = chunks[i].mentions
        // Binary search for the first mention ending after `position - start - 1`.
        let local = position - start
        var lo = 0
        var hi = mentions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if mentions[mid].range.upperBound < local { lo = mid + 1 } else { hi = mid }
        }
        var k = lo
        while k < mentions.count && mentions[k].range.lowerBound <= local + 1 {
            let r = mentions[k].range.lowerBound + start ..< mentions[k].range.upperBound + start
            if match(r) { return mentions[k].shifted(by: start) }
            k += 1
        }
        return nil
    }

    /// The mention whose range strictly contains `position` (not at its edges).
    public func mention(containing position: Int) -> Mention? {
        mention(inChunkOf: position) { $0.lowerBound < position && position < $0.upperBound }
    }

    /// The mention that ends exactly at `position`.
    public func mention(endingAt position: Int) -> Mention? {
        guard position > 0 else { return nil }
        return mention(inChunkOf: position - 1) { $0.upperBound == position }
    }

    /// The mention that starts exactly at `position`.
    public func mention(startingAt position: Int) -> Mention? {
        guard position < count else { return nil }
        return mention(inChunkOf: position) { $0.lowerBound == position }
    }

    /// Adds a mention over text that already reads `trigger + name`.
    public mutating func addMention(_ mention: Mention) {
        let r = mention.range
        precondition(r.lowerBound >= 0 && r.upperBound <= count, "mention out of range")
        var (i, start) = locate(r.lowerBound)
        if r.upperBound > start + chunks[i].scalars {
            mergeChunks(covering: r)
            (i, start) = locate(r.lowerBound)
        }
        let local = mention.shifted(by: -start)
        let at = chunks[i].mentions.firstIndex { $0.range.lowerBound >= local.range.lowerBound } ?? chunks[i].mentions.count
        chunks[i].mentions.insert(local, at: at)
        mentionCount += 1
        if mention.isKept { keptCount += 1 }
    }

    /// Removes the mention with exactly this range (its text stays). Returns it, if found.
    @discardableResult
    public mutating func removeMention(at range: Range<Int>) -> Mention? {
        let (i, start) = locate(range.lowerBound)
        guard let k = chunks[i].mentions.firstIndex(where: { $0.range.lowerBound + start == range.lowerBound }) else {
            return nil
        }
        let m = chunks[i].mentions.remove(at: k)
        mentionCount -= 1
        if m.isKept { keptCount -= 1 }
        return m.shifted(by: start)
    }

    /// How many of `tokens` are kept constructs.
    private static func keptIn(_ tokens: [Mention]) -> Int {
        tokens.reduce(0) { $0 + ($1.isKept ? 1 : 0) }
    }

    // MARK: - Editing

    /// What a `replace` took out: the text, and the mentions it covered (document ranges
    /// as they were before the edit).
    public struct Removed: Sendable {
        public var text: String
        public var mentions: [Mention]
    }

    /// Replaces `range` with `text`, adding `mentions` (ranges relative to the start of the
    /// inserted text). Mentions wholly inside `range` are removed with it; any that only
    /// partly overlap are removed too (the caller bleaches them first, so it can undo that).
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with text: String, mentions inserted: [Mention] = []) -> Removed {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "replace out of range")
        let newBytes = Array(text.utf8)
        let newScalars = UTF8Scan.scalarCount(newBytes[...])
        let (i, start) = locate(range.lowerBound)
        let (j, _) = range.isEmpty ? (i, start) : locate(range.upperBound - 1)
        let delta = newScalars - range.count

        if i == j && newBytes.count <= TextStorage.maxChunk {
            // The common case: a short edit in one chunk.
            // Take the chunk out so its arrays are uniquely referenced and edited in place.
            var chunk = chunks[i]
            chunks[i] = Chunk.empty
            let a = range.lowerBound - start
            let b = range.upperBound - start
            let ba = TextStorage.byteOffset(chunk, a)
            let bb = TextStorage.byteOffset(chunk, b, from: a, byte: ba)
            let removedBytes = chunk.bytes[ba..<bb]
            let removedText = String(decoding: removedBytes, as: UTF8.self)
            let removedTicks = TextStorage.countByte(0x60, in: removedBytes)
            let addedTicks = TextStorage.countByte(0x60, in: newBytes[...])
            let removedLines = TextStorage.countByte(0x0A, in: removedBytes)
            let addedLines = TextStorage.countByte(0x0A, in: newBytes[...])
            var removed: [Mention] = []
            var kept: [Mention] = []
            kept.reserveCapacity(chunk.mentions.count + inserted.count)
            var placed = false
            for m in chunk.mentions {
                let r = m.range
                let inside = range.isEmpty ? (r.lowerBound < a && a < r.upperBound) : r.overlaps(a..<b)
                if inside {
                    removed.append(m.shifted(by: start))
                    continue
                }
                if r.lowerBound >= b || (range.isEmpty && r.lowerBound >= a) {
                    if !placed {
                        for n in inserted { kept.append(n.shifted(by: a)) }
                        placed = true
                    }
                    kept.append(m.shifted(by: delta))
                } else {
                    kept.append(m)
                }
            }
            if !placed { for n in inserted { kept.append(n.shifted(by: a)) } }
            chunk.bytes.replaceSubrange(ba..<bb, with: newBytes)
            chunk.scalars += delta
            chunk.backticks += addedTicks - removedTicks
            chunk.newlines += addedLines - removedLines
            chunk.mentions = kept
            chunks[i] = chunk
            sizes.add(i, delta)
            ticks.add(i, addedTicks - removedTicks)
            lineBreaks.add(i, addedLines - removedLines)
            count += delta
            mentionCount += inserted.count - removed.count
            keptCount += TextStorage.keptIn(inserted) - TextStorage.keptIn(removed)
            if chunk.scalars > TextStorage.maxChunk || (chunk.scalars == 0 && chunks.count > 1) {
                rechunk(i...i)
            }
            return Removed(text: removedText, mentions: removed)
        }

        // The edit spans chunks (a large deletion) or inserts more than a chunk holds (a
        // paste): the chunks it touches are cut again, once, around the new text.
        let startJ = start + (sizes.prefix(j) - sizes.prefix(i))
        let first = chunks[i]
        let last = chunks[j]
        let a = range.lowerBound - start
        let b = range.upperBound - startJ
        let ba = TextStorage.byteOffset(first, a)
        let bb = TextStorage.byteOffset(last, b)
        var removedBytes: [UInt8]
        if i == j {
            removedBytes = Array(first.bytes[ba ..< bb])
        } else {
            removedBytes = Array(first.bytes[ba...])
            for k in (i + 1)..<j { removedBytes.append(contentsOf: chunks[k].bytes) }
            removedBytes.append(contentsOf: last.bytes[..<bb])
        }
        var removed: [Mention] = []
        var merged: [Mention] = []
        var offset = start
        for k in i...j {
            for m in chunks[k].mentions {
                let r = m.range.lowerBound + offset ..< m.range.upperBound + offset
                let inside = range.isEmpty ? (r.lowerBound < range.lowerBound && range.lowerBound < r.upperBound)
                    : r.overlaps(range)
                if inside {
                    removed.append(m.shifted(by: offset))
                } else if r.upperBound <= range.lowerBound {
                    merged.append(m.shifted(by: offset - start))
                }
            }
            offset += chunks[k].scalars
        }
        for n in inserted { merged.append(n.shifted(by: a)) }
        offset = startJ
        for m in last.mentions where m.range.lowerBound + offset >= range.upperBound {
            merged.append(m.shifted(by: offset - start + delta))
        }
        var bytes = Array(first.bytes[..<ba])
        bytes.append(contentsOf: newBytes)
        bytes.append(contentsOf: last.bytes[bb...])
        var replacement = TextStorage.cut(bytes[...], mentions: merged, base: 0)
        if replacement.isEmpty && chunks.count == j - i + 1 { replacement = [Chunk(bytes: [])] }
        chunks.replaceSubrange(i...j, with: replacement)
        rebuildIndex()
        mentionCount += inserted.count - removed.count
        keptCount += TextStorage.keptIn(inserted) - TextStorage.keptIn(removed)
        return Removed(text: String(decoding: removedBytes, as: UTF8.self), mentions: removed)
    }

    // MARK: - Applying a change

    /// What a change took out of the text: the text each edit removed, in order ("" where
    /// it only inserts), and the mentions deleted with their text (old ranges, in order).
    public struct Taken: Sendable {
        public var texts: [String]
        public var mentions: [Mention]
    }

    /// Up to this many edits a change is made in place, edit by edit, each costing work in
    /// proportion to itself (a keystroke, an undo); more are made in one pass that builds
    /// the text again, linear in the text and the edits (a replacement at every match).
    static let editsInPlace = 8

    /// Applies the edits of a change (`ChangeSet.edits`, of a text as long as this one) and
    /// adds `added` (ranges in the new text, sorted). Mentions an edit deletes whole go
    /// with their text; the caller turns plain any it would cut (`mentionsCut(by:)`)
    /// first, as it can record that for undo.
    @discardableResult
    mutating func apply(_ edits: [ChangeSet.Edit], adding added: [Mention] = []) -> Taken {
        precondition(edits.last.map { $0.range.upperBound <= count } ?? true, "a change for another text")
        if edits.count > TextStorage.editsInPlace { return rebuild(edits, adding: added) }
        // Gathered from the last edit back, then turned around. (Not `Array(repeating:count:)`:
        // for strings that asks the runtime for prespecialized metadata on every call.)
        var texts: [String] = []
        texts.reserveCapacity(edits.count)
        var taken: [Mention] = []
        // From the last edit back, so the ranges of the earlier ones still hold. A mention
        // inside an inserted text goes in with it; the others are added after.
        var outside = added
        for k in edits.indices.reversed() {
            let edit = edits[k]
            let end = edit.start + edit.length
            var inside: [Mention] = []
            if edit.length > 0 && !outside.isEmpty {
                inside = outside.filter { $0.range.lowerBound >= edit.start && $0.range.upperBound <= end }
                    .map { $0.shifted(by: -edit.start) }
                if !inside.isEmpty { outside.removeAll { $0.range.lowerBound >= edit.start && $0.range.upperBound <= end } }
            }
            let removed = replace(edit.range, with: edit.text, mentions: inside)
            texts.append(removed.text)
            if !removed.mentions.isEmpty { taken.insert(contentsOf: removed.mentions, at: 0) }
        }
        for m in outside { addMention(m) }
        texts.reverse()
        return Taken(texts: texts, mentions: taken)
    }

    /// The mentions an edit would cut: it deletes part of them, or inserts strictly inside
    /// one. Each once, in order.
    func mentionsCut(by edits: [ChangeSet.Edit]) -> [Mention] {
        func cuts(_ edit: Range<Int>, _ m: Range<Int>) -> Bool {
            edit.isEmpty ? m.lowerBound < edit.lowerBound && edit.lowerBound < m.upperBound
                : edit.overlaps(m) && (m.lowerBound < edit.lowerBound || m.upperBound > edit.upperBound)
        }
        var result: [Mention] = []
        if edits.count <= TextStorage.editsInPlace {
            for edit in edits {
                if edit.range.isEmpty {
                    if let m = mention(containing: edit.range.lowerBound) { result.append(m) }
                    continue
                }
                for m in mentions(overlapping: edit.range) where cuts(edit.range, m.range) && !result.contains(m) {
                    result.append(m)
                }
            }
            return edits.count > 1 ? result.sorted(by: Transaction.inOrder) : result
        }
        // Many edits: one walk over the mentions and the edits together.
        var k = 0
        var start = 0
        for chunk in chunks {
            for local in chunk.mentions {
                let m = local.shifted(by: start)
                // Edits that end before the mention (or insert at its start) cannot cut it.
                while k < edits.count, edits[k].range.isEmpty ? edits[k].range.lowerBound <= m.range.lowerBound
                    : edits[k].range.upperBound <= m.range.lowerBound { k += 1 }
                var j = k
                while j < edits.count && edits[j].range.lowerBound < m.range.upperBound {
                    if cuts(edits[j].range, m.range) {
                        result.append(m)
                        break
                    }
                    j += 1
                }
            }
            start += chunk.scalars
        }
        return result
    }

    /// The mentions just outside the new text of `edits` (of a change just applied): those
    /// ending where an edit's text starts or starting where it ends. In order.
    func mentionsBeside(_ edits: [ChangeSet.Edit]) -> [Mention] {
        var result: [Mention] = []
        if edits.count <= TextStorage.editsInPlace {
            for edit in edits {
                if let m = mention(endingAt: edit.start), !result.contains(m) { result.append(m) }
                if let m = mention(startingAt: edit.start + edit.length), !result.contains(m) { result.append(m) }
            }
            return edits.count > 1 ? result.sorted(by: Transaction.inOrder) : result
        }
        var k = 0
        var start = 0
        for chunk in chunks {
            for local in chunk.mentions {
                let m = local.shifted(by: start)
                while k < edits.count && edits[k].start + edits[k].length < m.range.lowerBound { k += 1 }
                // The first edit ending at or after the mention's start: it ends right there,
                // or (as no edit's text overlaps a mention it did not insert) starts at or
                // after the mention's end.
                if k < edits.count,
                   edits[k].start + edits[k].length == m.range.lowerBound || edits[k].start == m.range.upperBound {
                    result.append(m)
                }
            }
            start += chunk.scalars
        }
        return result
    }

    /// Of `mentions` (in order), those with an edge that is not a grapheme boundary.
    /// Many are checked in one walk over the chunks: an edge between two ASCII bytes
    /// (not CR LF) is a boundary without a closer look.
    func offBoundary(_ mentions: [Mention]) -> [Mention] {
        if mentions.count <= TextStorage.editsInPlace {
            return mentions.filter { !isBoundary($0.range.lowerBound) || !isBoundary($0.range.upperBound) }
        }
        var i = 0
        var start = 0
        return mentions.filter {
            !(isASCIIBoundary($0.range.lowerBound, chunk: &i, start: &start) || isBoundary($0.range.lowerBound))
                || !(isASCIIBoundary($0.range.upperBound, chunk: &i, start: &start) || isBoundary($0.range.upperBound))
        }
    }

    /// Whether the bytes on both sides of `p` are ASCII and not CR LF (then `p` is a
    /// cluster boundary), for positions visited in order: chunk `i`, starting at `start`,
    /// is where the last one was.
    private func isASCIIBoundary(_ p: Int, chunk i: inout Int, start: inout Int) -> Bool {
        while i < chunks.count - 1 && p >= start + chunks[i].scalars {
            start += chunks[i].scalars
            i += 1
        }
        let offset = p - start
        let scalars = chunks[i].scalars
        var before: UInt8?
        var after: UInt8?
        if chunks[i].bytes.count == scalars {
            if offset > 0 { before = chunks[i].bytes[offset - 1] }
            if offset < scalars { after = chunks[i].bytes[offset] }
        }
        if offset == 0 && i > 0 { before = chunks[i - 1].bytes.last }
        if offset == scalars && i + 1 < chunks.count { after = chunks[i + 1].bytes.first }
        guard let a = before, let b = after else { return false }
        return a < 0x80 && b < 0x80 && !(a == 0x0D && b == 0x0A)
    }

    /// Applies many edits in one pass: the new text is built from the kept bytes and the
    /// inserted texts, the mentions are shifted (or taken with a deletion) in one walk
    /// beside the edits and merged with `added`, and the text is cut into chunks again.
    private mutating func rebuild(_ edits: [ChangeSet.Edit], adding added: [Mention]) -> Taken {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count } + edits.reduce(0) { $0 + $1.text.utf8.count })
        // The removed bytes of every edit, one after the other; `ends[e]` is where edit
        // `e`'s end (one buffer, not an array for each edit).
        var removed: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(edits.count)
        var e = 0
        var inEdit = false
        var start = 0
        for chunk in chunks {
            var scalar = 0
            var byte = 0
            // Every edge of an edit in this chunk (or at its end) switches between keeping
            // bytes and collecting removed ones.
            while e < edits.count {
                let target = (inEdit ? edits[e].range.upperBound : edits[e].range.lowerBound) - start
                if target > chunk.scalars { break }
                let b = TextStorage.byteOffset(chunk, target, from: scalar, byte: byte)
                if inEdit {
                    removed.append(contentsOf: chunk.bytes[byte ..< b])
                    ends.append(removed.count)
                    bytes.append(contentsOf: edits[e].text.utf8)
                    e += 1
                } else {
                    bytes.append(contentsOf: chunk.bytes[byte ..< b])
                }
                inEdit.toggle()
                scalar = target
                byte = b
            }
            if inEdit {
                removed.append(contentsOf: chunk.bytes[byte...])
            } else {
                bytes.append(contentsOf: chunk.bytes[byte...])
            }
            start += chunk.scalars
        }

        var kept: [Mention] = []
        kept.reserveCapacity(mentionCount)
        var taken: [Mention] = []
        var k = 0
        var delta = 0
        start = 0
        for chunk in chunks {
            for local in chunk.mentions {
                let m = local.shifted(by: start)
                while k < edits.count, edits[k].range.isEmpty ? edits[k].range.lowerBound <= m.range.lowerBound
                    : edits[k].range.upperBound <= m.range.lowerBound {
                    delta += edits[k].length - edits[k].range.count
                    k += 1
                }
                // The first edit not before the mention deletes it if it starts inside it
                // (the caller turned plain those it would only cut).
                if k < edits.count && edits[k].range.lowerBound < m.range.upperBound {
                    taken.append(m)
                } else {
                    kept.append(m.shifted(by: delta))
                }
            }
            start += chunk.scalars
        }
        var mentions: [Mention] = []
        mentions.reserveCapacity(kept.count + added.count)
        var a = 0
        for m in kept {
            while a < added.count && added[a].range.lowerBound < m.range.lowerBound {
                mentions.append(added[a])
                a += 1
            }
            mentions.append(m)
        }
        mentions.append(contentsOf: added[a...])

        chunks = TextStorage.cut(bytes[...], mentions: mentions, base: 0)
        if chunks.isEmpty { chunks = [Chunk(bytes: [])] }
        rebuildIndex()
        mentionCount = mentions.count
        keptCount = TextStorage.keptIn(mentions)
        var texts: [String] = []
        texts.reserveCapacity(edits.count)
        var from = 0
        for end in ends {
            texts.append(String(decoding: removed[from ..< end], as: UTF8.self))
            from = end
        }
        return Taken(texts: texts, mentions: taken)
    }

    // MARK: - Chunk bookkeeping

    /// The chunk holding `position` and that chunk's start. The end of the text belongs to
    /// the last chunk.
    func locate(_ position: Int) -> (index: Int, start: Int) {
        let p = min(max(position, 0), count)
        if p >= count {
            let last = chunks.count - 1
            return (last, count - chunks[last].scalars)
        }
        let (k, sum) = sizes.lastIndex(withPrefixAtMost: p)
        return (k, sum)
    }

    private mutating func rebuildIndex() {
        sizes = Fenwick(chunks.map(\.scalars))
        ticks = Fenwick(chunks.map(\.backticks))
        lineBreaks = Fenwick(chunks.map(\.newlines))
        count = chunks.reduce(0) { $0 + $1.scalars }
    }

    /// Re-cuts chunks `range` (too large or empty) into well-sized ones.
    private mutating func rechunk(_ range: ClosedRange<Int>) {
        var bytes: [UInt8] = []
        var mentions: [Mention] = []
        var offset = 0
        for k in range {
            bytes.append(contentsOf: chunks[k].bytes)
            for m in chunks[k].mentions { mentions.append(m.shifted(by: offset)) }
            offset += chunks[k].scalars
        }
        var replacement = TextStorage.cut(bytes[...], mentions: mentions, base: 0)
        if replacement.isEmpty && chunks.count == range.count { replacement = [Chunk(bytes: [])] }
        chunks.replaceSubrange(range, with: replacement)
        rebuildIndex()
    }

    /// Merges the chunks that `range` spans so a mention over it fits in one chunk.
    private mutating func mergeChunks(covering range: Range<Int>) {
        let (i, _) = locate(range.lowerBound)
        let (j, _) = locate(max(range.lowerBound, range.upperBound - 1))
        guard j > i else { return }
        var bytes: [UInt8] = []
        var mentions: [Mention] = []
        var offset = 0
        for k in i...j {
            bytes.append(contentsOf: chunks[k].bytes)
            for m in chunks[k].mentions { mentions.append(m.shifted(by: offset)) }
            offset += chunks[k].scalars
        }
        chunks.replaceSubrange(i...j, with: [Chunk(bytes: bytes, mentions: mentions)])
        rebuildIndex()
    }

    /// Cuts bytes into chunks of about `targetChunk` bytes (on scalar boundaries), never
    /// inside a mention. `mentions` (sorted) have ranges relative to the start of `bytes`
    /// plus `base`. One pass over the bytes and the mentions.
    static func cut(_ bytes: ArraySlice<UInt8>, mentions: [Mention], base: Int) -> [Chunk] {
        if bytes.isEmpty { return [] }
        var result: [Chunk] = []
        result.reserveCapacity(bytes.count / targetChunk + 1)
        var next = 0  // the first mention not yet placed in a chunk
        var start = bytes.startIndex
        var startScalar = 0
        while start < bytes.endIndex {
            var end = min(bytes.endIndex, start + targetChunk)
            while end < bytes.endIndex && UTF8Scan.isContinuation(bytes[end]) { end += 1 }
            var endScalar = startScalar + UTF8Scan.scalarCount(bytes[start..<end])
            // A cut inside a mention moves to the mention's end.
            var m = next
            while m < mentions.count && mentions[m].range.upperBound - base <= endScalar { m += 1 }
            if end < bytes.endIndex, m < mentions.count, mentions[m].range.lowerBound - base < endScalar {
                let target = mentions[m].range.upperBound - base
                while endScalar < target && end < bytes.endIndex {
                    end += 1
                    while end < bytes.endIndex && UTF8Scan.isContinuation(bytes[end]) { end += 1 }
                    endScalar += 1
                }
            }
            var local: [Mention] = []
            while next < mentions.count && mentions[next].range.upperBound - base <= endScalar {
                local.append(mentions[next].shifted(by: -(startScalar + base)))
                next += 1
            }
            result.append(Chunk(bytes: Array(bytes[start..<end]), mentions: local))
            start = end
            startScalar = endScalar
        }
        return result
    }

    // MARK: - UTF-8 arithmetic

    static func countByte(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int {
        var n = 0
        for b in bytes where b == byte { n += 1 }
        return n
    }


    /// The byte offset of scalar `offset` in `chunk`, optionally continuing from a known
    /// (scalar, byte) pair before it.
    static func byteOffset(_ chunk: Chunk, _ offset: Int, from knownScalar: Int = 0, byte knownByte: Int = 0) -> Int {
        if chunk.bytes.count == chunk.scalars { return offset }  // ASCII: bytes are scalars
        var s = knownScalar
        var b = knownByte
        let bytes = chunk.bytes
        while s < offset && b < bytes.count {
            b += 1
            while b < bytes.count && UTF8Scan.isContinuation(bytes[b]) { b += 1 }
            s += 1
        }
        return b
    }
}
