/// The document a decoder builds as it reads: plain text and mentions appended in order,
/// with the scalar count kept so each mention's start needs no recount.
struct MarkedTextBuilder {
    private var bytes: [UInt8] = []
    private var scalars = 0
    private var mentions: [Mention] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends plain text.
    mutating func appendPlain(_ run: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: run)
        scalars += UTF8Scan.scalarCount(run)
    }

    /// Appends the plain text `input[range]`.
    mutating func appendPlain(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        appendPlain(UnsafeBufferPointer(rebasing: input[range]))
    }

    /// Appends one ASCII character of plain text.
    mutating func appendASCII(_ byte: UInt8) {
        bytes.append(byte)
        scalars += 1
    }

    /// Appends a mention of `id` shown as `trigger` + `label` (nil: `name`); `source` is
    /// the text it was read from, when the format may write it back differently.
    mutating func appendMention(trigger: Unicode.Scalar, id: String, name: String, handle: String? = nil, url: String? = nil,
                                source: TokenSource? = nil, label: String? = nil) {
        let m = Mention(trigger: trigger, id: id, name: name, start: scalars, handle: handle, url: url, source: source,
                        label: label)
        bytes.append(contentsOf: String(Character(trigger)).utf8)
        bytes.append(contentsOf: m.shown.utf8)
        scalars = m.range.upperBound
        mentions.append(m)
    }

    /// Appends a mention of `entity` shown with `trigger`.
    mutating func appendMention(trigger: Unicode.Scalar, entity: Entity, source: TokenSource? = nil) {
        appendMention(trigger: trigger, id: entity.id, name: entity.name, handle: entity.handle, url: entity.url, source: source)
    }

    /// Appends `input[range]` (not empty) as a construct `format` keeps as it was: shown as
    /// its text, written back byte for byte
    /// (docs/formats.md, "Files come back as they were (kept constructs)"). The range
    /// should come from `keptRange`, so that its edges are grapheme-cluster boundaries.
    mutating func appendKept(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, format: DocumentFormat) {
        let text = UTF8Scan.string(input, range)
        let m = Mention(kept: text, format: format, start: scalars)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[range]))
        scalars = m.range.upperBound
        mentions.append(m)
    }

    /// The document built so far.
    ///
    /// A mention whose edge is not a grapheme-cluster boundary of the finished text (a
    /// combining mark or a joiner right after `<@u1>`, say) is dropped, its text kept as
    /// plain text: the cursor and every mention edge must sit on boundaries
    /// (docs/formats.md, "What each format writes").
    func build() -> MarkedText {
        var kept: [Mention] = []
        kept.reserveCapacity(mentions.count)
        bytes.withUnsafeBufferPointer { buffer in
            var scalar = 0, byte = 0
            for m in mentions {
                // Mentions were appended in order and inside the text: both offsets exist.
                guard let start = UTF8Scan.advance(buffer, byte: &byte, scalar: &scalar, to: m.range.lowerBound),
                      let end = UTF8Scan.advance(buffer, byte: &byte, scalar: &scalar, to: m.range.upperBound)
                else { continue }
                if UTF8GraphemeBoundary.isBoundary(buffer, at: start), UTF8GraphemeBoundary.isBoundary(buffer, at: end) {
                    kept.append(m)
                }
            }
        }
        return MarkedText(text: String(decoding: bytes, as: UTF8.self), mentions: kept)
    }
}

extension MarkedTextBuilder {
    /// `range` of `input` widened to grapheme-cluster boundaries (a combining mark or a
    /// joiner right after a construct's `>` becomes part of it), never starting before
    /// `floor`: a kept construct whose edge fell inside a cluster could not be a token,
    /// and as text its characters would be escaped on writing. Only characters that no
    /// format gives a meaning to (marks, joiners, prepended letters) are taken in.
    static func keptRange(_ range: Range<Int>, in input: UnsafeBufferPointer<UInt8>, floor: Int) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while upper < input.count, !UTF8GraphemeBoundary.isBoundary(input, at: upper) {
            upper += 1
            while upper < input.count, UTF8Scan.isContinuation(input[upper]) { upper += 1 }
        }
        while lower > floor, !UTF8GraphemeBoundary.isBoundary(input, at: lower) {
            lower -= 1
            while lower > floor, UTF8Scan.isContinuation(input[lower]) { lower -= 1 }
        }
        return lower ..< upper
    }

    /// Whether a mention shown as `trigger` + `name` that replaces `input[range]` would sit
    /// on grapheme-cluster boundaries, judged from the input around it (a combining mark
    /// or a joiner right after `[~accountid:u1]`, say, would make `build` drop it and
    /// leave its name as text). Decoders that must give back the bytes they read leave
    /// such a construct as the text it was instead.
    static func fits(trigger: Unicode.Scalar, name: String, replacing range: Range<Int>, in input: UnsafeBufferPointer<UInt8>) -> Bool {
        // Enough context for the boundary rules: the window UTF8GraphemeBoundary reads,
        // at most four bytes a scalar, cut at scalar starts.
        let reach = UTF8GraphemeBoundary.window * 4
        var lo = max(0, range.lowerBound - reach)
        while lo < range.lowerBound, UTF8Scan.isContinuation(input[lo]) { lo += 1 }
        var hi = min(input.count, range.upperBound + reach)
        while hi < input.count, UTF8Scan.isContinuation(input[hi]) { hi += 1 }
        var local: [UInt8] = []
        local.append(contentsOf: UnsafeBufferPointer(rebasing: input[lo ..< range.lowerBound]))
        let start = local.count
        local.append(contentsOf: String(Character(trigger)).utf8)
        local.append(contentsOf: name.utf8)
        let end = local.count
        local.append(contentsOf: UnsafeBufferPointer(rebasing: input[range.upperBound ..< hi]))
        return local.withUnsafeBufferPointer { buffer in
            UTF8GraphemeBoundary.isBoundary(buffer, at: start) && UTF8GraphemeBoundary.isBoundary(buffer, at: end)
        }
    }
}

/// The reading state of a decoder that keeps constructs (Slack, Discord): the document
/// built so far, the position read, and where the current run of plain text started.
/// Plain text is copied a run at a time; a token ends the run.
struct TokenReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The format whose constructs are kept, which every token's source names.
    let format: DocumentFormat
    var builder: MarkedTextBuilder
    /// The position being read.
    var i = 0
    /// Where the plain text not yet appended starts.
    private var runStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, format: DocumentFormat) {
        self.bytes = bytes
        self.format = format
        builder = MarkedTextBuilder(capacity: bytes.count)
    }

    /// Appends the text read so far, then `text` (ASCII) in place of the bytes from `i` to
    /// `end` (an escape and what it stands for), and goes on after them.
    mutating func replace(to end: Int, with text: [UInt8]) {
        builder.appendPlain(bytes, runStart ..< i)
        for byte in text { builder.appendASCII(byte) }
        i = end
        runStart = i
    }

    /// Appends the text read so far, then a mention of `entity` for the bytes from `i` to
    /// `end` (kept as its source), and goes on after them.
    mutating func appendMention(trigger: Unicode.Scalar, entity: Entity, end: Int) {
        builder.appendPlain(bytes, runStart ..< i)
        builder.appendMention(trigger: trigger, entity: entity,
                              source: TokenSource(format: format, text: UTF8Scan.string(bytes, i ..< end)))
        i = end
        runStart = i
    }

    /// Appends the text read so far, then the bytes from `i` to `end` as a kept construct
    /// (widened to grapheme boundaries), and goes on after it.
    mutating func keep(to end: Int) {
        let kept = MarkedTextBuilder.keptRange(i ..< end, in: bytes, floor: runStart)
        builder.appendPlain(bytes, runStart ..< kept.lowerBound)
        builder.appendKept(bytes, kept, format: format)
        i = kept.upperBound
        runStart = i
    }

    /// The document, with the text after the last token.
    func build() -> MarkedText {
        var builder = builder
        builder.appendPlain(bytes, runStart ..< bytes.count)
        return builder.build()
    }
}
