import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Answers queries with HTTP requests to a URL
/// (docs/directories.md, "Directory URLs: `--directory-url URL`" and "Connect your
/// directory").
///
/// `{query}` in the URL is replaced by the query, percent-encoded (``PercentEncoding``:
/// every byte but `A–Z a–z 0–9 - . _ ~`, so a space is `%20`), and in a `body` by the
/// query JSON-escaped. Without a ``EntityMapping`` the answer is a JSON array of entities;
/// with one, `items`, `map` and `exclude` say where the people are. With `next`, pages are
/// followed (``Request/next``) up to ``Request/maxPages``; each page is one batch, in the
/// server's order (duplicate ids after the first dropped, at most `limit` entities).
///
/// A failure — no connection, a status other than 2xx, an answer that is not what the
/// mapping expects, more than ``maximumAnswerLength`` bytes, or no whole answer (pages
/// included) within the timeout — is a ``SourceError`` naming the method and URL, never a
/// header. A query that goes stale closes its connection at once. Every request goes
/// through libcurl (``HTTPTransfer``), which honours the proxy variables.
public struct URLSource: EntitySource {
    /// How the requests are made, beyond the URL.
    public struct Request: Equatable, Sendable {
        /// `GET`, `POST`, …
        public var method: String
        /// A body template (`{query}` JSON-escaped inside it); nil sends none.
        public var body: String?
        /// Headers, their values resolved from the environment already.
        public var headers: [HTTPHeader]
        /// The path of the next page's URL or cursor in an answer.
        public var next: JSONPath?
        /// The most pages one query follows.
        public var maxPages: Int
        /// The query parameter (or, for a body, the member) that carries a cursor.
        public var cursorParam: String

        public init(method: String = SourceDefaults.method, body: String? = nil, headers: [HTTPHeader] = [], next: String? = nil,
                    maxPages: Int = SourceDefaults.maxPages, cursorParam: String = SourceDefaults.cursorParam) {
            self.method = method.uppercased()
            self.body = body
            self.headers = headers
            self.next = next.map(JSONPath.init)
            self.maxPages = maxPages
            self.cursorParam = cursorParam
        }
    }

    /// The URL with `{query}` where the query goes.
    public let template: String
    /// How long a query may take, from connecting to the end of the last page.
    public let timeout: Duration
    /// The most entities one query keeps.
    public let limit: Int
    /// Method, body, headers and paging.
    public let request: Request
    /// Where the people are in an answer.
    public let mapping: EntityMapping
    /// Where notes about skipped items go.
    public let notes: SourceNotes?

    /// The largest answer read for one page, in bytes (16 MiB).
    public static let maximumAnswerLength = 16 << 20

    /// A source requesting `template` for each query. Throws a ``SourceError`` when the
    /// template is not an `http://` or `https://` URL with a host.
    public init(template: String, timeout: Duration = SourceDefaults.timeout, limit: Int = SourceDefaults.limit, request: Request = Request(),
                mapping: EntityMapping? = nil, notes: SourceNotes? = nil) throws(SourceError) {
        _ = try RequestURL(Self.url(template, query: ""))
        self.template = template
        self.timeout = timeout
        self.limit = limit
        self.request = request
        self.mapping = mapping ?? EntityMapping.plain
        self.notes = notes
    }

    /// The URL requested for `query`.
    public func url(for query: String) -> String {
        Self.url(template, query: query)
    }

    private static func url(_ template: String, query: String) -> String {
        template.replacingEvery("{query}", with: PercentEncoding.encode(query))
    }

    /// The body sent for `query`: the template with `{query}` JSON-escaped.
    func body(for query: String) -> String? {
        request.body.map { $0.replacingEvery("{query}", with: String(JSONText.quote(query).dropFirst().dropLast())) }
    }

    /// Asks for `query`; see the type's documentation for the answer.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = self
        return answerOnWorkerThread(named: "atpad directory URL") { cancellation, yield in
            var seen = Set<String>()
            _ = try source.fetch(query: query, pages: source.request.maxPages, items: source.limit,
                                 deadline: ContinuousClock.now + source.timeout, timeout: source.timeout,
                                 cancellation: cancellation) { entities in
                var batch: [Candidate] = []
                for entity in entities where seen.count < source.limit && seen.insert(entity.id).inserted {
                    batch.append(Candidate(entity: entity))
                }
                yield(batch)
            }
        }
    }

    /// Why a fetch stopped before the last page.
    enum StoppedShort: Equatable {
        case pages(Int), items(Int)
    }

    /// Requests `query` and follows `next` for up to `pages` pages or until `items`
    /// entities were read, handing each page's entities to `yield`; returns why it stopped
    /// short, if it did (nil after the last page, or when cancelled).
    func fetch(query: String, pages: Int, items: Int, deadline: ContinuousClock.Instant, timeout: Duration,
               cancellation: Cancellation, yield: ([Entity]) -> Void) throws(SourceError) -> StoppedShort? {
        let firstURL = url(for: query)
        let origin = try RequestURL(firstURL)
        var page = HTTPRequest(method: request.method, url: firstURL, headers: request.headers,
                               body: body(for: query).map { Array($0.utf8) })
        var read = 0
        var incomplete = 0
        defer { if incomplete > 0 { notes?.say(EntityMapping.skippedNote(incomplete)) } }
        for number in 1 ... max(1, pages) {
            guard !cancellation.isCancelled else { return nil }
            guard let response = try HTTPTransfer.perform(page, deadline: deadline, timeout: timeout, cancellation: cancellation,
                                                          maximumBodyLength: Self.maximumAnswerLength) else { return nil }
            let fail = { (problem: String) in SourceError("\(page.method) \(page.url): \(problem)") }
            guard (200 ..< 300).contains(response.status) else { throw fail("HTTP \(response.status)") }
            guard !cancellation.isCancelled else { return nil }

            if mapping.isPlain && request.next == nil {
                // atpad's own shape, read strictly as a directory file is
                // (docs/directories.md, "Directory files").
                do {
                    let entities = try DirectoryFile.entities(fromJSON: response.body, path: page.url)
                    yield(Array(entities.prefix(items)))
                } catch let error as DirectoryError {
                    let place = error.line.map { "line \($0): " } ?? ""
                    throw fail("malformed answer, \(place)\(error.message)")
                } catch {
                    throw fail("malformed answer, \(error)")
                }
                return nil
            }

            let document: JSONValue
            let found: (entities: [Entity], incomplete: Int)
            do {
                document = try JSONDocument.parse(response.body)
                found = try mapping.entities(of: try mapping.items(of: document))
            } catch {
                throw fail("malformed answer, \(error.message)")
            }
            incomplete += found.incomplete
            let kept = Array(found.entities.prefix(items - read))
            read += kept.count
            yield(kept)

            guard let nextPath = request.next, case .text(let next)? = nextPath.lookup(in: document)?.scalarText() else {
                return nil
            }
            if read >= items { return .items(items) }
            if number == pages { return .pages(pages) }
            if next.lowercased().hasPrefix("http://") || next.lowercased().hasPrefix("https://") {
                let nextURL = try RequestURL(next)
                // A token goes only where it was meant to go
                // (docs/directories.md, "Connect your directory").
                let sameOrigin = nextURL.scheme == origin.scheme && nextURL.host.lowercased() == origin.host.lowercased()
                    && nextURL.port == origin.port
                page = HTTPRequest(method: request.method, url: next, headers: sameOrigin ? request.headers : [],
                                   body: page.body)
            } else if let body = page.body {
                let sent = try JSONDocument.parse(body)
                guard let withCursor = JSONDocument.text(of: sent, setting: request.cursorParam, to: next) else {
                    throw fail("the body is not a JSON object, so the cursor has no place in it")
                }
                page.body = Array(withCursor.utf8)
            } else {
                page.url = Self.url(firstURL, setting: request.cursorParam, to: next)
            }
        }
        return nil
    }

    /// `url` with the query parameter `name` set to `value` (percent-encoded), replacing
    /// one of that name.
    static func url(_ url: String, setting name: String, to value: String) -> String {
        let hash = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<hash]
        let parameter = PercentEncoding.encode(name) + "=" + PercentEncoding.encode(value)
        guard let question = base.firstIndex(of: "?") else { return base + "?" + parameter }
        let prefix = PercentEncoding.encode(name) + "="
        var parts = base[base.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(prefix) && $0 != Substring(PercentEncoding.encode(name)) }.map(String.init)
        parts.append(parameter)
        return base[...question] + parts.joined(separator: "&")
    }
}

extension URLSource: ListSource {
    /// The whole list: every page (up to `pages`), up to `items` entities, within `timeout`.
    func list(items: Int, timeout: Duration, cancellation: Cancellation) throws(SourceError) -> ListAnswer {
        var entities: [Entity] = []
        let deadline = ContinuousClock.now + timeout
        let stopped: StoppedShort?
        do {
            stopped = try fetch(query: "", pages: .max, items: items, deadline: deadline, timeout: timeout,
                                cancellation: cancellation) { entities += $0 }
        } catch {
            // Out of time after some pages: the pages read are the list, said to be short.
            // (libcurl's timeout is whole milliseconds, so it may end a little early.)
            guard !entities.isEmpty, ContinuousClock.now >= deadline - .milliseconds(100) else { throw error }
            return ListAnswer(entities: entities, stoppedShort: "\(entities.count) people read, \(error.message)")
        }
        return ListAnswer(entities: entities, stoppedShort: stopped.map { _ in "stopped at \(items) items" })
    }

    var listKey: String {
        // The headers' names but never their values: a token is no part of a file name.
        ["url", template, request.method, request.body ?? "", request.headers.map(\.name).joined(separator: ","),
         request.next?.text ?? "", request.cursorParam, mapping.key].joined(separator: "\u{1F}")
    }
}
