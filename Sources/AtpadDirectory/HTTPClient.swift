import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 client for one `http://` GET on POSIX sockets, with a deadline and
/// cancellation: what ``URLSource`` needs, without linking FoundationNetworking. That
/// library brings libcurl and some thirty shared libraries with it, which made every start
/// of atpad about 8 ms slower (median 10 → 19 ms for `atpad --version`), and it does not
/// link with `--static-swift-stdlib` unless libcurl's development files are installed.
///
/// Sends `Connection: close`, so the response ends with the connection at the latest.
/// Name resolution (`getaddrinfo`) cannot be interrupted; the deadline and cancellation are
/// honoured from the connection on.
enum HTTPClient {
    /// What became of the request.
    enum Outcome: Equatable {
        case response(HTTPResponseParser.Response)
        case cancelled
    }

    /// GETs `url` (an `http://` one), failing with a ``SourceError`` described as
    /// `what` + the problem (`connection refused`, `timed out after 5 s`, …).
    static func get(
        _ url: RequestURL,
        deadline: ContinuousClock.Instant,
        timeout: Duration,
        cancellation: Cancellation,
        maximumBodyLength: Int
    ) throws(SourceError) -> Outcome {
        let fail = { (problem: String) in SourceError("GET \(url.text): \(problem)") }
        let timedOut = fail("timed out after \(SourceError.seconds(timeout))")

        guard let socket = try connect(url, deadline: deadline, cancellation: cancellation, fail: fail, timedOut: timedOut) else {
            return .cancelled
        }
        defer { closeDescriptor(socket) }

        var request = "GET \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        request += "User-Agent: atpad\r\nAccept: application/json\r\nConnection: close\r\n"
        if let credentials = url.credentials {
            request += "Authorization: Basic \(Data(credentials.utf8).base64EncodedString())\r\n"
        }
        request += "\r\n"
        var unsent = Array(request.utf8)[...]
        while !unsent.isEmpty {
            switch wait(for: socket, events: Int16(POLLOUT), deadline: deadline, cancellation: cancellation) {
            case .cancelled: return .cancelled
            case .timedOut: throw timedOut
            case .ready: break
            }
            // MSG_NOSIGNAL: a server that hung up must not end atpad with SIGPIPE.
            let sent = unsent.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw fail(errorText(errno))
            }
            unsent = unsent.dropFirst(sent)
        }

        var parser = HTTPResponseParser(maximumBodyLength: maximumBodyLength)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch wait(for: socket, events: Int16(POLLIN), deadline: deadline, cancellation: cancellation) {
            case .cancelled: return .cancelled
            case .timedOut: throw timedOut
            case .ready: break
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw fail(errorText(errno))
            }
            do throws(HTTPResponseParser.Malformed) {
                if count == 0 { return .response(try parser.receiveEnd()) }
                if let response = try parser.receive(buffer[0 ..< count]) { return .response(response) }
            } catch {
                throw fail(error.message)
            }
        }
    }

    // MARK: - Connecting

    /// A connected non-blocking socket, trying each address of the host in turn; nil when
    /// cancelled.
    private static func connect(
        _ url: RequestURL,
        deadline: ContinuousClock.Instant,
        cancellation: Cancellation,
        fail: (String) -> SourceError,
        timedOut: SourceError
    ) throws(SourceError) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard resolved == 0, let first = list else {
            let why = resolved == EAI_SYSTEM ? errorText(errno) : String(cString: gai_strerror(resolved))
            throw fail("cannot find the host \(url.host) (\(why.lowercased()))")
        }
        defer { freeaddrinfo(list) }

        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let fd = socket(address.pointee.ai_family, socketType, 0)
            guard fd >= 0 else { lastError = errno; continue }
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = errno
                closeDescriptor(fd)
                continue
            }
            switch wait(for: fd, events: Int16(POLLOUT), deadline: deadline, cancellation: cancellation) {
            case .cancelled:
                closeDescriptor(fd)
                return nil
            case .timedOut:
                closeDescriptor(fd)
                throw timedOut
            case .ready:
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code == 0 { return fd }
                lastError = code
                closeDescriptor(fd)
            }
        }
        throw fail(errorText(lastError))
    }

    // MARK: - Waiting

    private enum Readiness {
        case ready, cancelled, timedOut
    }

    /// Waits until `fd` is ready for `events`, the deadline passes, or the query is cancelled.
    private static func wait(
        for fd: Int32,
        events: Int16,
        deadline: ContinuousClock.Instant,
        cancellation: Cancellation
    ) -> Readiness {
        while true {
            guard !cancellation.isCancelled else { return .cancelled }
            guard let timeout = ChildProcess.milliseconds(until: deadline) else { return .timedOut }
            var fds = [
                pollfd(fd: fd, events: events, revents: 0),
                pollfd(fd: cancellation.fd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0, errno != EINTR { return .timedOut }
            if fds[1].revents != 0 { return .cancelled }
            // Errors and hang-ups count as ready: the next call reports them.
            if fds[0].revents != 0 { return .ready }
        }
    }
}
