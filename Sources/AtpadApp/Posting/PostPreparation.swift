import AtpadCore
import AtpadDirectory
import FoundationEssentials
import Glibc

/// What the editor (`--to`) and `atpad post` share before a post: the target read from
/// the command line, the request made for the comment, the tool it runs checked, the
/// timeout. Everything here fails as a `UsageError` (exit 2), before anything is sent.
enum PostPreparation {
    /// How long a post waits for its answer without `--command-timeout` or the config's
    /// `command_timeout` (longer than a query's 5 seconds: a post is made once, not per key).
    static let defaultTimeout = Duration.seconds(10)

    /// `text` as a target; a bad one is a usage error naming the shapes.
    static func target(_ text: String) throws -> PostTarget {
        do {
            return try PostTarget(parsing: text)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// The timeout `--command-timeout` gives (seconds), else the config's
    /// `command_timeout`, else ``defaultTimeout``.
    static func timeout(_ seconds: Double?, config: Duration?) throws -> Duration {
        guard let seconds else { return config ?? defaultTimeout }
        guard seconds > 0, seconds.isFinite else { throw UsageError("--command-timeout must be more than 0 seconds") }
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }

    /// The request posting `document` (read in `format`, nil when made here) to `target`:
    /// the environment's variables read (a missing one named), the program it runs found
    /// in `PATH`. For `--dry-run` (`showOnly`) nothing needs to be there: a missing variable
    /// is shown as `${NAME}`, the program is not looked for.
    static func request(_ target: PostTarget, document: MarkedText, lookup: EntityLookup, from format: DocumentFormat?,
                        reusing parse: ParsedMarkdown? = nil,
                        environment: [String: String], showOnly: Bool = false) throws -> PostRequest {
        let request: PostRequest
        do {
            request = try PostRequest(target: target, document: document, lookup: lookup, from: format, reusing: parse,
                                      environment: environment,
                                      transactionID: freshTransactionID(), placeholders: showOnly)
        } catch {
            throw UsageError(error.message)
        }
        if !showOnly, let program = request.program, PostTransport.findProgram(program, environment: environment) == nil {
            throw UsageError("\(program) is not installed (or not in PATH); it posts to \(target.serviceName)")
        }
        return request
    }

    /// The variables a post reads: the process's environment, and for each variable it
    /// lacks, the config's `[post]` value with its `${NAME}`s filled from the environment
    /// (one that names an unset variable is left out, so the post names what is missing).
    static func environment(_ environment: [String: String], config: [String: String]?) -> [String: String] {
        var merged = environment
        for (name, template) in config ?? [:] where (environment[name] ?? "").isEmpty {
            if let value = try? DirectorySetup.resolve(template, header: name, environment) { merged[name] = value }
        }
        return merged
    }

    /// A Matrix transaction id no earlier post used: the time and a random part.
    static func freshTransactionID() -> String {
        let now = Date().timeIntervalSince1970
        return "atpad-\(Int(now * 1000))-\(String(UInt32.random(in: 0 ... .max), radix: 16))"
    }
}

/// What the runtime needs to post from the editor: the process's environment (the
/// tokens, read when the post is made, never stored in the model or a draft) and how long
/// to wait for an answer.
struct PostingContext: Sendable {
    var environment: [String: String]
    var timeout: Duration
}
