import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Performs a ``PostRequest``: its HTTP request through the one libcurl stack
/// (``HTTPTransfer``), or its `gh`/`glab` command line as a ``ChildProcess`` with the body
/// on stdin. It only sends and collects; what the reply means is
/// ``PostRequest/outcome(of:)``'s to say. Nothing here retries: a post that got no answer
/// may have arrived, and a second one would be a duplicate comment.
public enum PostTransport {
    /// The largest answer read (a comment's JSON is a few kilobytes).
    static let maximumAnswer = 4 << 20

    /// Sends `request` and waits up to `timeout` for the reply. Blocks the calling thread.
    /// A target given by name (a Matrix alias, a Slack `#channel`) is looked up first
    /// (``PostRequest/lookup``, page by page); when that fails, nothing is posted and the
    /// reply says why. One timeout covers the lookup and the post.
    public static func perform(_ request: PostRequest, timeout: Duration, environment: [String: String]) -> PostReply {
        guard var lookup = request.lookup else { return perform(request.action, timeout: timeout, environment: environment) }
        let deadline = ContinuousClock.now + timeout
        // Slack gives 1,000 channels a page: 50 pages is more than any workspace a token sees.
        for _ in 0 ..< 50 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            switch request.resolving(perform(lookup, timeout: left, environment: environment), of: lookup) {
            case let .post(resolved):
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                return perform(resolved.action, timeout: left, environment: environment)
            case let .next(page):
                lookup = page
            case let .failed(error):
                return .lookupFailed(error.message)
            }
        }
        return .notSent(reason: "looking up \(request.target.namedPlace ?? "the target") took the whole \(SourceError.seconds(timeout))")
    }

    /// Sends `action` (a post's, or a participants call's) and waits up to `timeout` for
    /// the reply. Blocks the calling thread.
    public static func perform(_ action: PostRequest.Action, timeout: Duration, environment: [String: String]) -> PostReply {
        let deadline = ContinuousClock.now + timeout
        let cancellation: Cancellation
        do {
            cancellation = try Cancellation()
        } catch {
            return .notSent(reason: error.message)
        }
        switch action {
        case let .http(method, url, headers, body):
            // A GET (the participants' calls) sends no body: with one, libcurl would POST.
            let http = HTTPRequest(method: method, url: url,
                                   headers: headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                                   body: method == "GET" && body.isEmpty ? nil : body)
            do {
                guard let response = try HTTPTransfer.transfer(http, deadline: deadline, timeout: timeout,
                                                               cancellation: cancellation, maximumBodyLength: maximumAnswer) else {
                    return .notSent(reason: "cancelled")
                }
                return .http(status: response.status, retryAfter: response.retryAfter, body: response.body)
            } catch {
                // The message without its `METHOD URL: ` start: the target is named already.
                var reason = error.error.message
                if let range = reason.firstRange(of: "\(method) \(url): ") { reason.removeSubrange(range) }
                return error.mayHaveArrived ? .noAnswer(reason: reason) : .notSent(reason: reason)
            }
        case let .program(arguments, stdin):
            let tool = arguments[0]
            guard findProgram(tool, environment: environment) != nil else {
                return .notSent(reason: "\(tool) is not installed (or not in PATH)")
            }
            let child: ChildProcess
            do {
                child = try ChildProcess(arguments: arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                                         searchPath: true, standardInput: stdin)
            } catch {
                return .notSent(reason: error.message)
            }
            var output: [UInt8] = []
            let end = child.readOutput(until: deadline, cancellation: cancellation) { piece in
                output.append(contentsOf: piece)
                return output.count <= maximumAnswer
            }
            let seconds = SourceError.seconds(timeout)
            guard end == .endOfOutput else {
                child.terminateGroup()
                return .noAnswer(reason: "\(tool) did not finish within \(seconds)")
            }
            switch child.waitForExit(until: deadline, cancellation: cancellation) {
            case .exited(.exited(let status)):
                let line = child.lastErrorLine
                child.terminateGroup(grace: .zero)
                return .program(status: status, output: output, errorLine: line)
            case .exited(.signalled):
                let line = child.lastErrorLine
                child.terminateGroup(grace: .zero)
                return .program(status: nil, output: output, errorLine: line)
            case .cancelled, .timedOut:
                child.terminateGroup()
                return .noAnswer(reason: "\(tool) did not finish within \(seconds)")
            }
        }
    }

    /// The path of program `name` in `PATH` (or `name` itself when it has a slash and can
    /// be run), or nil.
    public static func findProgram(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
