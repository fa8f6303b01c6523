import Foundation

import Glibc

/// A tiny HTTP server on 127.0.0.1 and a free port, for the URL source tests: it records
/// each request's target and answers with whatever the test's reply function says,
/// byte for byte (so tests can send chunked or broken answers, or none at all).
public final class LocalHTTPServer: @unchecked Sendable {
    /// What to do with a request.
    public enum Reply: Sendable {
        /// Send these bytes, then close.
        case raw([UInt8])
        /// Send nothing and keep the connection open until the client closes it.
        case hang

        /// A complete answer with a Content-Length.
        public static func json(_ body: String, status: Int = 200) -> Reply {
            let bytes = Array(body.utf8)
            let head = "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            return .raw(Array(head.utf8) + bytes)
        }
    }

    public let port: Int
    private let listener: Int32
    private let reply: @Sendable (String) -> Reply
    private let lock = NSLock()
    private var requestTargets: [String] = []
    private var requestHeads: [String] = []
    private var hangingClosedByClient = 0
    /// Whether `stop` was called, and whether the listener is closed: both under `lock`,
    /// so the listener's descriptor is shut down and closed once, and never touched after
    /// it is closed (the number may already be another test's socket by then).
    private var stopped = false
    private var listenerClosed = false

    public init(reply: @escaping @Sendable (_ target: String) -> Reply) throws {
        self.reply = reply
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let server = self
        Thread { server.acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops accepting (connections already open finish on their own).
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            // shutdown wakes the thread blocked in accept; close alone would not.
            if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    /// The targets (`/path?query`) of the requests received so far.
    public var targets: [String] { lock.withLock { requestTargets } }
    /// The request heads received so far.
    public var heads: [String] { lock.withLock { requestHeads } }
    /// How many `.hang` connections the client has closed.
    public var closedByClient: Int { lock.withLock { hangingClosedByClient } }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                let error = errno
                let done = lock.withLock { () -> Bool in
                    // A connection the client gave up before it was accepted is no reason
                    // to stop listening.
                    if !stopped, error == EINTR || error == ECONNABORTED || error == EPROTO { return false }
                    listenerClosed = true
                    close(listener)
                    return true
                }
                if done { return }
                continue
            }
            let server = self
            Thread { server.serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // A request with a body may come in the same packet as its head.
        while !head.contains(Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head += buffer[0 ..< count]
        }
        let text = String(decoding: head, as: UTF8.self)
        let requestLine = text.prefix { $0 != "\r\n" }
        let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        lock.withLock {
            requestTargets.append(target)
            requestHeads.append(text)
        }
        switch reply(target) {
        case .raw(let bytes):
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return }
                sent += count
            }
        case .hang:
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            lock.withLock { hangingClosedByClient += 1 }
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(_ part: [UInt8]) -> Bool {
        guard count >= part.count else { return false }
        return (0 ... count - part.count).contains { self[$0 ..< $0 + part.count].elementsEqual(part) }
    }
}

/// A port on 127.0.0.1 where nothing listens (bound, then released).
public func refusedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
