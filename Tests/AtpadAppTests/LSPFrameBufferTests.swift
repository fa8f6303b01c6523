@testable import AtpadApp
import Testing

/// The language server's framing (docs/editors.md): whole messages by `Content-Length`,
/// however the bytes arrive, and garbage skipped up to the next header.
@Suite struct LSPFrameBufferTests {
    private func frames(_ chunks: [String]) -> [LSPFrameBuffer.Frame] {
        var buffer = LSPFrameBuffer()
        var out: [LSPFrameBuffer.Frame] = []
        for chunk in chunks {
            buffer.append(Array(chunk.utf8))
            while let frame = buffer.next() { out.append(frame) }
        }
        return out
    }

    private func message(_ s: String) -> LSPFrameBuffer.Frame { .message(Array(s.utf8)) }

    @Test func aMessageSplitAnywhereIsOneFrame() {
        let text = "Content-Length: 7\r\n\r\n{\"a\":1}"
        for cut in 1..<text.utf8.count {
            let bytes = Array(text.utf8)
            let parts = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(frames(parts) == [message("{\"a\":1}")], "cut at \(cut)")
        }
    }

    @Test func twoMessagesInOneReadAndOtherHeaders() {
        let text = "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
            + "content-length:3\r\n\r\n[1]"
        #expect(frames([text]) == [message("{}"), message("[1]")])
    }

    @Test func theLengthCountsBytesNotCharacters() {
        #expect(frames(["Content-Length: 4\r\n\r\n\"é\"{"]) == [message("\"é\"")])
    }

    @Test func aHeaderWithoutALengthIsSkippedToTheNextMessage() {
        let out = frames(["Content-Type: x\r\n\r\nnoise Content-Length: 2\r\n\r\n{}"])
        #expect(out.count == 2)
        if case .skipped = out[0] {} else { Issue.record("expected a skip, got \(out[0])") }
        #expect(out[1] == message("{}"))
    }

    @Test func aBadLengthIsSkipped() {
        let out = frames(["Content-Length: -4\r\n\r\nContent-Length: 2\r\n\r\n{}"])
        #expect(out.last == message("{}"))
        #expect(out.count == 2)
    }

    @Test func aLengthTooShortCutsTheMessageAndTheRestIsSkipped() {
        let out = frames(["Content-Length: 3\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}"])
        #expect(out.count == 3)
        #expect(out.first == message("{\"a"))
        if case .skipped = out[1] {} else { Issue.record("expected a skip, got \(out[1])") }
        #expect(out.last == message("{}"))
    }

    @Test func framedWritesTheByteLength() {
        #expect(LSPFrameBuffer.framed(Array("\"é\"".utf8)) == Array("Content-Length: 4\r\n\r\n\"é\"".utf8))
    }
}
