import AtpadCore
import AtpadDirectory
import AtpadTerminal
import Glibc

/// `atpad lsp`'s protocol state and dispatch (docs/editors.md): one message at a time on
/// the reading thread, which alone owns the documents; completions that a slow source
/// answers finish in a task and are cancelled by `$/cancelRequest`.
final class LSPServer {
    private let output: LSPOutput
    /// The triggers and whether spelling was asked for, which `initialize` tells the
    /// client before the directories have loaded.
    private let triggers: [Unicode.Scalar]
    private let spellingAsked: Bool
    private let load: LSPSettingsLoad
    /// The personal word list (`$XDG_CONFIG_HOME/atpad/words`); nil without a home.
    private let wordList: String?
    private var loaded: LSPSettings?
    /// The settings, waited for the first time (a load that failed ends the server with
    /// its message, as a wrong config or directory ends `atpad search`).
    private var settings: LSPSettings {
        get {
            if let loaded { return loaded }
            do {
                var settings = try load.wait()
                settings.rankParticipantsFirst(of: clientTarget, folder: folder)
                loaded = settings
                return settings
            } catch {
                StandardOutput.error("atpad: \(error)")
                output.log("atpad: \(error)", type: 1)
                ProcessEnd.now(2)
            }
        }
        set {
            loaded = newValue
            people.removeAll()
        }
    }
    /// Whether each `@word` the diagnostics checked names someone in these settings'
    /// directories (``LSPDiagnostics/unknownMentions(_:settings:people:)``); emptied when
    /// the settings change.
    private var people: [String: Bool] = [:]
    /// The settings for a client's config (TOML text, ``LSPClientConfig``).
    private let reconfigure: (String) throws -> LSPSettings
    /// The workspace's folder (`rootUri`, or the first of `workspaceFolders`), where the
    /// github preset finds the branch's pull request.
    private var folder: String?
    /// The conversation the client's `to` setting names, over `--to`.
    private var clientTarget: PostTarget?
    private var documents: [String: LSPDocument] = [:]
    private var encoding = LSPPositionEncoding.utf16
    private var initialized = false
    private var shutdownRequested = false
    private let pending = LSPPendingRequests()

    init(triggers: [Unicode.Scalar], spellingAsked: Bool, wordList: String?, load: LSPSettingsLoad, output: LSPOutput,
         reconfigure: @escaping (String) throws -> LSPSettings) {
        self.triggers = triggers
        self.wordList = wordList
        self.spellingAsked = spellingAsked
        self.load = load
        self.output = output
        self.reconfigure = reconfigure
    }

    /// Reads messages from `descriptor` until `exit` or the end of input; returns the exit
    /// status: 0 after `shutdown`, else 1 (LSP 3.17, "Exit Notification").
    func run(reading descriptor: Int32 = STDIN_FILENO) -> Int32 {
        var buffer = LSPFrameBuffer()
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return shutdownRequested ? 0 : 1 }
            buffer.append(block[0..<n])
            while let frame = buffer.next() {
                switch frame {
                case let .skipped(reason):
                    output.log("skipped input that is no message: \(reason)", type: 1)
                case let .message(bytes):
                    if let status = receive(bytes) { return status }
                }
            }
        }
    }

    /// Handles one message's content; returns an exit status when it was `exit`.
    func receive(_ bytes: [UInt8]) -> Int32? {
        let message: JSONValue
        do {
            message = try bytes.withUnsafeBufferPointer { try JSONReader.value(of: $0) }
        } catch let error as JSONSyntaxError {
            output.respond(.null, error: .parseError, "not JSON: \(error.message) at byte \(error.offset)")
            return nil
        } catch {
            output.respond(.null, error: .parseError, "not JSON")
            return nil
        }
        guard let method = message["method"]?.string else {
            // A response to something the server asked (it asks nothing), or no message.
            if message["id"] == nil { output.respond(.null, error: .invalidRequest, "a message without a method") }
            return nil
        }
        let params = message["params"] ?? .null
        guard let id = message["id"] else {
            return notification(method, params)
        }
        request(method, id: id, params: params)
        return nil
    }

    // MARK: - Requests

    private func request(_ method: String, id: JSONValue, params: JSONValue) {
        if method == "initialize" {
            return output.respond(id, result: initialize(params))
        }
        guard initialized else {
            return output.respond(id, error: .serverNotInitialized, "\(method) before initialize")
        }
        if shutdownRequested {
            return output.respond(id, error: .invalidRequest, "\(method) after shutdown")
        }
        switch method {
        case "shutdown":
            shutdownRequested = true
            output.respond(id, result: .null)
        case "textDocument/completion":
            complete(id: id, params: params)
        case "textDocument/hover":
            guard let (document, offset) = located(params, id: id) else { return }
            output.respond(id, result: LSPHover.hover(at: offset, in: document, settings: settings, encoding: encoding))
        case "textDocument/codeAction":
            guard let uri = params["textDocument"]?["uri"]?.string, let document = documents[uri] else {
                return output.respond(id, result: .array([]))
            }
            output.respond(id, result: LSPDiagnostics.codeActions(params, uri: uri, document: document,
                                                                  settings: settings))
        case "workspace/executeCommand" where params["command"]?.string == LSPDiagnostics.addWordCommand:
            addWord(id: id, params["arguments"]?.array?.first?.string)
        default:
            output.respond(id, error: .methodNotFound, "atpad lsp does not answer \(method)")
        }
    }

    private func initialize(_ params: JSONValue) -> JSONValue {
        initialized = true
        folder = Self.folder(params)
        var triggers = self.triggers, spelling = spellingAsked
        if let options = params["initializationOptions"], configure(options) {
            (triggers, spelling) = (settings.triggers, settings.spelling != nil)
        }
        let offered = params["capabilities"]?["general"]?["positionEncodings"]?.array?.compactMap(\.string)
        encoding = .chosen(from: offered)
        var capabilities: [(key: String, value: JSONValue)] = [
            ("positionEncoding", .string(encoding.rawValue)),
            // Incremental: only what changed travels, which a 10 MB document needs.
            ("textDocumentSync", ["openClose": true, "change": 2]),
            ("completionProvider", ["triggerCharacters": .array(triggers.map { .string(String(Character($0))) }),
                                    "resolveProvider": false]),
            ("hoverProvider", true),
        ]
        if spelling {
            capabilities.append(("codeActionProvider", true))
            capabilities.append(("executeCommandProvider", ["commands": [.string(LSPDiagnostics.addWordCommand)]]))
        }
        return ["capabilities": .object(capabilities),
                "serverInfo": ["name": "atpad", "version": .string(AtpadVersion.string)]]
    }

    /// The document and scalar offset a position request names, or nil after answering
    /// with the error (an unknown document, a position outside it).
    private func located(_ params: JSONValue, id: JSONValue) -> (LSPDocument, Int)? {
        guard let uri = params["textDocument"]?["uri"]?.string else {
            output.respond(id, error: .invalidParams, "no textDocument.uri")
            return nil
        }
        guard let document = documents[uri] else {
            // Not opened, or a language atpad does not serve: nothing to say.
            output.respond(id, result: .null)
            return nil
        }
        guard let offset = document.offset(params["position"], encoding) else {
            output.respond(id, error: .invalidParams, "the position is outside \(uri)")
            return nil
        }
        return (document, offset)
    }

    private func complete(id: JSONValue, params: JSONValue) {
        guard let (document, offset) = located(params, id: id) else { return }
        let completion = LSPCompletion(document: document, offset: offset, settings: settings, encoding: encoding)
        guard let search = completion.search else {
            return output.respond(id, result: ["isIncomplete": false, "items": []])
        }
        // An insert completion (`:` → emoji) asks nothing before two characters, as in the
        // editor (`:)` and `10:30` offer nothing).
        if search.quiet, search.query.count < 2 {
            return output.respond(id, result: ["isIncomplete": true, "items": []])
        }
        if let ranked = completion.rankedNow(search) {
            return output.respond(id) { completion.write(ranked, for: search, to: &$0) }
        }
        // A command or URL answers in its own time: the reading thread goes on meanwhile.
        let key = JSONWriter.text(id, layout: .compact)
        let output = self.output
        let pending = self.pending
        pending.begin(key)
        let task = Task {
            let ranked = await completion.asked(search)
            // A cancelled request was answered when it was cancelled.
            guard pending.take(key).waiting else { return }
            output.respond(id) { completion.write(ranked, for: search, to: &$0) }
        }
        pending.attach(key, task)
    }

    /// "Add WORD to my words": appended to the personal list (docs/spelling.md), known from
    /// now on, and every open document checked again.
    private func addWord(id: JSONValue, _ word: String?) {
        guard let word, !word.isEmpty, !word.contains(where: \.isWhitespace) else {
            return output.respond(id, error: .invalidParams, "atpad.addWord takes one word")
        }
        guard settings.spelling != nil else { return output.respond(id, result: .null) }
        guard let path = wordList else {
            return output.respond(id, error: .internalError, "no home folder for the word list")
        }
        do {
            try SpellingSetup.addPersonalWord(word, to: path)
        } catch {
            return output.respond(id, error: .internalError, "\(path) not written: \(error)")
        }
        settings.spelling?.known.add(word)
        output.respond(id, result: .null)
        for uri in documents.keys.sorted() { publishDiagnostics(uri) }
    }

    // MARK: - Notifications

    private func notification(_ method: String, _ params: JSONValue) -> Int32? {
        if method == "exit" { return shutdownRequested ? 0 : 1 }
        guard initialized else { return nil }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.string,
                  let text = item["text"]?.string else { return nil }
            guard let language = item["languageId"]?.string.flatMap(LSPDocument.Language.init(id:)) else {
                return nil
            }
            documents[uri] = LSPDocument(language: language, version: item["version"]?.int ?? 0, text: text,
                                         settings: settings)
            publishDiagnostics(uri)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.string, var document = documents[uri] else { return nil }
            documents[uri] = nil
            for change in params["contentChanges"]?.array ?? [] where !document.apply(change, encoding: encoding, settings: settings) {
                output.log("a change outside \(uri) was ignored", type: 1)
            }
            document.version = params["textDocument"]?["version"]?.int ?? document.version
            documents[uri] = document
            publishDiagnostics(uri)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string, documents.removeValue(forKey: uri) != nil else { return nil }
            output.notify("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
        case "$/cancelRequest":
            guard let id = params["id"] else { return nil }
            let key = JSONWriter.text(id, layout: .compact)
            // Answered now, whether or not the source notices: the client stops waiting.
            let taken = pending.take(key)
            guard taken.waiting else { return nil }
            taken.task?.cancel()
            output.respond(id, error: .requestCancelled, "cancelled")
        case "workspace/didChangeConfiguration":
            // Clients send the server's section (`{"atpad": {…}}`) or the object itself.
            guard let given = params["settings"] else { return nil }
            configure(given["atpad"] ?? given)
            for uri in documents.keys {
                guard let document = documents[uri] else { continue }
                documents[uri] = LSPDocument(language: document.language, version: document.version,
                                             text: document.editor.text, settings: settings)
                publishDiagnostics(uri)
            }
        default:
            // Other notifications (`initialized`, `$/setTrace`) need nothing.
            break
        }
        return nil
    }

    /// Takes a client's config: the settings it makes, or on a mistake in it the ones
    /// before, with the mistake in the client's log. Whether it was taken.
    ///
    /// `to` names the conversation whose people rank first (`"github:o/r#42"`, as `--to`);
    /// every other member is a key of the config file.
    @discardableResult
    private func configure(_ options: JSONValue) -> Bool {
        guard case let .object(members) = options.kind else { return false }
        if let to = options["to"] {
            do {
                clientTarget = try to.string.map(PostPreparation.target)
            } catch {
                output.log("the client's \"to\" was not taken: \(error)", type: 1)
            }
        }
        let config = LSPClientConfig.toml(.object(members.filter { $0.key != "to" }))
        do {
            var taken = try config.map(reconfigure) ?? (loaded == nil ? nil : settings)
            taken?.rankParticipantsFirst(of: clientTarget, folder: folder)
            guard let taken else { return false }
            settings = taken
            return config != nil
        } catch {
            output.log("the client's settings were not taken: \(error)", type: 1)
            return false
        }
    }

    /// The folder of `initialize`'s workspace: the first of `workspaceFolders`, else
    /// `rootUri`, else `rootPath`; nil for none or a URI that is no file.
    static func folder(_ params: JSONValue) -> String? {
        let uri = params["workspaceFolders"]?.array?.first?["uri"]?.string ?? params["rootUri"]?.string
        guard let uri else { return params["rootPath"]?.string }
        guard uri.hasPrefix("file://") else { return nil }
        // `file:///home/me/a%20b` → `/home/me/a b` (a host, which local files never have, is dropped).
        var path = uri.dropFirst("file://".count)
        if !path.hasPrefix("/") { path = path.drop { $0 != "/" } }
        return PercentDecoding.decoded(path.utf8)
    }

    private func publishDiagnostics(_ uri: String) {
        guard let document = documents[uri] else { return }
        output.notify("textDocument/publishDiagnostics", [
            "uri": .string(uri), "version": .number(document.version),
            "diagnostics": .array(LSPDiagnostics.diagnostics(document, settings: settings, encoding: encoding,
                                                                people: &people)),
        ])
    }
}
