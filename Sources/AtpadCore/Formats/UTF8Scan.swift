/// Reading Unicode scalars straight out of valid UTF-8, for the codecs that scan their
/// input byte by byte (every character a format gives a meaning to is ASCII, so plain runs
/// can be copied whole).
enum UTF8Scan {
    /// Whether `byte` continues a multi-byte scalar rather than starting one.
    @inline(__always)
    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// The scalar that starts at byte `i` and its length in bytes.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, length: Int) {
        let lead = UInt32(bytes[i])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0x7F >> UInt32(length))
        var k = 1
        while k < length, i + k < bytes.count {
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

    /// The number of scalars in `bytes[range]`.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var n = 0
        for i in range where !isContinuation(bytes[i]) { n += 1 }
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
}
