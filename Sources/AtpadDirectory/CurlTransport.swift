import Foundation

/// Fetches an `https://` URL by running `curl`, through the same process machinery as
/// ``CommandSource`` (own process group, deadline, killed when the query goes stale).
///
/// TLS is the one thing the built-in ``HTTPClient`` does not do; linking
/// FoundationNetworking for it would load libcurl and some thirty libraries at every start
/// of atpad, while most people never use a URL source. `curl` is on nearly every system and
/// gets proxies (`https_proxy`), certificates and HTTP/2 right. It is run as
/// `curl -q --silent --show-error --globoff --proto =http,https --max-time T
/// --max-filesize N -H 'Accept: application/json' --write-out '\n%{http_code}' URL`:
/// no `~/.curlrc`, no URL globbing, no redirects followed, and the status printed after
/// the body so that a non-2xx answer is reported like the built-in client's.
enum CurlTransport {
    /// GETs `url`; nil when cancelled. Failures are ``SourceError``s naming the URL.
    static func get(
        _ url: RequestURL,
        deadline: ContinuousClock.Instant,
        timeout: Duration,
        cancellation: Cancellation,
        maximumBodyLength: Int
    ) throws(SourceError) -> HTTPResponseParser.Response? {
        let fail = { (problem: String) in SourceError("GET \(url.text): \(problem)") }
        let timedOut = fail("timed out after \(SourceError.seconds(timeout))")
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw timedOut }

        let child: ChildProcess
        do {
            child = try ChildProcess(
                arguments: [
                    "curl", "-q", "--silent", "--show-error", "--globoff", "--proto", "=http,https",
                    "--max-time", SourceError.decimalSeconds(left),
                    "--max-filesize", String(maximumBodyLength),
                    "--header", "Accept: application/json", "--user-agent", "atpad",
                    "--write-out", "\n%{http_code}", url.text,
                ],
                // curl reads proxy settings from the environment.
                environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" },
                searchPath: true
            )
        } catch {
            throw fail("https needs curl, which could not be run (\(error.message.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""))")
        }
        defer { child.terminateGroup() }

        // curl enforces the timeout itself and says so; this later deadline only catches a
        // curl that does not.
        let backstop = deadline + .milliseconds(500)
        var output: [UInt8] = []
        var tooLarge = false
        let end = child.readOutput(until: backstop, cancellation: cancellation) { piece in
            output.append(contentsOf: piece)
            tooLarge = output.count > maximumBodyLength + 16
            return !tooLarge
        }
        switch end {
        case .cancelled: return nil
        case .timedOut: throw timedOut
        case .stopped: throw fail("the answer is larger than \(maximumBodyLength >> 20) MB")
        case .endOfOutput: break
        }
        switch child.waitForExit(until: backstop, cancellation: cancellation) {
        case .cancelled:
            return nil
        case .timedOut, .exited(.exited(28)):  // 28: curl's "operation timed out"
            throw timedOut
        case .exited(.exited(63)):  // 63: curl's "maximum file size exceeded"
            throw fail("the answer is larger than \(maximumBodyLength >> 20) MB")
        case .exited(.exited(0)):
            break
        case .exited(let how):
            throw fail(curlProblem(child.lastErrorLine) ?? "curl \(how.phrase)")
        }

        // The body, then the line feed and status code that --write-out added.
        guard let feed = output.lastIndex(of: 0x0A),
              let status = Int(String(decoding: output[(feed + 1)...], as: UTF8.self))
        else { throw fail("curl printed no status") }
        return HTTPResponseParser.Response(status: status, body: Array(output[..<feed]))
    }

    /// curl's error line without its `curl: (7) ` prefix.
    private static func curlProblem(_ line: String?) -> String? {
        guard let line else { return nil }
        var text = line[...]
        if text.hasPrefix("curl: ") { text = text.dropFirst(6) }
        if text.hasPrefix("("), let close = text.firstIndex(of: ")") {
            text = text[text.index(after: close)...].drop { $0 == " " }
        }
        return text.isEmpty ? nil : String(text)
    }
}
