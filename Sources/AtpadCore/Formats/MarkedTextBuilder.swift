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
        for b in run where !UTF8Scan.isContinuation(b) { scalars += 1 }
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

    /// Appends a mention of `id` shown as `trigger` + `name`.
    mutating func appendMention(trigger: Unicode.Scalar, id: String, name: String, handle: String? = nil, url: String? = nil) {
        let m = Mention(trigger: trigger, id: id, name: name, start: scalars, handle: handle, url: url)
        bytes.append(contentsOf: String(Character(trigger)).utf8)
        bytes.append(contentsOf: name.utf8)
        scalars = m.range.upperBound
        mentions.append(m)
    }

    /// Appends a mention of `entity` shown with `trigger`.
    mutating func appendMention(trigger: Unicode.Scalar, entity: Entity) {
        appendMention(trigger: trigger, id: entity.id, name: entity.name, handle: entity.handle, url: entity.url)
    }

    /// The document built so far.
    ///
    /// A mention whose edge is not a grapheme-cluster boundary of the finished text (a
    /// combining mark or a joiner right after `<@u1>`, say) is dropped, its text kept as
    /// plain text: the cursor and every mention edge must sit on boundaries (SPEC §2).
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
