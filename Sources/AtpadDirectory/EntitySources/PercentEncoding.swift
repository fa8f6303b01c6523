/// Percent-encoding of text for a URL (RFC 3986 §2.1): the unreserved characters
/// (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~`) stay as they are, and every other byte of
/// the text's UTF-8 form becomes `%XX` (upper-case hex), space included (`%20`, never `+`).
public enum PercentEncoding {
    /// `text` with every byte that is not unreserved percent-encoded.
    public static func encode(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                appendEscape(byte, to: &encoded)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `text` with its `%XX` escapes decoded; nil when an escape is malformed or the bytes
    /// are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        while i < text.utf8.endIndex {
            let byte = text.utf8[i]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                i = text.utf8.index(after: i)
                continue
            }
            let hex = text.utf8[text.utf8.index(after: i)...].prefix(2)
            guard hex.count == 2, let value = UInt8(String(decoding: hex, as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            i = hex.endIndex
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` with the bytes that can never appear in a URL as they are (controls, space,
    /// `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, and every non-ASCII byte) percent-encoded,
    /// leaving delimiters and existing escapes alone: for the parts of a URL a person wrote.
    static func encodeUnsafeBytes(_ text: String) -> String {
        var encoded: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x21, 0x23 ... 0x3B, 0x3D, 0x3F ... 0x5B, 0x5D, 0x5F, 0x61 ... 0x7A, 0x7E:
                encoded.append(byte)
            default:
                appendEscape(byte, to: &encoded)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func appendEscape(_ byte: UInt8, to encoded: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        encoded.append(UInt8(ascii: "%"))
        encoded.append(hex[Int(byte >> 4)])
        encoded.append(hex[Int(byte & 0x0F)])
    }
}
