/// The `github` format, which `gitlab` and `mattermost` share (both write `@username`
/// and read Markdown the same way for this purpose): each mention is written as its trigger and the entity's handle
/// (`@jdoe`), or as shown (`@John Doe`) when the entity has no handle. The text is written
/// as is: it is the person's Markdown.
///
/// Reading finds `@handle` (and, for entities without a handle, `@Their Name`) and turns
/// what the directory knows back into mentions:
/// - a trigger counts only where GitHub would link it: in prose as cmark-gfm reads it
///   (`MarkdownSyntax`: never in code spans or blocks, raw HTML, link texts and
///   destinations, autolinks or bare URLs), and not after a word character or one of
///   `. - + / \ @` (so `a@b.com` is an e-mail address); the whole handle lies in that
///   prose;
/// - a handle is a run of word characters, `.` and `-` (GitHub's own `[A-Za-z0-9-]`, plus
///   what other directories use); when the whole run is unknown, trailing `.`, `-` and `_`
///   are dropped one at a time, so `thanks @jdoe.` finds `jdoe`; handles match in any case
///   and keep the case they were read in (`@JDoe` is written back `@JDoe`);
/// - an entity without a handle matches by its whole name, followed by a non-word
///   character; of a handle and a name that both match, the longer text wins;
/// - an unknown `@name` stays text and is reported in a note; unknown spellings of other
///   triggers (`#123` is an issue on GitHub) stay text silently.
enum GitHubFormat {
    static func encodeUTF8(_ doc: MarkedText, format: DocumentFormat, lookup: EntityLookup) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(MentionRuns.capacity(for: doc, perMention: 32))
        MentionRuns.forEach(in: doc, format: format, plain: { run, _ in out.append(contentsOf: run) }, token: { m in
            if let source = m.source(in: format) {
                out.append(contentsOf: source.utf8)
                return
            }
            // Someone the service cannot notify: their name, which reads back as text.
            if lookup.writesNameAlone(m, in: format) {
                out.append(contentsOf: m.name.utf8)
                return
            }
            out.append(contentsOf: String(Character(m.trigger)).utf8)
            if case let .id(handle) = lookup.writtenID(of: m, in: format) {
                out.append(contentsOf: handle.utf8)
            } else {
                out.append(contentsOf: m.shown.utf8)
            }
        })
        return out
    }

    /// Reads valid UTF-8 `bytes`; with `keepingParse`, keeps cmark-gfm's parse of them and
    /// where the mentions were (`DecodedDocument.markdown`).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, format: DocumentFormat, lookup: EntityLookup,
                       keepingParse: Bool = false) -> DecodedDocument {
        var reader = Reader(bytes: bytes, format: format, lookup: lookup)
        reader.keepsParse = keepingParse
        reader.run()
        let parse = reader.tree.map { ParsedMarkdown(text: Array(bytes), mentions: reader.mentionRanges, tree: $0) }
        return DecodedDocument(document: reader.builder.build(), notes: reader.unresolved.note.map { [$0] } ?? [],
                               markdown: parse)
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The format read (`github`, `gitlab` or `mattermost`), which the mentions' source names.
        let format: DocumentFormat
        let lookup: EntityLookup
        var builder: MarkedTextBuilder
        var unresolved = UnresolvedMentions()
        /// Which ASCII bytes start a mention: `@` always (to report unknown ones), other
        /// triggers when they have a directory.
        var isTriggerByte = [Bool](repeating: false, count: 128)
        /// Where the run of prose holding the trigger being read ends: a handle stops there.
        var limit = 0
        /// Whether to keep the parse (`tree`) and the mentions' byte ranges.
        var keepsParse = false
        var tree: ParsedMarkdown.Tree?
        var mentionRanges: [Range<Int>] = []

        init(bytes: UnsafeBufferPointer<UInt8>, format: DocumentFormat, lookup: EntityLookup) {
            self.bytes = bytes
            self.format = format
            self.lookup = lookup
            builder = MarkedTextBuilder(capacity: bytes.count)
            isTriggerByte[Int(UInt8(ascii: "@"))] = true
            for trigger in lookup.triggers where trigger.isASCII {
                isTriggerByte[Int(trigger.value)] = true
            }
        }

        mutating func run() {
            var prose = MarkdownSyntax.Cursor([])
            if hasTrigger() {
                let read = MarkdownSyntax.reading(bytes, keepingTree: keepsParse)
                prose = MarkdownSyntax.Cursor(read.syntax.prose)
                tree = read.tree
            }
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                guard b < 0x80, isTriggerByte[Int(b)] else { i += 1; continue }
                guard let proseRun = prose.range(containing: i) else { i += 1; continue }
                limit = proseRun.upperBound
                let trigger = Unicode.Scalar(b)
                // What comes before the run is Markdown's (emphasis marks it took, a code
                // span, a link): the handle starts a text of its own, as on GitHub.
                if i > proseRun.lowerBound, isBlocked(at: i, runStart: proseRun.lowerBound) { i += 1; continue }
                let word = run(from: i + 1, while: CharacterClass.isWord)
                let handleRun = run(from: i + 1, while: Self.isHandleScalar)
                let byHandle = matchHandle(trigger: trigger, in: i + 1 ..< handleRun)
                let byName = matchName(trigger: trigger, word: i + 1 ..< word)
                let best: (entity: Entity, end: Int)?
                switch (byHandle, byName) {
                case let (h?, n?): best = n.end > h.end ? n : h
                case let (h?, nil): best = h
                case let (nil, n?): best = n
                case (nil, nil): best = nil
                }
                // A mention that a combining mark or joiner follows could not end there:
                // the handle stays text, so the bytes come back as they were.
                // A handle keeps the spelling of the file (`@JDoe`), which the writer uses
                // while it matches the directory's handle in any case.
                let handle = best.flatMap { best in
                    best.entity.handle != nil || best.entity.accounts[format.service ?? .github] != nil
                        ? UTF8Scan.string(bytes, i + 1 ..< best.end) : nil
                }
                if let best, MarkedTextBuilder.fits(trigger: trigger, name: handle ?? best.entity.name,
                                                    replacing: i ..< best.end, in: bytes) {
                    builder.appendPlain(bytes, runStart ..< i)
                    let entity = best.entity
                    // It shows what the file says, as GitHub does (`@JDoe`); a person
                    // without a handle was written by name, which it shows anyway.
                    builder.appendMention(trigger: trigger, id: entity.id, name: entity.name,
                                          handle: handle ?? entity.handle, url: entity.url,
                                          source: TokenSource(format: format, text: UTF8Scan.string(bytes, i ..< best.end)),
                                          label: handle)
                    if keepsParse { mentionRanges.append(i ..< best.end) }
                    i = best.end
                    runStart = i
                    continue
                }
                let spelled = trimmed(i + 1 ..< handleRun)
                if trigger == "@", !spelled.isEmpty {
                    unresolved.add("@" + UTF8Scan.string(bytes, spelled))
                }
                i = max(handleRun, i + 1)
            }
            builder.appendPlain(bytes, runStart ..< bytes.count)
        }

        /// Whether the text has a trigger byte at all (most comments have none: no parse).
        private func hasTrigger() -> Bool {
            bytes.contains { $0 < 0x80 && isTriggerByte[Int($0)] }
        }

        /// Whether a trigger right after `scalar` is not a mention on GitHub.
        private func blocksMention(_ scalar: Unicode.Scalar) -> Bool {
            CharacterClass.isWord(scalar) || ".-+/\\@".unicodeScalars.contains(scalar)
        }

        /// Whether what is before the trigger at `i` keeps it from being a mention. `_` is a
        /// word character, but a run of emphasis marks at the start of a word (`_@jdoe_`,
        /// `**_@jdoe`) is Markdown's, which GitHub reads the mention inside of.
        private func isBlocked(at i: Int, runStart: Int) -> Bool {
            guard let before = UTF8Scan.scalar(in: bytes, before: i) else { return false }
            guard before == "_" else { return blocksMention(before) }
            var j = i - 1
            while j > runStart, i - j < 8 {
                let mark = CharacterClass.isEmphasisMark(Unicode.Scalar(bytes[j - 1]))
                // A mark escaped with a backslash (`\_`) is a literal mark all the same.
                let escape = bytes[j - 1] == UInt8(ascii: "\\") && CharacterClass.isEmphasisMark(Unicode.Scalar(bytes[j]))
                guard mark || escape else { break }
                j -= 1
            }
            if j == runStart { return false }
            guard let first = UTF8Scan.scalar(in: bytes, before: j) else { return false }
            return blocksMention(first)
        }

        private static func isHandleScalar(_ scalar: Unicode.Scalar) -> Bool {
            CharacterClass.isWord(scalar) || scalar == "." || scalar == "-"
        }

        /// The end of the run of scalars from `start` that satisfy `test`.
        private func run(from start: Int, while test: (Unicode.Scalar) -> Bool) -> Int {
            var j = start
            while j < limit {
                let (scalar, length) = UTF8Scan.scalar(in: bytes, at: j)
                guard test(scalar) else { break }
                j += length
            }
            return j
        }

        /// Whether `b` may end a handle's run without being part of the handle (`@jdoe.`).
        private static func isTrailingPunctuation(_ b: UInt8) -> Bool {
            b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }

        /// `range` without trailing `.`, `-` and `_`.
        private func trimmed(_ range: Range<Int>) -> Range<Int> {
            var end = range.upperBound
            while end > range.lowerBound, Self.isTrailingPunctuation(bytes[end - 1]) { end -= 1 }
            return range.lowerBound ..< end
        }

        /// The entity whose handle is the run `range`, or the run shortened by trailing
        /// punctuation, and where its handle ends.
        private func matchHandle(trigger: Unicode.Scalar, in range: Range<Int>) -> (entity: Entity, end: Int)? {
            var end = range.upperBound
            while end > range.lowerBound {
                if let entity = lookup.entity(trigger: trigger, written: UTF8Scan.string(bytes, range.lowerBound ..< end),
                                              in: format),
                   !entity.name.isEmpty {
                    return (entity, end)
                }
                guard Self.isTrailingPunctuation(bytes[end - 1]) else { return nil }
                end -= 1
            }
            return nil
        }

        /// The longest name of an entity without a handle written from `word.lowerBound`,
        /// whose first word is `word`, and where it ends.
        private func matchName(trigger: Unicode.Scalar, word: Range<Int>) -> (entity: Entity, end: Int)? {
            guard lookup.hasEntitiesWithoutHandle(trigger: trigger) else { return nil }
            let candidates = lookup.entitiesWithoutHandle(trigger: trigger, leadingWord: UTF8Scan.string(bytes, word))
            var best: (entity: Entity, end: Int)?
            for entity in candidates where UTF8Scan.hasPrefix(bytes, at: word.lowerBound, entity.name) {
                let end = word.lowerBound + entity.name.utf8.count
                if end > limit { continue }
                if end < bytes.count, CharacterClass.isWord(UTF8Scan.scalar(in: bytes, at: end).0) { continue }
                if best.map({ end > $0.end }) ?? true { best = (entity, end) }
            }
            return best
        }
    }
}
