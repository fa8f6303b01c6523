/// `%XX` escapes decoded (a Markdown link's `mention:` target, a language client's
/// `file://` URI): the one percent decoder.
public enum PercentDecoding {
    /// `bytes` with each `%XX` decoded (a `%` without two hex digits stays as it is), or
    /// nil when the result is not UTF-8.
    public static func decoded(_ bytes: some Collection<UInt8>) -> String? {
        var out: [UInt8] = []
        let input = Array(bytes)
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%"), i + 2 < input.count, let hi = hexValue(input[i + 1]), let lo = hexValue(input[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(input[i])
                i += 1
            }
        }
        guard UTF8Validation.firstInvalidByte(in: out) == nil else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
