import Testing
@testable import AtpadDirectory
@testable import AtpadSystem

@Suite struct LineBufferTests {
    private func lines(_ pieces: [String], maximum: Int = 100) throws -> [String] {
        var buffer = LineBuffer(maximumLength: maximum)
        var result: [String] = []
        for piece in pieces {
            Array(piece.utf8).withUnsafeBytes { buffer.append($0) }
            while let line = try buffer.nextLine() { result.append(String(decoding: Array(line), as: UTF8.self)) }
        }
        if let last = try buffer.finish() { result.append(String(decoding: last, as: UTF8.self)) }
        return result
    }

    @Test func linesSplitAcrossPieces() throws {
        #expect(try lines(["ab", "c\nd", "e\n", "\nf"]) == ["abc", "de", "", "f"])
        #expect(try lines(["a\r\nb\r", "\n"]) == ["a", "b"])
        #expect(try lines([]) == [])
        #expect(try lines(["x\n"]) == ["x"])
    }

    @Test func everySplitOfAStreamGivesTheSameLines() throws {
        let text = "one\ntwo\r\n\nthree\nfour"
        let expected = try lines([text])
        for cut in 0 ... text.utf8.count {
            let bytes = Array(text.utf8)
            let pieces = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(try lines(pieces) == expected)
        }
    }

    @Test func aLongLineIsRefusedBeforeItEnds() throws {
        #expect(throws: LineBuffer.TooLong(line: 2)) { try lines(["ok\n", String(repeating: "x", count: 11)], maximum: 10) }
        #expect(throws: LineBuffer.TooLong(line: 1)) { try lines([String(repeating: "x", count: 11) + "\n"], maximum: 10) }
        #expect(try lines([String(repeating: "x", count: 10) + "\n"], maximum: 10).count == 1)
    }

    @Test func durationsReadAsSeconds() {
        #expect(SourceError.seconds(.seconds(5)) == "5 s")
        #expect(SourceError.seconds(.milliseconds(300)) == "0.3 s")
        #expect(SourceError.seconds(.milliseconds(1250)) == "1.25 s")
        #expect(SourceError.decimalSeconds(.milliseconds(2001)) == "2.001")
    }

    @Test func errorsAreOneVisibleLine() {
        #expect(SourceError("a\nb\u{1B}[31m").description == "a\\nb\\u{1B}[31m")
        #expect(SourceError(String(repeating: "x", count: 400)).description.count == 301)
    }
}
