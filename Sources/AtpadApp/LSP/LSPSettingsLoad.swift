import AtpadSystem
import Synchronization

/// The settings `atpad lsp` serves with, loaded on a thread of their own from the start
/// (docs/editors.md): `initialize` is answered at once, whatever the size of the
/// directories, and the first message that needs the settings waits for the rest of the
/// load.
final class LSPSettingsLoad: Sendable {
    private let queue = BackgroundQueue(name: "atpad lsp load")
    private let result = Mutex<Result<LSPSettings, any Error>?>(nil)

    /// Starts `load`.
    init(_ load: @escaping @Sendable () throws -> LSPSettings) {
        queue.async { [self] in
            let loaded = Result { try load() }
            self.result.withLock { $0 = loaded }
        }
    }

    /// The settings, once loaded (the queue runs the load before this job); what the load
    /// threw, if it failed.
    func wait() throws -> LSPSettings {
        try queue.sync { self.result.withLock { $0! } }.get()
    }
}
