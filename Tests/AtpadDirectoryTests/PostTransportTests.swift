@testable import AtpadCore
@testable import AtpadDirectory
import Foundation
import Testing
import AtpadTestSupport

/// The transport of a post: HTTP through the one libcurl stack (method, headers and body
/// sent; `Retry-After` kept; whether a failure may have reached the server) and programs
/// with the body on stdin.
@Suite struct PostTransportTests {
    let target = PostTarget.slack(channel: "C1", thread: nil)

    func http(_ port: Int, method: String = "POST") -> PostRequest {
        PostRequest(target: target, action: .http(method: method, url: "http://127.0.0.1:\(port)/api/chat.postMessage",
                                                  headers: [PostHeader(name: "Authorization", scheme: "Bearer", secret: "t0k")],
                                                  body: Array(#"{"text": "hi"}"#.utf8)))
    }

    @Test func sendsMethodHeadersAndBodyAndKeepsRetryAfter() throws {
        let head = "HTTP/1.1 429 Too Many\r\nRetry-After: 17\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        let server = try LocalHTTPServer { _ in .raw(Array(head.utf8)) }
        defer { server.stop() }
        let reply = PostTransport.perform(http(server.port, method: "PUT"), timeout: .seconds(5), environment: [:])
        #expect(reply == .http(status: 429, retryAfter: "17", body: Array("{}".utf8)))
        let sent = try #require(server.heads.first)
        #expect(sent.hasPrefix("PUT /api/chat.postMessage HTTP/1.1\r\n"))
        #expect(sent.contains("\r\nAuthorization: Bearer t0k\r\n"))
        #expect(sent.contains("\r\nContent-Length: 14\r\n"))
    }

    @Test func nothingListeningWasNotSent() {
        guard case .notSent = PostTransport.perform(http(refusedPort()), timeout: .seconds(5), environment: [:]) else {
            Issue.record("expected notSent")
            return
        }
    }

    @Test func aHangOrAClosedConnectionGetsNoAnswer() throws {
        let hanging = try LocalHTTPServer { _ in .hang }
        defer { hanging.stop() }
        let start = ContinuousClock.now
        guard case let .noAnswer(reason) = PostTransport.perform(http(hanging.port), timeout: .milliseconds(500), environment: [:]) else {
            Issue.record("expected noAnswer")
            return
        }
        #expect(reason == "timed out after 0.5 s")
        #expect(ContinuousClock.now - start < .seconds(5))
        let closing = try LocalHTTPServer { _ in .raw([]) }
        defer { closing.stop() }
        guard case .noAnswer = PostTransport.perform(http(closing.port), timeout: .seconds(5), environment: [:]) else {
            Issue.record("expected noAnswer")
            return
        }
    }

    @Test func aProgramReadsTheBodyOnStdinWhateverItsSize() throws {
        let body = Array(repeating: Array("0123456789abcdef".utf8), count: 40_000).flatMap { $0 }  // 640 KB: more than a pipe holds
        let request = PostRequest(target: .github(owner: "o", repository: "r", number: 1),
                                  action: .program(arguments: ["sh", "-c", "wc -c; echo oops >&2; exit 3"], stdin: body))
        let reply = PostTransport.perform(request, timeout: .seconds(10), environment: ProcessInfo.processInfo.environment)
        guard case let .program(status, output, errorLine) = reply else {
            Issue.record("expected a program reply, got \(reply)")
            return
        }
        #expect(status == 3)
        #expect(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(body.count)")
        #expect(errorLine == "oops")
    }

    @Test func aProgramThatDoesNotFinishGetsNoAnswer() {
        let request = PostRequest(target: .gitlab(project: "g/p", item: .issue, number: 1),
                                  action: .program(arguments: ["sh", "-c", "cat >/dev/null; sleep 30"], stdin: Array("x".utf8)))
        let start = ContinuousClock.now
        #expect(PostTransport.perform(request, timeout: .milliseconds(500), environment: ProcessInfo.processInfo.environment)
            == .noAnswer(reason: "sh did not finish within 0.5 s"))
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aMissingProgramWasNotSent() {
        let request = PostRequest(target: .github(owner: "o", repository: "r", number: 1),
                                  action: .program(arguments: ["atpad-no-such-gh"], stdin: []))
        #expect(PostTransport.perform(request, timeout: .seconds(5), environment: ["PATH": "/nonexistent"])
            == .notSent(reason: "atpad-no-such-gh is not installed (or not in PATH)"))
    }
}
