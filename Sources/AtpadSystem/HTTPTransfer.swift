import CCurl
import FoundationEssentials
import Glibc

/// One HTTP request: of a URL source, or a post.
package struct HTTPRequest: Sendable {
    package var method = "GET"
    package var url: String
    /// Headers to send besides `Accept` and `User-Agent`; their values may be secrets
    /// and never appear in a message.
    package var headers: [HTTPHeader] = []
    package var body: [UInt8]?

    package init(method: String = "GET", url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        (self.method, self.url, self.headers, self.body) = (method, url, headers, body)
    }
}

/// A header of a URL source. Its value may hold a token, so the type prints as its name
/// only: a header that ends up in a message or a log by mistake still leaks nothing.
public struct HTTPHeader: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let name: String
    package let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): (hidden)" }
    public var debugDescription: String { description }
}

/// A complete answer.
package struct HTTPResponse: Equatable, Sendable {
    package var status: Int
    package var body: [UInt8]
    /// The `Retry-After` header of the final answer, if any (a 429 or 503 says how long to wait).
    package var retryAfter: String? = nil
}

/// A transfer that failed, and whether the request may have reached the server before it
/// did: a post that timed out or lost its connection may have been posted, one that could
/// not connect was not.
package struct HTTPFailure: Error {
    package var error: SourceError
    package var mayHaveArrived: Bool
}

/// Performs HTTP and HTTPS requests through libcurl (``LibCurl``, opened at the first
/// request) — the one HTTP stack of atpad (ARCHITECTURE.md says why). libcurl reads `http_proxy`, `https_proxy`, `all_proxy` and
/// `no_proxy` from the environment itself, checks certificates against the system's, and
/// speaks HTTP/2 where the server does.
///
/// A transfer runs on a multi handle so that waiting also watches the query's
/// ``Cancellation`` descriptor: a stale query closes its connection at once, not at
/// libcurl's next progress tick. Redirects are not followed, only `http` and `https` are
/// allowed, and the body is cut off (as a failure) past `maximumBodyLength`.
package enum HTTPTransfer {
    /// Performs `request`; nil when cancelled. Failures are ``SourceError``s starting with
    /// `METHOD URL: ` and naming the problem (`timed out after 5 s`, `HTTP` status codes are
    /// the caller's to judge).
    package static func perform(
        _ request: HTTPRequest,
        deadline: ContinuousClock.Instant,
        timeout: Duration,
        cancellation: Cancellation,
        maximumBodyLength: Int
    ) throws(SourceError) -> HTTPResponse? {
        do {
            return try transfer(request, deadline: deadline, timeout: timeout, cancellation: cancellation,
                                maximumBodyLength: maximumBodyLength)
        } catch {
            throw error.error
        }
    }

    /// ``perform(_:deadline:timeout:cancellation:maximumBodyLength:)``, saying of a failure
    /// whether the request may have reached the server (what a post needs to know).
    package static func transfer(
        _ request: HTTPRequest,
        deadline: ContinuousClock.Instant,
        timeout: Duration,
        cancellation: Cancellation,
        maximumBodyLength: Int
    ) throws(HTTPFailure) -> HTTPResponse? {
        // Until the transfer starts nothing has left; once it ends, libcurl's count of the
        // request bytes it sent tells.
        var started = false
        let fail = { (problem: String) in
            HTTPFailure(error: SourceError("\(request.method) \(request.url): \(problem)"), mayHaveArrived: started)
        }
        var timedOut: HTTPFailure { fail("timed out after \(SourceError.seconds(timeout))") }
        let curl: LibCurl
        switch LibCurl.shared {
        case .success(let library): curl = library
        case .failure(let error): throw fail(error.message)
        }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw timedOut }
        guard let easy = curl.easyInit() else { throw fail("libcurl could not start a transfer") }
        defer { curl.easyCleanup(easy) }
        guard let multi = curl.multiInit() else { throw fail("libcurl could not start a transfer") }
        defer { _ = curl.multiCleanup(multi) }

        let sink = BodySink(limit: maximumBodyLength)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl.slistFreeAll(headerList) }
        var lines = ["Accept: application/json"]
        if request.body != nil, !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            lines.append("Content-Type: application/json; charset=utf-8")
        }
        lines += request.headers.map { "\($0.name): \($0.value)" }
        for line in lines { headerList = curl.slistAppend(headerList, line) }

        let milliseconds = max(1, Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000))
        curl.set(easy, CURLOPT_URL, request.url)
        curl.set(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        curl.set(easy, CURLOPT_NOSIGNAL, 1)
        curl.set(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        curl.set(easy, CURLOPT_FOLLOWLOCATION, 0)
        curl.set(easy, CURLOPT_MAXFILESIZE_LARGE, offset: curl_off_t(maximumBodyLength))
        curl.set(easy, CURLOPT_USERAGENT, "atpad")
        curl.set(easy, CURLOPT_ACCEPT_ENCODING, "")
        curl.set(easy, CURLOPT_HTTPHEADER, list: headerList)
        curl.set(easy, CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        curl.setWriteFunction(easy, bodyWriter)
        curl.set(easy, CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(sink).toOpaque())
        curl.setHeaderFunction(easy, headerReader)
        curl.set(easy, CURLOPT_HEADERDATA, pointer: Unmanaged.passUnretained(sink).toOpaque())
        if let body = request.body {
            curl.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(body.count))
            // COPYPOSTFIELDS: libcurl keeps its own copy, so the array may go.
            // (An empty body still needs a valid pointer: size 0 says how much to read.)
            (body.isEmpty ? [0] : body).withUnsafeBytes { buffer in
                curl.set(easy, CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
        }
        if request.method != "GET" && !(request.method == "POST" && request.body != nil) {
            curl.set(easy, CURLOPT_CUSTOMREQUEST, request.method)
        }

        guard curl.multiAddHandle(multi, easy) == CURLM_OK else { throw fail("libcurl could not start a transfer") }
        defer { _ = curl.multiRemoveHandle(multi, easy) }
        started = true

        // libcurl enforces the timeout and says so; this later deadline only catches a
        // transfer that does not end.
        let backstop = deadline + .milliseconds(500)
        var running: Int32 = 1
        while running > 0 {
            guard curl.multiPerform(multi, &running) == CURLM_OK else { throw fail("libcurl failed") }
            if running == 0 { break }
            guard !cancellation.isCancelled else { return nil }
            guard let wait = ChildProcess.milliseconds(until: backstop) else { throw timedOut }
            var extra = curl_waitfd(fd: cancellation.fd, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            var ready: Int32 = 0
            _ = curl.multiPoll(multi, &extra, 1, min(wait, 1000), &ready)
            guard !cancellation.isCancelled else { return nil }
        }

        var result = CURLE_OK
        var pending: Int32 = 0
        while let message = curl.multiInfoRead(multi, &pending) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        // A transfer that sent no request (no connection, a timeout while connecting, a
        // certificate refused) never reached the server.
        if curl.requestSize(easy) == 0 { started = false }
        switch result {
        case CURLE_OK:
            return HTTPResponse(status: curl.responseCode(easy), body: sink.bytes, retryAfter: sink.retryAfter)
        case CURLE_OPERATION_TIMEDOUT:
            throw timedOut
        case CURLE_FILESIZE_EXCEEDED:
            throw fail("the answer is larger than \(maximumBodyLength >> 20) MB")
        case CURLE_WRITE_ERROR where sink.tooLarge:
            throw fail("the answer is larger than \(maximumBodyLength >> 20) MB")
        default:
            let detail = String(cString: errorBuffer)
            throw fail(detail.isEmpty ? curl.easyStrerror(result).map { String(cString: $0) } ?? "libcurl error \(result.rawValue)" : detail)
        }
    }
}

/// Where libcurl writes the body; refuses more than `limit` bytes. It also keeps the
/// answer's `Retry-After` header.
private final class BodySink {
    let limit: Int
    var bytes: [UInt8] = []
    var tooLarge = false
    var retryAfter: String?

    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: appends to the ``BodySink`` passed as the context, or ends
/// the transfer (by taking fewer bytes than offered) once the body passes the limit.
private let bodyWriter: atpad_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard sink.bytes.count + length <= sink.limit else {
        sink.tooLarge = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}

/// libcurl's header callback: keeps `Retry-After` in the ``BodySink`` passed as the
/// context. A status line starts a new answer (after a redirect or a `100 Continue`), so
/// only the final answer's header counts.
private let headerReader: atpad_curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    // Only a status line or a header starting with R is read as text.
    let first = length > 0 ? UInt8(bitPattern: data[0]) : 0
    guard first == UInt8(ascii: "H") || first == UInt8(ascii: "R") || first == UInt8(ascii: "r") else { return length }
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") { sink.retryAfter = nil }
    let name = "retry-after:"
    if line.count > name.count, line.prefix(name.count).lowercased() == name {
        sink.retryAfter = line.dropFirst(name.count).trimmed()
    }
    return length
}
