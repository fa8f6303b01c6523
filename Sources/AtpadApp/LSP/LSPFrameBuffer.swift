import AtpadSystem

/// The bytes read from a language client, cut into JSON-RPC messages by their
/// `Content-Length` headers (LSP 3.17, "Base Protocol"; docs/editors.md). Pure: it is
/// handed bytes and hands back frames, so a wrong length or garbage between messages is
/// tested without a pipe.
struct LSPFrameBuffer {
    /// What one step of reading found.
    enum Frame: Equatable {
        /// A message's content, exactly `Content-Length` bytes.
        case message([UInt8])
        /// Bytes that were no message (a header without a usable length, text outside any
        /// frame), dropped up to the next `Content-Length:` header; the reason, for the log.
        case skipped(String)
    }

    private var bytes: [UInt8] = []
    private var start = 0

    /// The most a header block may take before it is taken as garbage.
    static let headerLimit = 4096
    private static let separator: [UInt8] = Array("\r\n\r\n".utf8)
    private static let lengthName: [UInt8] = Array("content-length:".utf8)

    mutating func append(_ more: some Sequence<UInt8>) {
        if start > 0, start >= bytes.count / 2 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next frame, or nil when the bytes so far end inside one (more must be read).
    mutating func next() -> Frame? {
        guard start < bytes.count else { return nil }
        guard let end = Self.find(Self.separator, in: bytes, from: start) else {
            if bytes.count - start > Self.headerLimit { return skip("a header of more than \(Self.headerLimit) bytes") }
            return nil
        }
        let header = String(decoding: bytes[start..<end], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            length = Int(parts[1].trimmed())
        }
        guard let length, length >= 0 else {
            return skip("a header without a usable Content-Length: \(header.prefix(80).debugDescription)")
        }
        let body = end + Self.separator.count
        guard bytes.count - body >= length else { return nil }
        start = body + length
        return .message(Array(bytes[body..<start]))
    }

    /// Drops the bytes up to the next `Content-Length:` after the current start.
    private mutating func skip(_ reason: String) -> Frame {
        let lowered = bytes[(start + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if let next = Self.find(Self.lengthName, in: lowered, from: 0) {
            start = start + 1 + next
        } else {
            // Keep a tail that may be the beginning of the next header.
            start = max(start + 1, bytes.count - Self.lengthName.count)
        }
        return .skipped(reason)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count - from >= needle.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// `content` framed for the client.
    static func framed(_ content: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(content.count)\r\n\r\n".utf8) + content
    }
}
