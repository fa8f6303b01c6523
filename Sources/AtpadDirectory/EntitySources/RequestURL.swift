import AtpadSystem
import FoundationEssentials
import Glibc

/// An `http://` or `https://` URL taken apart for a GET request.
///
/// Parsed by hand rather than with `URL`/`URLComponents` so that the request target is sent
/// exactly as written (those types may re-encode the path or query), and so that the
/// rules are the few a request needs: `scheme://[user[:password]@]host[:port][/path][?query][#fragment]`,
/// the host a name, an IPv4 address or a bracketed IPv6 address. Bytes that cannot appear
/// in a URL (spaces, non-ASCII) are percent-encoded; the fragment is dropped.
struct RequestURL: Equatable, Sendable {
    enum Scheme: String, Sendable {
        case http, https
    }

    /// The URL as given (for messages and for curl).
    let text: String
    let scheme: Scheme
    /// The host to connect to, without IPv6 brackets.
    let host: String
    let port: Int
    /// The value of the `Host` header: the host as written, with the port when not the default.
    let hostHeader: String
    /// Path and query, as sent in the request line (at least `/`).
    let target: String
    /// `user:password` from the URL, percent-decoded, for Basic authorisation.
    let credentials: String?

    init(_ text: String) throws(SourceError) {
        self.text = text
        let unparsable = { (why: String) in SourceError("cannot use the URL \(text): \(why)") }
        guard let separator = text.firstRange(of: "://") else { throw unparsable("it does not start with http:// or https://") }
        guard let scheme = Scheme(rawValue: text[..<separator.lowerBound].lowercased()) else {
            throw unparsable("only http:// and https:// are supported")
        }
        self.scheme = scheme

        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            credentials = PercentEncoding.decode(authority[..<at]) ?? String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        } else {
            credentials = nil
        }

        var portText: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw unparsable("the IPv6 address has no closing ]") }
            host = String(authority[authority.index(after: authority.startIndex) ..< close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw unparsable("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw unparsable("it has no host") }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw unparsable("the host is not valid") }

        let defaultPort = scheme == .http ? 80 : 443
        if portText.isEmpty {
            port = defaultPort
        } else {
            guard portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), let number = Int(portText),
                  (1 ... 65535).contains(number)
            else { throw unparsable("the port \(portText) is not a number from 1 to 65535") }
            port = number
        }
        let writtenHost = authority.hasPrefix("[") ? "[\(host)]" : host
        hostHeader = port == defaultPort ? writtenHost : "\(writtenHost):\(port)"

        var path = rest[authorityEnd...]
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        let encoded = PercentEncoding.encodeUnsafeBytes(String(path))
        target = encoded.hasPrefix("/") ? encoded : "/" + encoded
    }
}
