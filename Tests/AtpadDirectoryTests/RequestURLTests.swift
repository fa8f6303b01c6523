import Testing
@testable import AtpadDirectory
@testable import AtpadSystem

@Suite struct RequestURLTests {
    @Test func partsOfAPlainURL() throws {
        let url = try RequestURL("http://example.com/people?q=jo#top")
        #expect(url.scheme == .http)
        #expect(url.host == "example.com")
        #expect(url.port == 80)
        #expect(url.hostHeader == "example.com")
        #expect(url.target == "/people?q=jo")
        #expect(url.credentials == nil)
    }

    @Test func portsHostsAndDefaults() throws {
        let withPort = try RequestURL("HTTP://127.0.0.1:8080?q=x")
        #expect(withPort.port == 8080)
        #expect(withPort.hostHeader == "127.0.0.1:8080")
        #expect(withPort.target == "/?q=x")
        let ipv6 = try RequestURL("https://[::1]:8443")
        #expect(ipv6.scheme == .https)
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 8443)
        #expect(ipv6.hostHeader == "[::1]:8443")
        #expect(ipv6.target == "/")
        #expect(try RequestURL("https://h/").port == 443)
        #expect(try RequestURL("http://h:80/").hostHeader == "h")
    }

    @Test func credentialsAreDecoded() throws {
        let url = try RequestURL("http://me:p%40ss@host/x")
        #expect(url.credentials == "me:p@ss")
        #expect(url.host == "host")
    }

    @Test func unsafeBytesInThePathAreEncoded() throws {
        #expect(try RequestURL("http://h/a b/é").target == "/a%20b/%C3%A9")
    }

    @Test func unusableURLsAreRefused() {
        for text in ["", "people", "ftp://h/", "http://", "http:///x", "http://h:0/", "http://h:x/", "http://h:70000/", "http://[::1/", "http://[::1]x/"] {
            #expect(throws: SourceError.self, "\(text)") { try RequestURL(text) }
        }
    }
}
