import ArgumentParser
import Dispatch
import FoundationEssentials
import AtpadTerminal
import Glibc
import Synchronization

/// The `atpad` command line: the editor and its subcommands.
public struct AtpadMain: AsyncParsableCommand {
    // Computed, so `--version` shows the commit the executable recorded at start.
    public static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "atpad",
        abstract: "A terminal editor for comments with @-mentions.",
        usage: """
            atpad [FILE] [options]        (the editor; `atpad --help` lists its options)
              atpad <subcommand> [options]
            """,
        version: AtpadVersion.string,
        subcommands: [EditCommand.self, ReplayCommand.self, SearchCommand.self, RenderCommand.self, MentionsCommand.self, CheckCommand.self, LSPCommand.self, PostCommand.self,
                      DraftsCommand.self, KeysCommand.self],
        defaultSubcommand: EditCommand.self
    ) }

    public init() {}

    /// Runs the command line and exits with its status. The editor runs on the calling
    /// (main) thread, which owns the terminal, without the async machinery, and so does
    /// every other command that does not await; the ones that do run in a task. `commit`
    /// is the git commit the executable was built from ("" when unknown).
    @MainActor
    public static func main(_ arguments: [String], commit: String = "") -> Never {
        AtpadVersion.commit.withLock { $0 = commit }
        if let help = rootHelp(arguments) {
            print(help)
            ProcessEnd.now(0)
        }
        let command: any ParsableCommand
        do {
            command = try parse(arguments)
        } catch {
            ProcessEnd.now(report(error))
        }
        if let edit = command as? EditCommand {
            do {
                ProcessEnd.now(try edit.runEditor())
            } catch {
                ProcessEnd.now(report(error))
            }
        }
        // A command that does not await (render, mentions, post, …) runs here too. On the
        // main thread its memory comes from the main heap, which grows in large steps; a
        // task's worker thread has a heap of its own, which grows by as little as each
        // allocation needs, one system call each: thousands for a 1 MB comment's Markdown.
        if !(command is any AsyncParsableCommand) {
            var command = command
            do {
                try command.run()
                ProcessEnd.now(0)
            } catch {
                ProcessEnd.now(report(error))
            }
        }
        // Parsed again in the task: a parsed command is not Sendable, the arguments are.
        Task { ProcessEnd.now(await run(arguments)) }
        dispatchMain()
    }

    /// Runs the command line and returns the exit status: 0 on success, 2 for usage,
    /// directory and input errors (one line on stderr naming the problem).
    public static func run(_ arguments: [String]) async -> Int32 {
        if let help = rootHelp(arguments) {
            print(help)
            return 0
        }
        do {
            var command = try parse(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    /// The command the arguments name. A line that names no subcommand is the editor's
    /// and is parsed as ``EditCommand`` straight away: entering at the default subcommand
    /// spares ArgumentParser the root's own passes over the editor's options (about a
    /// third of start-up's parse, BENCHMARKS.md). Whatever that does not parse — a
    /// mistake, `--version`, `--help`, a completion script — goes through the root, which
    /// answers as it always does.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        let first = arguments.first ?? ""
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if !names.contains(first) {
            do {
                return try EditCommand.parseAsRoot(arguments)
            } catch {
                // Said by the root below, in its words.
            }
        }
        return try parseAsRoot(arguments)
    }

    /// What `atpad --help`, `atpad -h` and a bare `atpad help` print, or nil for any other
    /// command line: the editor's usage, arguments and options first (what `atpad help
    /// edit` prints, its usage without the `edit`), then the subcommands. The editor is
    /// what people run, so its options (`-f`, `--print`, ...) come before the rest.
    /// `atpad help SUB`, `atpad SUB --help` and `--experimental-dump-help` are
    /// ArgumentParser's own.
    static func rootHelp(_ arguments: [String]) -> String? {
        guard arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] else { return nil }
        let edit = helpMessage(for: EditCommand.self)
        let root = helpMessage()
        var out = ["OVERVIEW: " + configuration.abstract,
                   "USAGE: atpad [<options>] [<file>]        (the editor, the default command)\n"
                       + "       atpad <subcommand> [<options>]"]
        // The editor's ARGUMENTS and OPTIONS sections (its OVERVIEW and USAGE are replaced).
        out += edit.components(separatedBy: "\n\n")
            .filter { !$0.hasPrefix("OVERVIEW:") && !$0.hasPrefix("USAGE:") }
            .map(withoutOuterNewlines).filter { !$0.isEmpty }
        if let range = root.firstRange(of: "SUBCOMMANDS:") {
            out.append(withoutOuterNewlines(root[range.lowerBound...]))
        }
        return out.joined(separator: "\n\n")
    }

    /// `text` without the line breaks at either end (a help section's own).
    private static func withoutOuterNewlines(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !$0.isNewline }), let last = text.lastIndex(where: { !$0.isNewline }) else {
            return ""
        }
        return String(text[first ... last])
    }

    /// Prints what ended a command (help and `--version` to stdout, problems as one line
    /// on stderr) and returns the exit status.
    private static func report(_ error: any Error) -> Int32 {
        if let error = error as? UsageError {
            StandardOutput.error("atpad: \(error.message)")
            return 2
        }
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        if !message.isEmpty { StandardOutput.error(message) }
        return code == .validationFailure ? 2 : code.rawValue
    }
}

/// A problem with what the person asked for: printed as one line, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// atpad's version, and the git commit the running executable was built from.
public enum AtpadVersion {
    /// The release number; `scripts/package-deb` reads it from `atpad --version`.
    public static let number = "0.1.0"
    /// Set once by the executable (its build records it); empty when unknown.
    static let commit = Mutex("")

    /// What `atpad --version` prints: `atpad 0.1.0 (commit 093747f1a2b3)`.
    public static var string: String {
        let commit = Self.commit.withLock { $0 }
        return "atpad \(number) (commit \(commit.isEmpty ? "unknown" : commit))"
    }
}
