/// Files that are not valid UTF-8 (docs/editor.md): each byte that is not part of
/// well-formed UTF-8 is kept as it was, shown as a visible escape (`\xE9`) in a token of
/// its own — a kept construct of kind `.bytes`, atomic and drawn in the `verbatim` role —
/// and written back byte for byte by every format that can carry it (all but `json` and
/// `matrix`, whose text must be Unicode).
///
/// The formats' readers and writers work on valid UTF-8 only, so a byte travels through
/// them as a stand-in: the private-use scalar U+10FF00 + byte (U+10FF80 … U+10FFFF, one
/// for each byte 0x80 … 0xFF; every invalid byte is one of those). Reading puts the stand-ins
/// in place of the bytes, lets the format read the text, then makes each stand-in in plain
/// text a `.bytes` token; writing puts them back, lets the format write, then turns each
/// stand-in into its byte. A stand-in that ends up inside another token (a Slack link
/// holding a Latin-1 byte) stays there as the scalar, so the token is still written back
/// byte for byte. A file that already holds scalars of that range (as UTF-8) has their
/// bytes read as stand-ins too, so they come back unchanged.
public enum RawBytes {
    /// The stand-in of byte 0x80 + n is U+10FF80 + n.
    static let base: UInt32 = 0x10_FF00

    /// Whether `s` stands for a byte.
    static func isStandIn(_ s: Unicode.Scalar) -> Bool { s.value >= base + 0x80 }

    static func standIn(for byte: UInt8) -> Unicode.Scalar { Unicode.Scalar(base + UInt32(byte))! }

    static func byte(of standIn: Unicode.Scalar) -> UInt8 { UInt8(standIn.value - base) }

    /// How a byte is shown: `\xE9`.
    public static func shown(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// Whether `bytes` need stand-ins: they are not valid UTF-8, or hold a scalar of the
    /// stand-ins' range (UTF-8 `F4 8F BE xx` or `F4 8F BF xx`).
    public static func needStandIns(_ bytes: [UInt8]) -> Bool {
        if UTF8Validation.firstInvalidByte(in: bytes) != nil { return true }
        return holdsStandInRange(bytes)
    }

    private static func holdsStandInRange(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0xF4, bytes[i + 1] == 0x8F, bytes[i + 2] >= 0xBE { return true }
            i += 1
        }
        return false
    }

    /// `bytes` as valid UTF-8, each invalid byte (and each byte of a scalar in the
    /// stand-ins' range) replaced by its stand-in; and how many bytes were replaced.
    static func withStandIns(_ bytes: [UInt8]) -> (utf8: [UInt8], replaced: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        var replaced = 0
        var i = 0
        func standIn(_ b: UInt8) {
            out.append(contentsOf: String(Character(RawBytes.standIn(for: b))).utf8)
            replaced += 1
        }
        while i < bytes.count {
            let length = UTF8Validation.validLength(bytes, at: i)
            if length == 0 {
                standIn(bytes[i])
                i += 1
            } else if length == 4, bytes[i] == 0xF4, bytes[i + 1] == 0x8F, bytes[i + 2] >= 0xBE {
                for b in bytes[i ..< i + 4] { standIn(b) }
                i += 4
            } else {
                out.append(contentsOf: bytes[i ..< i + length])
                i += length
            }
        }
        return (out, replaced)
    }

    /// `doc` as read from text with stand-ins: each stand-in in plain text becomes a
    /// `.bytes` token shown as its escape, taking in the characters a grapheme cluster
    /// joins to it (a combining mark after a Latin-1 byte), so its edges are boundaries.
    static func tokens(in doc: MarkedText) -> MarkedText {
        guard doc.text.unicodeScalars.contains(where: isStandIn) else { return doc }
        let scalars = Array(doc.text.unicodeScalars)
        // Which scalars belong to a token already read (mentions and kept constructs).
        var inToken = [Bool](repeating: false, count: scalars.count)
        for m in doc.mentions where m.range.upperBound <= scalars.count {
            for k in m.range { inToken[k] = true }
        }
        // The runs to make tokens of: each plain stand-in, widened over what joins it.
        let clusters = clusterStarts(scalars)
        var runs: [Range<Int>] = []
        var k = 0
        while k < scalars.count {
            guard isStandIn(scalars[k]), !inToken[k] else { k += 1; continue }
            var lower = k, upper = k + 1
            while lower > 0, !clusters[lower], !inToken[lower - 1] { lower -= 1 }
            while upper < scalars.count, !clusters[upper], !inToken[upper] { upper += 1 }
            // A stand-in right after another is a token of its own (each byte is).
            if let last = runs.last, last.upperBound > lower { lower = last.upperBound }
            guard lower < upper, clusters[lower] || lower == 0, upper == scalars.count || clusters[upper] else {
                k = upper
                continue
            }
            runs.append(lower ..< upper)
            k = upper
        }
        // Rebuild the text: each run shown with escapes, every token after it moved.
        var text = String.UnicodeScalarView()
        var mentions: [Mention] = []
        var shift = 0
        var previous = 0
        var pending = doc.mentions[...]
        func flushTokens(before limit: Int) {
            while let m = pending.first, m.range.lowerBound < limit {
                mentions.append(m.shifted(by: shift))
                pending.removeFirst()
            }
        }
        for run in runs {
            flushTokens(before: run.lowerBound)
            text.append(contentsOf: scalars[previous ..< run.lowerBound])
            var source = String.UnicodeScalarView()
            source.append(contentsOf: scalars[run])
            let token = Mention(bytes: String(source), start: run.lowerBound + shift)
            text.append(contentsOf: token.text.unicodeScalars)
            shift += token.range.count - run.count
            mentions.append(token)
            previous = run.upperBound
        }
        flushTokens(before: Int.max)
        text.append(contentsOf: scalars[previous...])
        return MarkedText(text: String(text), mentions: mentions)
    }

    /// For each scalar offset of `scalars` (and the end), whether a grapheme cluster starts
    /// there.
    private static func clusterStarts(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var starts = [Bool](repeating: false, count: scalars.count + 1)
        starts[scalars.count] = true
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        var offset = 0
        for character in String(view) {
            starts[offset] = true
            offset += character.unicodeScalars.count
        }
        return starts
    }

    /// Whether `doc` holds bytes that are not UTF-8 (or stand-ins anywhere).
    public static func holdsBytes(_ doc: MarkedText) -> Bool {
        doc.mentions.contains { $0.kind == .bytes }
            || doc.text.unicodeScalars.contains(where: isStandIn)
            || doc.mentions.contains { m in m.id.unicodeScalars.contains(where: isStandIn)
                || m.source?.text.unicodeScalars.contains(where: isStandIn) == true }
    }

    /// Whether `doc` holds bytes that are not UTF-8, which a format of Unicode text (json,
    /// matrix, adf) cannot write: `.bytes` tokens, and stand-ins inside a token read from a
    /// file of another format (a Latin-1 byte in a Slack link), which stand for its bytes.
    /// A scalar of the stand-ins' range elsewhere is a character: plain text never holds a
    /// stand-in for a byte (reading makes each one a token), nor does a token made in the
    /// editor or read from json.
    static func holdsNonUTF8Bytes(_ doc: MarkedText) -> Bool {
        doc.mentions.contains { m in
            guard m.kind != .bytes else { return true }
            guard let source = m.source, source.format != .json else { return false }
            return source.text.unicodeScalars.contains(where: isStandIn) || m.text.unicodeScalars.contains(where: isStandIn)
                || m.id.unicodeScalars.contains(where: isStandIn)
        }
    }

    /// `doc` ready for a writer: each `.bytes` token back to the plain stand-ins it was
    /// read from, and each scalar of the stand-ins' range typed as text made the stand-ins
    /// of its own UTF-8 bytes (so that it is written as itself).
    static func withStandIns(_ doc: MarkedText) -> MarkedText {
        var text = String.UnicodeScalarView()
        var mentions: [Mention] = []
        var shift = 0
        var offset = 0
        let scalars = Array(doc.text.unicodeScalars)
        func appendPlain(_ range: Range<Int>) {
            for s in scalars[range] {
                if isStandIn(s) {
                    for b in String(Character(s)).utf8 { text.append(standIn(for: b)) }
                    shift += 3
                } else {
                    text.append(s)
                }
            }
        }
        for m in doc.mentions where m.range.lowerBound >= offset && m.range.upperBound <= scalars.count {
            appendPlain(offset ..< m.range.lowerBound)
            if m.kind == .bytes, let source = m.source?.text {
                text.append(contentsOf: source.unicodeScalars)
                shift += source.unicodeScalars.count - m.range.count
            } else {
                text.append(contentsOf: scalars[m.range])
                mentions.append(m.shifted(by: shift))
            }
            offset = m.range.upperBound
        }
        appendPlain(offset ..< scalars.count)
        return MarkedText(text: String(text), mentions: mentions)
    }

    /// `utf8` with each stand-in turned back into its byte.
    static func withoutStandIns(_ utf8: [UInt8]) -> [UInt8] {
        // A stand-in is F4 8F BE xx or F4 8F BF xx: the byte is 0x80 + (xx - 0x80) + 0x40 × (third - 0xBE).
        guard utf8.contains(0xF4) else { return utf8 }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            if utf8[i] == 0xF4, i + 3 < utf8.count, utf8[i + 1] == 0x8F, utf8[i + 2] >= 0xBE {
                let value = UInt32(utf8[i + 2] & 0x3F) << 6 | UInt32(utf8[i + 3] & 0x3F)
                out.append(UInt8(value & 0xFF))
                i += 4
            } else {
                out.append(utf8[i])
                i += 1
            }
        }
        return out
    }
}

extension Mention {
    /// The token of bytes that are not UTF-8: `source` is their stand-ins (and any
    /// characters a cluster joins to them), and it is shown with each stand-in as its
    /// escape (`\xE9`).
    init(bytes source: String, start: Int) {
        var shown = ""
        for s in source.unicodeScalars {
            if RawBytes.isStandIn(s) { shown += RawBytes.shown(RawBytes.byte(of: s)) } else { shown.unicodeScalars.append(s) }
        }
        self.init(kept: shown, format: .plain, start: start)
        kind = .bytes
        self.source = TokenSource(format: .plain, text: source)
    }
}
