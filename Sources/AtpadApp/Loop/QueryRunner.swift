import AtpadCore
import AtpadDirectory

/// Runs the queries of sources that cannot answer at once (commands, URLs, a directory
/// still loading), one task per query, and posts the batches, failure and end of each to
/// the mailbox. Cancelling a query cancels its task (which stops the work behind it);
/// every query ends with `.ended`.
final class QueryRunner {
    let sources: [Unicode.Scalar: any EntitySource]
    private let mailbox: Mailbox
    private var tasks: [Int: Task<Void, Never>] = [:]

    init(sources: [Unicode.Scalar: any EntitySource], mailbox: Mailbox) {
        self.sources = sources
        self.mailbox = mailbox
    }

    /// Whether any query is still running.
    var isBusy: Bool { !tasks.isEmpty }

    func start(id: Int, trigger: Unicode.Scalar, query: String) {
        let mailbox = mailbox
        guard let source = sources[trigger] else {
            mailbox.post(.completion(.batch(queryID: id, [], isFinal: true)))
            mailbox.post(.completion(.ended(queryID: id)))
            return
        }
        // What the person is typing waits for it: ahead of background work such as the
        // index writer.
        tasks[id] = Task.detached(priority: .userInitiated) {
            defer { mailbox.post(.completion(.ended(queryID: id))) }
            do {
                for try await batch in source.search(query, trigger: trigger) {
                    if Task.isCancelled { return }
                    mailbox.post(.completion(.batch(queryID: id, batch, isFinal: false)))
                }
                if !Task.isCancelled { mailbox.post(.completion(.batch(queryID: id, [], isFinal: true))) }
            } catch {
                if !Task.isCancelled { mailbox.post(.completion(.failed(queryID: id, message: "\(error)"))) }
            }
        }
    }

    func cancel(id: Int) {
        tasks[id]?.cancel()
    }

    /// Forgets the task of a query that has ended.
    func ended(id: Int) {
        tasks[id] = nil
    }

    func cancelAll() {
        for task in tasks.values { task.cancel() }
    }
}
