import Testing
@testable import AtpadDirectory

@Suite struct HTTPResponseParserTests {
    /// Feeds `text` in pieces cut at `cuts`, then (when `close`) the end of the connection.
    private func parse(_ text: String, cuts: [Int] = [], close: Bool = false, maximum: Int = 1000) throws -> HTTPResponseParser.Response? {
        var parser = HTTPResponseParser(maximumBodyLength: maximum)
        let bytes = Array(text.utf8)
        var start = 0
        for cut in (cuts + [bytes.count]).map({ min($0, bytes.count) }) where cut >= start {
            if let response = try parser.receive(bytes[start ..< cut]) { return response }
            start = cut
        }
        return close ? try parser.receiveEnd() : nil
    }

    @Test func contentLengthFramesTheBody() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n[1,2]"
        for cut in 0 ... text.utf8.count {
            let response = try parse(text, cuts: [cut])
            #expect(response == .init(status: 200, body: Array("[1,2]".utf8)), "cut at \(cut)")
        }
        // More bytes than announced are not part of the body.
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]garbage")?.body == Array("[]".utf8))
    }

    @Test func chunkedBodiesAreDecodedWhereverTheyAreCut() throws {
        let chunked = "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;name=value\r\n[1,\r\nA\r\n2345678901\r\n1\r\n]\r\n0\r\nTrailer: x\r\n\r\n"
        for cut in 0 ... chunked.utf8.count {
            for second in [cut, cut + 7] {
                let response = try parse(chunked, cuts: [cut, second])
                #expect(response == .init(status: 201, body: Array("[1,2345678901]".utf8)), "cuts at \(cut), \(second)")
            }
        }
    }

    @Test func anAnswerWithoutFramingRunsToTheClose() throws {
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\n[]") == nil)
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\n[]", close: true) == .init(status: 200, body: Array("[]".utf8)))
        #expect(try parse("HTTP/1.1 200 OK\n\n[]", close: true)?.body == Array("[]".utf8))
    }

    @Test func interimAnswersAreSkippedAndEmptyStatusesHaveNoBody() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}"
        #expect(try parse(text) == .init(status: 404, body: Array("{}".utf8)))
        #expect(try parse("HTTP/1.1 204 No Content\r\n\r\n") == .init(status: 204, body: []))
    }

    @Test func brokenAnswersAreErrors() {
        let cases: [(String, String)] = [
            ("", "the server closed the connection without answering"),
            ("HTTP/1.1 200 OK\r\nContent-", "the answer ended inside its headers"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n[]", "the answer ended before its body was complete"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[]", "the answer ended before its body was complete"),
            ("SSH-2.0-OpenSSH\r\n\r\n", "the answer is not HTTP (SSH-2.0-OpenSSH)"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the Content-Length header is not valid"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "the Content-Length header is not valid"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk size is not hexadecimal"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", "a chunk does not end with a line break"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "the answer uses the transfer coding gzip, which is not supported"),
            ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "a header line has no ':'"),
        ]
        for (text, message) in cases {
            #expect(throws: HTTPResponseParser.Malformed(message: message), "\(text.debugDescription)") {
                try parse(text, close: true)
            }
        }
    }

    @Test func bodiesAreCappedHoweverFramed() {
        let tooLarge = HTTPResponseParser.Malformed(message: "the answer is larger than 0 MB")
        #expect(throws: tooLarge) { try parse("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", maximum: 10) }
        #expect(throws: tooLarge) { try parse("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11), maximum: 10) }
        #expect(throws: tooLarge) {
            try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nxxxxxx\r\n6\r\nxxxxxx\r\n0\r\n\r\n", maximum: 10)
        }
        #expect(throws: HTTPResponseParser.Malformed(message: "the answer's headers are too long")) {
            try parse("HTTP/1.1 200 OK\r\nX: " + String(repeating: "x", count: 70_000))
        }
    }
}
