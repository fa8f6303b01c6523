import Testing
@testable import AtpadDirectory

@Suite struct PercentEncodingTests {
    @Test func unreservedCharactersStay() {
        let unreserved = "ABCXYZabcxyz0189-._~"
        #expect(PercentEncoding.encode(unreserved) == unreserved)
    }

    @Test func everythingElseIsEncodedAsUTF8Bytes() {
        #expect(PercentEncoding.encode("John Doe") == "John%20Doe")
        #expect(PercentEncoding.encode("a+b&c=d/e?f#g%h") == "a%2Bb%26c%3Dd%2Fe%3Ff%23g%25h")
        #expect(PercentEncoding.encode("é") == "%C3%A9")
        #expect(PercentEncoding.encode("日本") == "%E6%97%A5%E6%9C%AC")
        #expect(PercentEncoding.encode("🙂") == "%F0%9F%99%82")
        #expect(PercentEncoding.encode("\n\u{0}") == "%0A%00")
        #expect(PercentEncoding.encode("") == "")
    }

    @Test func everyByteRoundTrips() {
        for value in 0 ..< 128 {
            let text = String(UnicodeScalar(UInt8(value)))
            let encoded = PercentEncoding.encode(text)
            #expect(encoded.removingPercentEncodingForTest == text)
            #expect(encoded.count == 1 || encoded.count == 3)
        }
    }

    @Test func typedURLPartsKeepTheirDelimiters() {
        #expect(PercentEncoding.encodeUnsafeBytes("/a b/é?x=1&y=%20#f") == "/a%20b/%C3%A9?x=1&y=%20#f")
    }
}

private extension String {
    /// Decodes %XX escapes (for checking the encoder without Foundation's decoder).
    var removingPercentEncodingForTest: String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2 {
                bytes.append(UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)!)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
