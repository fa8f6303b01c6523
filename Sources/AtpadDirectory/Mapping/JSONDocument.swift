import AtpadCore
import AtpadSystem

/// A whole JSON answer of a source, read into a ``JSONValue`` for ``EntityMapping``, and
/// written back as text (a POST body with a cursor added).
enum JSONDocument {
    /// Parses `bytes` as one JSON value; a failure says `malformed JSON, line N: …`.
    static func parse(_ bytes: [UInt8]) throws(SourceError) -> JSONValue {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw SourceError("malformed JSON: not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at offset \(bad))")
        }
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try JSONReader.value(of: buffer))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            let line = bytes.withUnsafeBufferPointer { JSONReader.line(of: error.offset, in: $0) }
            throw SourceError("malformed JSON, line \(line): \(error.message)")
        }
    }

    /// `value` as compact JSON text.
    static func text(of value: JSONValue) -> String {
        JSONWriter.text(value, layout: .compact)
    }
}

extension JSONDocument {
    /// The object `value` as compact JSON text with the member `key` set to the string
    /// `member` (replacing one of that name); nil when `value` is not an object.
    static func text(of value: JSONValue, setting key: String, to member: String) -> String? {
        guard case .object(let members) = value.kind else { return nil }
        return text(of: .object(members.filter { $0.key != key } + [(key, .string(member))]))
    }
}
