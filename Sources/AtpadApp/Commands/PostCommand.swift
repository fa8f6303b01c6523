import ArgumentParser
import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

/// `atpad post TARGET FILE|-`: posts a saved comment
/// (docs/posting.md, "Without the editor"). The result (the comment's URL or id) goes to
/// stdout, exit 0; a failed post is one line on stderr, exit 1; a bad target, a missing
/// variable or tool, exit 2. `--dry-run` prints the request instead.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Post a saved comment to GitHub, GitLab, Slack, Jira, Zulip or Matrix; its URL or id to stdout.",
        discussion: """
            FILE is read in the format its name gives (- reads stdin, as a file without an extension). Targets: github:OWNER/REPO#N (through gh), gitlab:GROUP/PROJECT#N or !N (through glab), \
            slack:CHANNEL[/THREAD_TS] (SLACK_TOKEN), jira:KEY-123 (JIRA_URL, JIRA_USER, JIRA_TOKEN), \
            zulip:STREAM/TOPIC (ZULIP_SITE, ZULIP_EMAIL, ZULIP_API_KEY), matrix:ROOM_ID (MATRIX_HOMESERVER, \
            MATRIX_TOKEN). Exit status: 0 posted, 1 not posted (or no answer: it may or may not have been \
            posted), 2 a bad target or a missing variable or tool.
            """
    )

    @Flag(help: "Print the request that would be sent (the method and URL, or the gh/glab arguments; the headers with secrets as ***; the exact body) and send nothing. Needs no token, tool or network: a missing variable is shown as ${NAME}.")
    var dryRun = false

    @Argument(help: ArgumentHelp("Where to post: \(PostTarget.shapes).", valueName: "target"))
    var target: String

    @OptionGroup var input: CommentFileOptions

    @OptionGroup var directories: DirectoryOptions

    func run() throws {
        let target = try PostPreparation.target(target)
        let comment = try input.read(directories: directories, encodingTo: target.format, allowsStandardInput: true)
        if comment.document.text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            StandardOutput.error("atpad: Not posted to \(target): the comment is empty")
            throw ExitCode(1)
        }
        let processEnvironment = ProcessEnvironment.current()
        let config: Config
        do {
            config = try Config.load(path: input.configFile.config, environment: processEnvironment).config
        } catch {
            throw UsageError(error.description)
        }
        let timeout = try PostPreparation.timeout(directories.commandTimeout, config: config.commandTimeout)
        let environment = PostPreparation.environment(processEnvironment, config: config.post)
        let request = try PostPreparation.request(target, document: comment.document, lookup: comment.lookup, from: comment.format,
                                                  reusing: comment.markdown, environment: environment, showOnly: dryRun)
        // Who the post will not notify (a person with accounts, none on this service):
        // one line, as `render` says it (docs/people.md, "One person, many accounts").
        if let note = comment.lookup.missingAccountNote(in: comment.document, format: target.format) {
            StandardOutput.error("atpad: \(input.file): \(note)")
        }
        if dryRun {
            try StandardOutput.writeAll(request.dryRun + [0x0A])
            return
        }
        let outcome = request.outcome(of: PostTransport.perform(request, timeout: timeout, environment: environment))
        switch outcome {
        case let .posted(result):
            try StandardOutput.writeAll(Array((result + "\n").utf8))
        case .failed, .unknown:
            StandardOutput.error("atpad: \(outcome.message ?? "not posted")")
            throw ExitCode(1)
        }
    }
}
