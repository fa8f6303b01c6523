import AtpadCore
import AtpadDirectory
import FoundationEssentials
import Glibc

/// Which conversation's participants rank first in the `@` chooser, and the fetch that
/// gets them: `--to TARGET`'s, else, with the `github` preset serving `@`, the pull
/// request of the checkout's branch (`gh pr view`). The editor and `atpad search` share
/// it; the fetch runs on a thread of its own, so nothing waits for it but `search`.
enum ParticipantsSetup {
    /// Where the conversation is, as far as the command line and the config say.
    enum Conversation: Equatable {
        case target(PostTarget)
        /// The pull request of the current branch, asked of `gh` when the fetch starts.
        case currentPullRequest

        /// The service whose people the conversation has.
        var service: Service {
            switch self {
            case let .target(target): target.format.service ?? .github
            case .currentPullRequest: .github
            }
        }
    }

    /// The conversation for `--to` (`target`) and the `@` trigger's `preset`, if any.
    static func conversation(target: PostTarget?, preset: String?) -> Conversation? {
        if let target { return .target(target) }
        return preset == Preset.github.rawValue ? .currentPullRequest : nil
    }

    /// The arguments that ask gh for the current branch's pull request.
    static let pullRequestArguments = ["gh", "pr", "view", "--json", "number,url"]

    /// Starts fetching the participants of `conversation` (each call within `timeout`)
    /// and puts them first in `sources["@"]`. Returns the fetch, for the runtime to watch.
    /// The current pull request is the one of the branch checked out in `folder` (the
    /// working directory when nil).
    static func start(_ conversation: Conversation, sources: inout [Unicode.Scalar: any EntitySource], limit: Int,
                      timeout: Duration, environment: [String: String], folder: String? = nil) -> ConversationPeople? {
        guard let source = sources["@"] else { return nil }
        let list = ParticipantList(limit: limit)
        let people = ConversationPeople(list: list, directory: source, service: conversation.service, fetch: {
            let target: PostTarget
            switch conversation {
            case let .target(given):
                target = given
            case .currentPullRequest:
                // No pull request for this branch (or no checkout, or no gh) is no failure:
                // there is just no conversation, and ranking is as usual.
                guard let found = pullRequest(timeout: timeout, environment: environment, folder: folder) else {
                    return .success([])
                }
                target = found
            }
            let request: ParticipantsRequest
            do {
                request = try ParticipantsRequest(target: target, environment: environment)
            } catch {
                return .failure(PostError(.failed, "participants of \(target) not loaded: \(error)"))
            }
            return ConversationPeople.fetch(request, timeout: timeout, environment: environment)
        }, name: { ids in
            // Only a target's service gives people by id alone (Slack): a pull request's
            // people come with their names.
            guard case let .target(target) = conversation,
                  let request = try? ParticipantsRequest(target: target, environment: environment) else { return ([], nil) }
            return ConversationPeople.name(ids, through: request, timeout: timeout, environment: environment)
        })
        sources["@"] = ParticipantsFirstSource(participants: list, source: source)
        return people
    }

    /// The pull request of the checkout's current branch, from `gh pr view --json
    /// number,url` (its URL names the repository), or nil when there is none.
    /// In `folder`, when given (a language server's workspace): gh is started there.
    static func pullRequest(timeout: Duration, environment: [String: String], folder: String? = nil) -> PostTarget? {
        guard PostTransport.findProgram("gh", environment: environment) != nil else { return nil }
        // `sh` changes folder and hands over to gh, which gets exactly its own arguments.
        let arguments = folder.map { ["sh", "-c", #"cd -- "$0" && exec "$@""#, $0] + pullRequestArguments }
            ?? pullRequestArguments
        let reply = PostTransport.perform(.program(arguments: arguments, stdin: []), timeout: timeout,
                                          environment: environment)
        guard case let .program(0?, output, _) = reply else { return nil }
        return pullRequest(fromAnswer: output)
    }

    /// Reads gh's `{"number": 12, "url": "https://github.com/OWNER/REPO/pull/12"}`.
    static func pullRequest(fromAnswer output: [UInt8]) -> PostTarget? {
        guard let value = output.withUnsafeBufferPointer({ try? JSONReader.value(of: $0) }),
              case let .object(members) = value.kind,
              case let .string(url)? = members.first(where: { $0.key == "url" })?.value.kind else { return nil }
        // https://github.com/OWNER/REPO/pull/N (or a GitHub Enterprise host).
        let parts = url.split(separator: "/")
        guard parts.count >= 6, parts[parts.count - 2] == "pull" else { return nil }
        let text = "github:\(parts[parts.count - 4])/\(parts[parts.count - 3])#\(parts[parts.count - 1])"
        return try? PostTarget(parsing: text)
    }
}
