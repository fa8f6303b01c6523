/// Strict UTF-8 checking for bytes read from files (comments and directories alike).
public enum UTF8Validation {
    /// The offset of the first byte that does not belong to well-formed UTF-8 (no
    /// overlong forms, surrogates or scalars past U+10FFFF), starting at `start`, or nil.
    public static func firstInvalidByte(in bytes: [UInt8], from start: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidByte(in: $0, from: start) }
    }

    /// The offset of the first byte of `bytes` from `start` that does not belong to
    /// well-formed UTF-8, or nil.
    public static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        var index = max(start, 0)
        let count = bytes.count
        while index < count {
            // ASCII eight bytes at a time: most of a comment or a directory is ASCII, and a
            // directory of a million people is a hundred megabytes.
            while index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return nil }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = validLength(bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence at `i` (1 to 4), or 0 when the byte
    /// there does not start one: no overlong forms, surrogates or scalars past U+10FFFF.
    public static func validLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at i: Bytes.Index) -> Int
    where Bytes.Index == Int {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
        let length: Int
        var second: ClosedRange<UInt8> = 0x80 ... 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0 ... 0xBF
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; second = 0x80 ... 0x9F
        case 0xF0: length = 4; second = 0x90 ... 0xBF
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; second = 0x80 ... 0x8F
        default: return 0
        }
        guard i + length <= bytes.endIndex, second.contains(bytes[i + 1]) else { return 0 }
        for k in 2 ..< length where !(0x80 ... 0xBF).contains(bytes[i + k]) { return 0 }
        return length
    }
}
