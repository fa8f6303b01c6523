/// Reading Unicode scalars straight out of valid UTF-8: the core's one decoder and scalar
/// counter, for the text storage, the matcher and the codecs that scan their input byte by
/// byte (every character a format gives a meaning to is ASCII, so plain runs can be copied
/// whole). Only the terminal's key decoder, which reads a stream that may stop mid-scalar,
/// has its own.
enum UTF8Scan {
    /// Whether `byte` continues a multi-byte scalar rather than starting one.
    @inline(__always)
    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// The scalar that starts at byte `i` and its length in bytes.
    @inline(__always)
    static func scalar<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at i: Int) -> (Unicode.Scalar, length: Int)
    where Bytes.Index == Int {
        let lead = UInt32(bytes[i])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0x7F >> UInt32(length))
        var k = 1
        while k < length, i + k < bytes.endIndex {
            value = value << 6 | UInt32(bytes[i + k] & 0x3F)
            k += 1
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", k)
    }

    /// The scalar that ends right before byte `i`, or nil at the start.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, before i: Int) -> Unicode.Scalar? {
        guard i > 0 else { return nil }
        var start = i - 1
        while start > 0, isContinuation(bytes[start]) { start -= 1 }
        return scalar(in: bytes, at: start).0
    }

    // MARK: Eight bytes at a time

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` of `bytes` as one word (the caller checks there are eight).
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on
    /// `word ^ byte…`, exact for "any").
    @inline(__always)
    static func word(_ word: UInt64, contains byte: UInt8) -> Bool {
        let v = word ^ (ones &* UInt64(byte))
        return (v &- ones) & ~v & highBits != 0
    }

    /// Whether any of the eight bytes of `word` is below `limit` (at most 0x80).
    @inline(__always)
    static func word(_ word: UInt64, hasByteBelow limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether a byte of `word` may need an escape in a JSON string: `"`, `\`, a control
    /// character, DEL, or E2 (which starts U+2028 and U+2029).
    @inline(__always)
    static func mayNeedJSONEscape(_ word: UInt64) -> Bool {
        Self.word(word, hasByteBelow: 0x20) || Self.word(word, contains: 0x22) || Self.word(word, contains: 0x5C)
            || Self.word(word, contains: 0x7F) || Self.word(word, contains: 0xE2)
    }

    /// Whether all eight bytes of `word` are ASCII.
    @inline(__always)
    static func isASCII(_ word: UInt64) -> Bool { word & highBits == 0 }

    /// How many of the eight bytes of `word` start a scalar (are not `10xxxxxx`).
    @inline(__always)
    static func scalarStarts(in word: UInt64) -> Int {
        8 - (word & ~(word << 1) & highBits).nonzeroBitCount
    }

    /// The byte offset of scalar `target`, walking forward from byte `byte`, which is
    /// scalar `scalar` (both updated); nil when the text ends first. Whole words are
    /// stepped over while the target lies beyond them, counting the scalars that start in
    /// each (a scalar split across two words is counted once, in the word it starts in).
    static func advance(_ bytes: UnsafeBufferPointer<UInt8>, byte: inout Int, scalar: inout Int, to target: Int) -> Int? {
        var b = byte, s = scalar
        let count = bytes.count
        while count - b >= 8 {
            let starts = scalarStarts(in: word(bytes, at: b))
            if s + starts >= target { break }
            s += starts
            b += 8
        }
        while b < count {
            if !isContinuation(bytes[b]) {
                if s == target { break }
                s += 1
            }
            b += 1
        }
        byte = b
        scalar = s
        return s == target ? b : nil
    }

    /// How many scalars of four bytes (the ones UTF-16 writes as two units) start in
    /// `bytes[range]`: bytes of the form `11110xxx`, counted eight at a time.
    static func fourByteScalars(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var n = 0
        var i = range.lowerBound
        while range.upperBound - i >= 8 {
            let w = word(bytes, at: i)
            n += (w & (w << 1) & (w << 2) & (w << 3) & highBits).nonzeroBitCount
            i += 8
        }
        while i < range.upperBound {
            if bytes[i] >= 0xF0 { n += 1 }
            i += 1
        }
        return n
    }

    /// The number of scalars in `bytes[range]`.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        scalarCount(bytes[range])
    }

    /// The number of scalars that start in `bytes`.
    @inline(__always)
    static func scalarCount(_ bytes: some Sequence<UInt8>) -> Int {
        var n = 0
        for b in bytes where !isContinuation(b) { n += 1 }
        return n
    }

    /// Whether `bytes[at...]` starts with the UTF-8 of `s`.
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, _ s: String) -> Bool {
        var j = i
        for b in s.utf8 {
            guard j < bytes.count, bytes[j] == b else { return false }
            j += 1
        }
        return true
    }

    /// `bytes[range]` as a string.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Appends `run` to `out` with each byte that `replacement` gives a text for (it sees
    /// the run and the index, for a look at the next byte) replaced by that text, copying
    /// the stretches between them whole: the escaping loop the output formats share.
    @inline(__always)
    static func append(_ run: UnsafeBufferPointer<UInt8>, to out: inout [UInt8],
                       replacing replacement: (UnsafeBufferPointer<UInt8>, Int) -> StaticString?) {
        var copied = 0
        for i in 0 ..< run.count {
            guard let text = replacement(run, i) else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied ..< i]))
            text.withUTF8Buffer { out.append(contentsOf: $0) }
            copied = i + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: run[copied...]))
    }
}
