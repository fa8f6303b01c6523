import AtpadCore
import Glibc
import Synchronization

/// The one writer of stdout while `atpad lsp` runs: framed JSON-RPC messages, whole, one
/// at a time (answers of slow sources come from other threads). Nothing else may write
/// there: a stray byte would break the client's framing.
final class LSPOutput: Sendable {
    private let descriptor: Int32
    private let lock = Mutex(())

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    func send(_ message: JSONValue) {
        send(JSONWriter.utf8(message, layout: .compact))
    }

    /// Writes one message's content, framed, in one piece.
    private func send(_ content: [UInt8]) {
        let bytes = LSPFrameBuffer.framed(content)
        lock.withLock { _ in
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0, errno == EINTR { continue }
                    // The client is gone: nothing more can be said to it.
                    if n <= 0 { return }
                    offset += n
                }
            }
        }
    }

    func respond(_ id: JSONValue, result: JSONValue) {
        respond(id) { $0.value(result) }
    }

    /// A response whose result `writeResult` writes in place: a completion list's items
    /// are written as they are made, not built as a `JSONValue` first and then taken
    /// apart again (docs/editors.md, "What it serves").
    func respond(_ id: JSONValue, writing writeResult: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(layout: .compact)
        writer.object { writer in
            writer.key("jsonrpc")
            writer.string("2.0")
            writer.key("id")
            writer.value(id)
            writer.key("result")
            writeResult(&writer)
        }
        send(writer.bytes)
    }

    func respond(_ id: JSONValue, error code: LSPErrorCode, _ message: String) {
        send(["jsonrpc": "2.0", "id": id, "error": ["code": .number(code.rawValue), "message": .string(message)]])
    }

    func notify(_ method: String, _ params: JSONValue) {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// A line in the client's log (`window/logMessage`; type 1 error … 4 log).
    func log(_ message: String, type: Int = 2) {
        notify("window/logMessage", ["type": .number(type), "message": .string("atpad: " + message)])
    }
}

/// JSON-RPC's and LSP's error codes (LSP 3.17, "Response Message").
enum LSPErrorCode: Int {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    case serverNotInitialized = -32002
    case requestCancelled = -32800
}
