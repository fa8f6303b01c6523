import AtpadCore
import Foundation

/// Answers queries with an HTTP GET whose answer is a JSON array of entities (SPEC §8
/// `--directory-url`).
///
/// `{query}` in the template is replaced by the query, percent-encoded (``PercentEncoding``:
/// every byte but `A–Z a–z 0–9 - . _ ~`, so a space is `%20`); every occurrence is
/// replaced. The answer is one batch, in the server's order (duplicate ids after the first
/// dropped, at most `limit` entities), then the end. A failure — no connection, a status
/// other than 2xx, a body that is not a JSON array of entities, more than
/// ``maximumAnswerLength`` bytes, or no answer within the timeout — is a ``SourceError``
/// naming the URL. A query that goes stale closes its connection at once.
///
/// `http://` URLs are fetched by a small built-in HTTP/1.1 client; `https://` ones by
/// running `curl` (see ``CurlTransport``), which must then be installed.
public struct URLSource: EntitySource {
    /// How `http://` URLs are fetched (tests run the curl path against a local server).
    enum Transport: Sendable {
        case builtIn, curl
    }

    /// The URL with `{query}` where the query goes.
    public let template: String
    /// How long a query may take, from connecting to the end of the answer.
    public let timeout: Duration
    /// The most entities one query keeps.
    public let limit: Int
    let httpTransport: Transport

    /// The largest answer read, in bytes (16 MiB).
    public static let maximumAnswerLength = 16 << 20

    /// A source GETting `template` for each query. Throws a ``SourceError`` when the
    /// template is not an `http://` or `https://` URL with a host.
    public init(template: String, timeout: Duration = .seconds(5), limit: Int = 50) throws(SourceError) {
        try self.init(template: template, timeout: timeout, limit: limit, httpTransport: .builtIn)
    }

    init(template: String, timeout: Duration, limit: Int, httpTransport: Transport) throws(SourceError) {
        _ = try RequestURL(Self.url(template, query: ""))
        self.template = template
        self.timeout = timeout
        self.limit = limit
        self.httpTransport = httpTransport
    }

    /// The URL requested for `query`.
    public func url(for query: String) -> String {
        Self.url(template, query: query)
    }

    private static func url(_ template: String, query: String) -> String {
        template.replacingOccurrences(of: "{query}", with: PercentEncoding.encode(query))
    }

    /// GETs the URL for `query`; see the type's documentation for the answer.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = self
        return answerOnWorkerThread(named: "atpad directory URL") { cancellation, yield in
            try source.run(query: query, cancellation: cancellation, yield: yield)
        }
    }

    // MARK: - One query, on the worker thread

    private func run(query: String, cancellation: Cancellation, yield: ([Candidate]) -> Void) throws(SourceError) {
        guard !cancellation.isCancelled else { return }
        let url = try RequestURL(url(for: query))
        let deadline = ContinuousClock.now + timeout

        let response: HTTPResponseParser.Response
        if url.scheme == .http, httpTransport == .builtIn {
            let outcome = try HTTPClient.get(
                url, deadline: deadline, timeout: timeout, cancellation: cancellation,
                maximumBodyLength: Self.maximumAnswerLength
            )
            guard case .response(let answer) = outcome else { return }
            response = answer
        } else {
            guard let answer = try CurlTransport.get(
                url, deadline: deadline, timeout: timeout, cancellation: cancellation,
                maximumBodyLength: Self.maximumAnswerLength
            ) else { return }
            response = answer
        }
        guard !cancellation.isCancelled else { return }
        guard (200 ..< 300).contains(response.status) else {
            throw SourceError("GET \(url.text): HTTP \(response.status)")
        }

        let entities: [Entity]
        do {
            entities = try DirectoryFile.entities(fromJSON: response.body, path: url.text)
        } catch let error as DirectoryError {
            let place = error.line.map { "line \($0): " } ?? ""
            throw SourceError("GET \(url.text): malformed answer, \(place)\(error.message)")
        } catch {
            throw SourceError("GET \(url.text): malformed answer, \(error)")
        }
        var seen = Set<String>()
        var batch: [Candidate] = []
        for entity in entities where seen.insert(entity.id).inserted {
            guard batch.count < limit else { break }
            batch.append(Candidate(entity: entity))
        }
        yield(batch)
    }
}
