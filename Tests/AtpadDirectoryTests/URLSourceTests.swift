import AtpadCore
import Foundation
import Testing
@testable import AtpadDirectory
@testable import AtpadSystem
import AtpadTestSupport

/// The URL source against a local server, through libcurl.
@Suite struct URLSourceTests {
    private func source(
        _ server: LocalHTTPServer,
        _ path: String = "/people?q={query}",
        timeout: Duration = .seconds(5)
    ) throws -> URLSource {
        try URLSource(template: "http://127.0.0.1:\(server.port)\(path)", timeout: timeout, limit: 50)
    }

    @Test func thePercentEncodedQueryReachesTheServerExactly() async throws {
        let server = try LocalHTTPServer { _ in .json("[]") }
        defer { server.stop() }
        let source = try source(server, "/people?q={query}&n=1")
        let result = await answer(source, "a b/é?&=+%#~-._[]{}")
        #expect(result.error == nil)
        #expect(result.batches == [[]])
        #expect(server.targets == ["/people?q=a%20b%2F%C3%A9%3F%26%3D%2B%25%23~-._%5B%5D%7B%7D&n=1"])
    }

    @Test func aJSONArrayIsOneBatchInTheServersOrder() async throws {
        let body = "[\(entityJSON("3", "Zed")), {\"id\": \"1\", \"name\": \"Ann\", \"handle\": \"ann\"}, \(entityJSON("3", "Zed again"))]"
        let server = try LocalHTTPServer { _ in .json(body) }
        defer { server.stop() }
        let result = await answer(try source(server, "/"), "a")
        #expect(result.error == nil)
        #expect(result.batches.count == 1)
        #expect(result.ids == ["3", "1"])
        #expect(result.batches.first?.last?.entity == Entity(id: "1", name: "Ann", handle: "ann"))
        let head = try #require(server.heads.first)
        #expect(head.contains("Accept: application/json\r\n"))
    }

    @Test func theLimitCutsTheAnswer() async throws {
        let server = try LocalHTTPServer { _ in .json("[\(entityJSON("1", "A")), \(entityJSON("2", "B")), \(entityJSON("3", "C"))]") }
        defer { server.stop() }
        let source = try URLSource(template: "http://127.0.0.1:\(server.port)/", limit: 2)
        #expect(await answer(source, "").ids == ["1", "2"])
    }

    @Test func chunkedAndUnframedAnswersAreRead() async throws {
        let body = "[\(entityJSON("1", "A")), \(entityJSON("2", "B"))]"
        let (first, second) = (String(body.prefix(10)), String(body.dropFirst(10)))
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "\(String(first.utf8.count, radix: 16));ext=1\r\n\(first)\r\n\(String(second.utf8.count, radix: 16))\r\n\(second)\r\n0\r\n\r\n"
        let unframed = "HTTP/1.0 200 OK\r\n\r\n" + body
        let server = try LocalHTTPServer { target in .raw(Array((target == "/chunked" ? chunked : unframed).utf8)) }
        defer { server.stop() }
        #expect(await answer(try source(server, "/chunked"), "").ids == ["1", "2"])
        #expect(await answer(try source(server, "/unframed"), "").ids == ["1", "2"])
    }

    @Test func aServerErrorFailsWithItsStatus() async throws {
        let server = try LocalHTTPServer { _ in .json("{\"error\": \"boom\"}", status: 500) }
        defer { server.stop() }
        let result = await answer(try source(server, "/p?q={query}"), "jo")
        #expect(result.message == "GET http://127.0.0.1:\(server.port)/p?q=jo: HTTP 500")
    }

    @Test func malformedJSONFails() async throws {
        let server = try LocalHTTPServer { _ in .json("[{\"id\": \"1\", \"name\": \"A\"},\n {\"id\": \"2\"}]") }
        defer { server.stop() }
        let result = await answer(try source(server, "/"), "")
        #expect(result.message == "GET http://127.0.0.1:\(server.port)/: malformed answer, line 2: entry 2 has no \"name\"")
        #expect(result.batches.isEmpty)
    }

    @Test func aRefusedConnectionFails() async throws {
        let port = refusedPort()
        let source = try URLSource(template: "http://127.0.0.1:\(port)/?q={query}", timeout: .seconds(5), limit: 50)
        let result = await answer(source, "x")
        let message = try #require(result.message)
        #expect(message.hasPrefix("GET http://127.0.0.1:\(port)/?q=x: "))
        // libcurl: "Failed to connect to 127.0.0.1 port N after 0 ms: Couldn't connect to server".
        #expect(message.lowercased().contains("connect"), "\(message)")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let start = ContinuousClock.now
        let result = await answer(try source(server, "/", timeout: .milliseconds(300)), "x")
        #expect(result.message == "GET http://127.0.0.1:\(server.port)/: timed out after 0.3 s")
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(await eventually { server.closedByClient == 1 })
    }

    @Test func aStaleRequestIsClosed() async throws {
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let source = try source(server, "/")
        let consumer = Task { for try await _ in source.search("x", trigger: "@") {} }
        #expect(await eventually { server.targets.count == 1 })
        let cancelled = ContinuousClock.now
        consumer.cancel()
        #expect(await eventually { server.closedByClient == 1 })
        #expect(ContinuousClock.now - cancelled < .seconds(1))
    }

    @Test func badTemplatesAreRefusedAtOnce() {
        for template in ["ftp://host/{query}", "http:///people", "localhost:8080/{query}", "http://host:99999/", "http://[::1/"] {
            #expect(throws: SourceError.self, "\(template)") { try URLSource(template: template) }
        }
        #expect(throws: Never.self) { try URLSource(template: "https://api.example.com/people?q={query}") }
    }

    @Test func everyPlaceholderIsReplaced() throws {
        let source = try URLSource(template: "http://h/{query}/x?q={query}")
        #expect(source.url(for: "a b") == "http://h/a%20b/x?q=a%20b")
    }

    // MARK: - Pages, headers, mapping (docs/directories.md, "Connect your directory")

    @Test func cursorPagesAreBatchesAndHeadersGoWithEveryPage() async throws {
        let server = try LocalHTTPServer { target in
            target.contains("cursor=c2")
                ? .json(#"{"members": [{"id": "U2", "name": "Bo"}], "meta": {"next": ""}}"#)
                : .json(#"{"members": [{"id": "U1", "name": "Al"}, {"id": "B1", "name": "Bot", "is_bot": true}], "meta": {"next": "c2"}}"#)
        }
        defer { server.stop() }
        let source = try URLSource(
            template: "http://127.0.0.1:\(server.port)/users?limit=2",
            request: .init(headers: [HTTPHeader(name: "Authorization", value: "Bearer t0k")], next: "meta.next"),
            mapping: try EntityMapping(items: "members", exclude: ["is_bot"]))
        let result = await answer(source, "")
        #expect(result.error == nil)
        #expect(result.batches.map { $0.map(\.entity.id) } == [["U1"], ["U2"]])
        #expect(server.targets == ["/users?limit=2", "/users?limit=2&cursor=c2"])
        #expect(server.heads.allSatisfy { $0.contains("Authorization: Bearer t0k\r\n") })
    }

    @Test func aHeaderNeverPrintsItsValue() {
        let header = HTTPHeader(name: "Authorization", value: "Bearer secret-value")
        #expect("\(header)" == "Authorization: (hidden)")
        #expect(!String(reflecting: [header]).contains("secret-value"))
    }

    @Test func theTimeoutBoundsAllPagesTogether() async throws {
        let server = try LocalHTTPServer { target in
            target.contains("cursor") ? .hang : .json(#"{"data": [{"id": "1", "name": "A"}], "next": "more"}"#)
        }
        defer { server.stop() }
        let source = try URLSource(template: "http://127.0.0.1:\(server.port)/", timeout: .milliseconds(400),
                                   request: .init(next: "next"), mapping: try EntityMapping(items: "data"))
        let result = await answer(source, "")
        #expect(result.ids == ["1"])
        #expect(result.message == "GET http://127.0.0.1:\(server.port)/?cursor=more: timed out after 0.4 s")
    }
}
