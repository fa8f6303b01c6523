/// Reads an HTTP/1.1 response to a GET as it arrives: the status line and headers, then
/// a body framed by `Transfer-Encoding: chunked`, by `Content-Length`, or by the end of the
/// connection. Informational (1xx) responses before the real one are skipped.
///
/// Pure (bytes in, a response out) so that it is tested without sockets.
struct HTTPResponseParser {
    /// A complete response.
    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
    }

    /// What is wrong with the bytes received, in words for an error message.
    struct Malformed: Error, Equatable {
        let message: String
    }

    /// The longest status line plus headers accepted.
    static let maximumHeadLength = 64 * 1024

    /// The largest body accepted.
    let maximumBodyLength: Int

    private enum Phase {
        case head
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case fixedLength(remaining: Int)
        case untilClose
        case done
    }

    private var phase = Phase.head
    private var buffer: [UInt8] = []
    private var position = 0
    private var status = 0
    private var body: [UInt8] = []

    init(maximumBodyLength: Int) {
        self.maximumBodyLength = maximumBodyLength
    }

    /// The response once it is complete, else nil (more bytes are needed).
    mutating func receive(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> Response? {
        if position > 0, position >= buffer.count - position {
            buffer.removeSubrange(0 ..< position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
        try advance()
        if case .done = phase { return Response(status: status, body: body) }
        return nil
    }

    /// The response when the connection has closed: complete if its body runs to the end
    /// of the connection, an error if the connection closed before the response ended.
    mutating func receiveEnd() throws(Malformed) -> Response {
        switch phase {
        case .done, .untilClose:
            phase = .done
            return Response(status: status, body: body)
        case .head:
            throw Malformed(message: buffer.isEmpty ? "the server closed the connection without answering" : "the answer ended inside its headers")
        default:
            throw Malformed(message: "the answer ended before its body was complete")
        }
    }

    // MARK: - Steps

    private mutating func advance() throws(Malformed) {
        while true {
            switch phase {
            case .head:
                guard let end = lineBreakPair() else {
                    if buffer.count - position > Self.maximumHeadLength { throw Malformed(message: "the answer's headers are too long") }
                    return
                }
                try readHead(upTo: end)
            case .chunkSize:
                guard let line = nextLine() else { return try checkLineLength() }
                // The size is hex, optionally followed by `;extension`.
                let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
                guard !digits.isEmpty, digits.count <= 8, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    throw Malformed(message: "a chunk size is not hexadecimal")
                }
                phase = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let taken = try takeBody(remaining)
                guard taken == remaining else { phase = .chunkData(remaining: remaining - taken); return }
                phase = .chunkEnd
            case .chunkEnd:
                guard let line = nextLine() else { return try checkLineLength() }
                guard line.isEmpty else { throw Malformed(message: "a chunk does not end with a line break") }
                phase = .chunkSize
            case .trailers:
                guard let line = nextLine() else { return try checkLineLength() }
                if line.isEmpty { phase = .done }
            case .fixedLength(let remaining):
                let taken = try takeBody(remaining)
                guard taken == remaining else { phase = .fixedLength(remaining: remaining - taken); return }
                phase = .done
            case .untilClose:
                _ = try takeBody(Int.max)
                return
            case .done:
                return
            }
        }
    }

    /// Reads the status line and headers ending before `end` (the blank line's offset) and
    /// chooses how the body is framed.
    private mutating func readHead(upTo end: (start: Int, next: Int)) throws(Malformed) {
        let head = String(decoding: buffer[position ..< end.start], as: UTF8.self)
        position = end.next
        var lines = head.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            throw Malformed(message: "the answer is not HTTP (\(SourceError.oneLine(String(statusLine.prefix(40)))))")
        }

        var contentLength: Int?
        var chunked = false
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(message: "a header line has no ':'") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length":
                guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(value),
                      contentLength == nil || contentLength == length
                else { throw Malformed(message: "the Content-Length header is not valid") }
                contentLength = length
            case "transfer-encoding":
                let codings = value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                chunked = codings.last == "chunked"
                if !chunked, codings.contains(where: { $0 != "identity" }) {
                    throw Malformed(message: "the answer uses the transfer coding \(value), which is not supported")
                }
            default:
                break
            }
        }

        if (100 ..< 200).contains(code), code != 101 {
            return  // an interim answer: the real one follows
        }
        status = code
        if code == 204 || code == 304 {
            phase = .done
        } else if chunked {
            phase = .chunkSize
        } else if let contentLength {
            guard contentLength <= maximumBodyLength else { throw tooLarge() }
            phase = contentLength == 0 ? .done : .fixedLength(remaining: contentLength)
        } else {
            phase = .untilClose
        }
    }

    /// Moves up to `count` buffered bytes into the body; returns how many were moved.
    private mutating func takeBody(_ count: Int) throws(Malformed) -> Int {
        let taken = min(count, buffer.count - position)
        guard body.count + taken <= maximumBodyLength else { throw tooLarge() }
        body.append(contentsOf: buffer[position ..< position + taken])
        position += taken
        return taken
    }

    private func tooLarge() -> Malformed {
        Malformed(message: "the answer is larger than \(maximumBodyLength >> 20) MB")
    }

    /// The next line (without CR LF or LF) if a whole one is buffered.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        guard let feed = buffer[position...].firstIndex(of: 0x0A) else { return nil }
        var end = feed
        if end > position, buffer[end - 1] == 0x0D { end -= 1 }
        let line = buffer[position ..< end]
        position = feed + 1
        return line
    }

    private func checkLineLength() throws(Malformed) {
        if buffer.count - position > Self.maximumHeadLength { throw Malformed(message: "a chunk line is too long") }
    }

    /// Where the head ends: the offset of the blank line's first break, and of the byte
    /// after it (CR LF CR LF, or bare LF LF from a lenient server).
    private func lineBreakPair() -> (start: Int, next: Int)? {
        var index = position
        while index < buffer.count {
            if buffer[index] == 0x0A {
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A { return (index, index + 3) }
            }
            index += 1
        }
        return nil
    }
}
