import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Answers queries by running a shell command that prints one JSON entity per line, as it
/// finds them (docs/directories.md, "Directory commands: `--directory-command CMD`").
///
/// Each query runs `/bin/sh -c COMMAND sh QUERY`: the query is `$1` (never pasted into the
/// command text, so no quoting can go wrong) and the environment also has `ATPAD_QUERY`
/// and `ATPAD_TRIGGER`. The command runs in a process group of its own with stdin from
/// `/dev/null`; its stderr is read, and its last line is added to a failure message.
///
/// The answer: each piece of output read becomes one batch of the entities on the lines it
/// completes, in the order printed (blank lines are skipped, duplicate ids after the first
/// are dropped); end of output and exit status 0 end the answer. A failure — a non-zero
/// exit, death by a signal, a line that is not a JSON entity or not UTF-8, a line longer
/// than ``maximumLineLength``, more than ``maximumOutputLength`` bytes of output, or no end
/// within the timeout — ends it with a ``SourceError``, after the batches already given.
/// After `limit` entities the answer ends normally and the command is stopped: like a
/// directory file, a source keeps at most that many results per query.
///
/// Whenever the answer ends — finished, failed, or cancelled because the query went stale
/// — the command's process group is ended (SIGTERM, then SIGKILL 100 ms later for anything
/// left) and the command is reaped. A process that leaves the group (`setsid`) is not
/// followed.
///
/// With an ``EntityMapping`` (docs/directories.md, "Connect your directory") each line is
/// any JSON object, mapped; with its `items` set, or with an ``Output/ldif`` answer, the
/// whole output is one document read once the command has ended, and is one batch.
public struct CommandSource: EntitySource {
    /// What the command prints.
    public enum Output: Sendable, Equatable {
        /// JSON: one item per line, or one document when the mapping has `items`.
        case json
        /// LDIF (`ldapsearch -LLL`): each entry is an item whose keys are its attributes.
        case ldif
    }
    /// The shell command, run with `/bin/sh -c`.
    public let command: String
    /// How long a query may take from start to exit before it fails.
    public let timeout: Duration
    /// The most entities one query keeps.
    public let limit: Int
    /// Where the people are in the output.
    public let mapping: EntityMapping
    /// JSON or LDIF.
    public let output: Output
    /// Extra environment for the command (a preset's settings), over atpad's own.
    public let extraEnvironment: [String: String]
    /// Where notes about skipped items go.
    public let notes: SourceNotes?
    /// The command that prints the whole list (``ListSource``, for a cache), when it is not
    /// `command` asked with an empty query (a preset's, which pages through everything).
    public let listCommand: String?

    /// The longest line accepted from a command, in bytes (1 MiB).
    public static let maximumLineLength = 1 << 20
    /// The most output read from a command for one query, in bytes (4 MiB: far more than
    /// `limit` entities need; it stops a command that prints blank lines or one entity forever).
    public static let maximumOutputLength = 4 << 20

    /// A source running `command` for each query, failing a query that takes longer than
    /// `timeout`, keeping at most `limit` entities per query.
    public init(command: String, timeout: Duration = SourceDefaults.timeout, limit: Int = SourceDefaults.limit, mapping: EntityMapping = .plain,
                output: Output = .json, environment: [String: String] = [:], notes: SourceNotes? = nil,
                listCommand: String? = nil) {
        self.listCommand = listCommand
        self.command = command
        self.timeout = timeout
        self.limit = limit
        self.mapping = mapping
        self.output = output
        self.extraEnvironment = environment
        self.notes = notes
    }

    /// Whether the output is read as one document rather than line by line.
    var readsWholeOutput: Bool { mapping.items != nil || output == .ldif }

    /// Runs the command for `query`; see the type's documentation for the answer.
    public func search(_ query: String, trigger: Unicode.Scalar) -> AsyncThrowingStream<[Candidate], any Error> {
        let source = self
        return answerOnWorkerThread(named: "atpad directory command") { cancellation, yield in
            try source.run(query: query, trigger: trigger, limit: source.limit, deadline: ContinuousClock.now + source.timeout,
                           cancellation: cancellation, yield: yield)
        }
    }

    /// The environment of the command for one query: atpad's own, plus the query and trigger.
    func environment(query: String, trigger: Unicode.Scalar, listItems: Int? = nil) -> [String] {
        var variables = ProcessEnvironment.current()
        variables.merge(extraEnvironment) { _, preset in preset }
        // A list command may stop paging once it has printed this many (the rest is not read).
        if let listItems { variables["ATPAD_LIST_ITEMS"] = String(listItems) }
        variables["ATPAD_QUERY"] = query
        variables["ATPAD_TRIGGER"] = String(trigger)
        return variables.map { "\($0.key)=\($0.value)" }
    }

    // MARK: - One query, on the worker thread

    private func run(
        query: String,
        trigger: Unicode.Scalar,
        limit: Int,
        deadline: ContinuousClock.Instant,
        maximumOutput: Int = CommandSource.maximumOutputLength,
        asking command: String? = nil,
        listItems: Int? = nil,
        cancellation: Cancellation,
        yield: ([Candidate]) -> Void
    ) throws(SourceError) {
        guard !cancellation.isCancelled else { return }
        let child = try ChildProcess(
            arguments: ["/bin/sh", "-c", command ?? self.command, "sh", query],
            environment: environment(query: query, trigger: trigger, listItems: listItems)
        )
        // Whatever happens next, the group is ended and the shell reaped before the answer ends.
        defer { child.terminateGroup() }

        var lines = LineBuffer(maximumLength: Self.maximumLineLength)
        var reader = EntityLines(limit: limit, mapping: mapping)
        var outputLength = 0
        var failure: SourceError?
        var whole: [UInt8] = []
        let readsWhole = readsWholeOutput
        defer { if reader.incomplete > 0 { notes?.say(EntityMapping.skippedNote(reader.incomplete)) } }

        let end = child.readOutput(until: deadline, cancellation: cancellation) { piece in
            outputLength += piece.count
            guard outputLength <= maximumOutput else {
                failure = SourceError("directory command printed more than \(maximumOutput >> 20) MB")
                return false
            }
            if readsWhole {
                whole.append(contentsOf: piece)
                return true
            }
            lines.append(piece)
            var batch: [Candidate] = []
            do {
                while reader.wantsMore, let line = try lines.nextLine() {
                    if let entity = try reader.entity(fromLine: line, number: lines.linesRead) {
                        batch.append(Candidate(entity: entity))
                    }
                }
            } catch {
                failure = Self.describe(error)
            }
            // Entities printed before a bad line are part of the answer too.
            if !batch.isEmpty { yield(batch) }
            return failure == nil && reader.wantsMore
        }

        switch end {
        case .cancelled:
            return
        case .timedOut:
            throw timedOut()
        case .stopped:
            if let failure { throw failure }
            return  // the limit was reached
        case .endOfOutput:
            break
        }

        switch child.waitForExit(until: deadline, cancellation: cancellation) {
        case .cancelled:
            return
        case .timedOut:
            throw timedOut()
        case .exited(.exited(0)):
            break
        case .exited(let how):
            throw failed(how.phrase, child)
        }

        if readsWhole {
            let entities = try wholeOutput(whole, reader: &reader)
            yield(entities.map { Candidate(entity: $0) })
            return
        }

        // The last line may lack its line feed.
        do {
            if reader.wantsMore, let line = try lines.finish(),
               let entity = try reader.entity(fromLine: line, number: lines.linesRead) {
                yield([Candidate(entity: entity)])
            }
        } catch {
            throw Self.describe(error)
        }
        // An answer with nothing in it is one empty batch (EntitySource).
        if reader.count == 0 { yield([]) }
    }

    /// The entities of the whole output, read as one JSON document or as LDIF.
    private func wholeOutput(_ bytes: [UInt8], reader: inout EntityLines) throws(SourceError) -> [Entity] {
        do {
            let document: JSONValue
            switch output {
            case .json: document = try JSONDocument.parse(bytes)
            case .ldif: document = try JSONDocument.parse(Array(try LDIF.jsonText(of: bytes).utf8))
            }
            let found = try mapping.entities(of: try mapping.items(of: document))
            reader.incomplete += found.incomplete
            var seen = Set<String>()
            var kept: [Entity] = []
            // The run's limit (a whole list asks for many more than a query keeps).
            for entity in found.entities where kept.count < reader.limit && seen.insert(entity.id).inserted {
                kept.append(entity)
            }
            return kept
        } catch {
            throw SourceError("directory command printed a malformed answer: \(error.message)")
        }
    }

    private func timedOut() -> SourceError {
        SourceError("directory command timed out after \(SourceError.seconds(timeout))")
    }

    private func failed(_ what: String, _ child: ChildProcess) -> SourceError {
        if let line = child.lastErrorLine { return SourceError("directory command \(what): \(line)") }
        return SourceError("directory command \(what)")
    }

    private static func describe(_ error: any Error) -> SourceError {
        switch error {
        case let tooLong as LineBuffer.TooLong:
            SourceError("directory command printed a line longer than \(maximumLineLength >> 20) MB (line \(tooLong.line))")
        case let bad as DirectoryError:
            SourceError("directory command printed a malformed line \(bad.line ?? 0): \(bad.message)")
        default:
            SourceError("directory command: \(error)")
        }
    }
}

/// Turns a command's output lines into entities: skips blank lines and repeated ids, and
/// counts towards the limit.
private struct EntityLines {
    let limit: Int
    let mapping: EntityMapping
    private var seen = Set<String>()
    /// Items left without an id or a name by the mapping.
    var incomplete = 0

    init(limit: Int, mapping: EntityMapping) {
        self.limit = limit
        self.mapping = mapping
    }

    /// The number of distinct entities read.
    var count: Int { seen.count }
    var wantsMore: Bool { seen.count < limit }

    /// The entity on `line` (the `number`-th line of output), nil for a blank line or an id
    /// already read.
    mutating func entity(fromLine line: ArraySlice<UInt8>, number: Int) throws -> Entity? {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        if !mapping.isPlain {
            do {
                let item = try JSONDocument.parse(Array(line))
                switch try mapping.entity(from: item, number: number) {
                case .entity(let entity): return seen.insert(entity.id).inserted ? entity : nil
                case .excluded: return nil
                case .incomplete:
                    incomplete += 1
                    return nil
                }
            } catch {
                throw DirectoryError(path: "", line: number, message: error.message)
            }
        }
        let entity = try DirectoryFile.entity(fromJSONLine: Array(line), path: "", line: number, number: seen.count + 1)
        return seen.insert(entity.id).inserted ? entity : nil
    }
}

extension CommandSource: ListSource {
    /// The whole list: the command asked with an empty query, up to `items` entities.
    func list(items: Int, timeout: Duration, cancellation: Cancellation) throws(SourceError) -> ListAnswer {
        var entities: [Entity] = []
        try run(query: "", trigger: "@", limit: items, deadline: ContinuousClock.now + timeout,
                maximumOutput: 256 << 20, asking: listCommand, listItems: items, cancellation: cancellation) { entities += $0.map(\.entity) }
        return ListAnswer(entities: entities, stoppedShort: entities.count >= items ? "stopped at \(items) items" : nil)
    }

    var listKey: String {
        ["command", command, listCommand ?? "", output == .ldif ? "ldif" : "json", mapping.key,
         extraEnvironment.keys.sorted().map { "\($0)=\(extraEnvironment[$0]!)" }.joined(separator: ",")]
            .joined(separator: "\u{1F}")
    }
}
