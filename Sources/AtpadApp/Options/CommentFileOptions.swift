import ArgumentParser
import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// The saved comment that `render` and `mentions` read: FILE and the format it is in.
struct CommentFileOptions: ParsableArguments {
    @Argument(help: "The saved comment.")
    var file: String

    @Option(help: ArgumentHelp(
        "The file's own format: \(DocumentFormat.readableNames) (default: from the file's name — atpad for .atpad, json for a .json comment, the config's [formats], github for Markdown and git's messages, the config's format for .txt, else text).",
        valueName: "format"))
    var from: String?

    @OptionGroup var configFile: ConfigFileOption

    /// A comment as read: its document, and the directory lookup used (empty when no
    /// format involved needed one).
    struct Comment {
        var document: MarkedText
        var lookup: EntityLookup
        /// The format FILE was read in.
        var format: DocumentFormat
        /// What followed the part of FILE its format reads (a `json` file's final newline).
        var ending: [UInt8] = []
        /// The git file FILE is (a commit message), when it was asked for and FILE is one.
        var git: GitFile? = nil
        /// The Markdown parse kept for writing to the target (`DecodedDocument.markdown`).
        var markdown: ParsedMarkdown? = nil
    }

    /// The format FILE's name gives it (docs/formats.md, "Which format a file is in"), the
    /// config's `[formats]` and `format` included; the config is read only for this, when
    /// `--from` is not given.
    private func impliedFormat(contents: [UInt8]) throws -> DocumentFormat {
        do {
            let settings = try Config.load(path: configFile.config, environment: ProcessEnvironment.current()).config
            // `-` (stdin, where a command allows it) is a comment whose name says nothing.
            return settings.formatRule.format(of: file == "-" ? nil : file, contents: contents)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// Reads FILE and decodes it. The directory is loaded only when decoding, or encoding
    /// to `target`, asks it (so a broken directory does not matter otherwise). Notes from
    /// decoding (mentions left as text, invalid mentions dropped) go to stderr as one line.
    /// An output-only `--from` format (`matrix`), a missing, unreadable or non-UTF-8 file
    /// and a malformed `json` file are usage errors. With `allowsStandardInput`, FILE `-`
    /// is stdin. With `readingGit`, one of git's message files is read as git reads it,
    /// its comment lines and diff apart (docs/git.md), as the editor reads it. `lookup`,
    /// when given, is the directory's, already loaded. Without `sayingNotes`, the notes
    /// from decoding are not printed (`check`: a handle no one in the directory has is
    /// not a spelling matter).
    func read(directories: DirectoryOptions, encodingTo target: DocumentFormat? = nil,
              allowsStandardInput: Bool = false, readingGit: Bool = false, lookup given: EntityLookup? = nil,
              sayingNotes: Bool = true) throws -> Comment {
        let named = try from.map { try DocumentFormat(option: "--from", name: $0) }
        if let named, named.isOutputOnly {
            throw UsageError("--from: the \(named) format is output only; a file cannot be read in it")
        }
        let bytes: [UInt8]
        do {
            if allowsStandardInput && file == "-" {
                bytes = try DocumentFile.readStandardInput()
            } else {
                guard let contents = try DocumentFile.readBytes(file) else { throw UsageError("\(file): no such file") }
                bytes = contents
            }
        } catch let error as DocumentFile.Failure {
            throw UsageError(error.message)
        }
        let source = try named ?? impliedFormat(contents: bytes)
        let needsDirectory = source.decodingUsesDirectory || target?.encodingUsesDirectory == true
        let lookup = needsDirectory ? try given ?? directories.lookup(configFile: configFile) : .empty
        let git = readingGit && file != "-"
            ? GitSettings.file(path: file, bytes: bytes, environment: ProcessEnvironment.current()) : nil
        let decoded: DecodedDocument
        do {
            decoded = try source.decode(bytes: bytes, lookup: lookup, git: git, writingTo: target)
        } catch {
            throw UsageError("\(file): not in the \(source) format: \(error.message)")
        }
        if sayingNotes, !decoded.notes.isEmpty {
            StandardOutput.error("atpad: \(file): \(decoded.notes.joined(separator: "; "))")
        }
        return Comment(document: decoded.document, lookup: lookup, format: source, ending: decoded.ending, git: git,
                       markdown: decoded.markdown)
    }
}
