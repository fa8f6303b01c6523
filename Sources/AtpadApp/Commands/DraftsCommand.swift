import ArgumentParser
import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// `atpad drafts`: the recovery drafts (docs/drafts.md, "`atpad drafts`"), listed, shown or
/// deleted by name, for the person who wants a comment back that no editor offers any more
/// (an unnamed one older than a day, one left for later, a file's draft when the file is
/// gone).
struct DraftsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drafts",
        abstract: "List the recovery drafts, newest first (name, file or (unnamed), when, size, first line).",
        subcommands: [List.self, Show.self, Delete.self],
        defaultSubcommand: List.self
    )

    /// The drafts folder, or a usage error when there is no home folder to find it in.
    static func store() throws -> DraftStore {
        guard let store = DraftStore(environment: ProcessEnvironment.current()) else {
            throw UsageError("no drafts folder: neither XDG_STATE_HOME nor a home folder is set")
        }
        return store
    }

    /// `atpad drafts` (and `atpad drafts list`).
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the recovery drafts, newest first.")

        func run() throws {
            let lines = try DraftsCommand.store().allDrafts().map(DraftsCommand.line)
            try StandardOutput.writeAll(Array(lines.map { $0 + "\n" }.joined().utf8))
        }
    }

    /// `atpad drafts show NAME`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a draft in atpad markup (adding no newline).")

        @Argument(help: "The draft's name, as `atpad drafts` lists it.")
        var name: String

        func run() throws {
            let draft = try DraftsCommand.store().draft(named: name)
            // A whole draft is printed as stored; a damaged one as the plain text it reads as.
            let markup = draft.markup ?? Array(AtpadMarkup.encode(draft.document).utf8)
            try StandardOutput.writeAll(markup)
        }
    }

    /// `atpad drafts delete NAME`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Remove a draft (not one whose atpad is still running: exit status 1).")

        @Argument(help: "The draft's name, as `atpad drafts` lists it.")
        var name: String

        func run() throws {
            let store = try DraftsCommand.store()
            let draft = try store.draft(named: name)
            // A running atpad's draft is its only copy of unsaved typing (docs/drafts.md), and it
            // would write it again anyway; refusing is an answer about now (status 1),
            // not a mistake in the command (status 2).
            if let pid = draft.writerPID, DraftStore.isRunning(pid) {
                StandardOutput.error("atpad: draft \(SearchCommand.visible(name)) belongs to a running atpad (pid \(pid)); not deleted")
                throw ExitCode(1)
            }
            do {
                try store.remove(draftAt: draft.path)
            } catch {
                throw UsageError(error.message)
            }
        }
    }

    /// One line of the list, tab-separated so scripts can cut it: name, the file or
    /// `(unnamed)`, the UTC time it was written, its size, its first line. Control
    /// characters in any field are shown as visible escapes (a tab too, so the columns
    /// hold), never sent raw to the terminal.
    static func line(_ draft: Draft) -> String {
        let name = PathName.name(of: draft.path)
        let text = draft.document.text
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? ""
        let size = draft.markup?.count ?? AtpadMarkup.encode(draft.document).utf8.count
        let fields = [name, draft.originalPath ?? "(unnamed)", UTCTimestamp.readable(draft.written ?? draft.modified),
                      "\(size) bytes", firstLine]
        return fields.map(SearchCommand.visible).joined(separator: "\t")
    }
}

extension DraftStore {
    /// Every draft in the folder (named, unnamed and kept aside), newest first; none when
    /// the folder does not exist yet. Temporary files of a write in progress are skipped.
    func allDrafts() -> [Draft] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".draft") && !$0.hasPrefix(".") }
            .compactMap { read(draftAt: folder + "/" + $0) }
            .sorted { ($0.modified, $0.path) > ($1.modified, $1.path) }
    }

    /// The draft called `name` in the folder; a usage error (status 2) when there is none.
    /// Only a bare name is looked up, so `drafts delete ../x` never reaches outside.
    func draft(named name: String) throws -> Draft {
        let plain = !name.isEmpty && !name.contains("/") && name != "." && name != ".."
        guard plain, let draft = read(draftAt: folder + "/" + name) else {
            throw UsageError("no draft named \(SearchCommand.visible(name)) (atpad drafts lists them)")
        }
        return draft
    }
}
