import AtpadCore
import AtpadDirectory
import Foundation

/// Where answers from sources wait for the editor loop: sources post from their tasks,
/// the loop takes everything at once between input batches.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [CompletionEvent] = []

    func post(_ event: CompletionEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    func takeAll() -> [CompletionEvent] {
        lock.lock()
        defer { lock.unlock() }
        let taken = events
        events.removeAll()
        return taken
    }
}

/// Runs the editor's query effects against its sources, one task per query, and posts
/// the batches, failure and end of each to the mailbox. Cancelling a query cancels its
/// task (which stops the work behind it); every query ends with `.ended`.
final class QueryRunner {
    let sources: [Unicode.Scalar: any EntitySource]
    let mailbox = Mailbox()
    private var tasks: [Int: Task<Void, Never>] = [:]

    init(sources: [Unicode.Scalar: any EntitySource]) {
        self.sources = sources
    }

    /// Whether any query is still running (the loop polls more often then).
    var isBusy: Bool { !tasks.isEmpty }

    func start(id: Int, trigger: Unicode.Scalar, query: String) {
        let mailbox = mailbox
        guard let source = sources[trigger] else {
            mailbox.post(.batch(queryID: id, [], isFinal: true))
            mailbox.post(.ended(queryID: id))
            return
        }
        tasks[id] = Task.detached {
            defer { mailbox.post(.ended(queryID: id)) }
            do {
                for try await batch in source.search(query, trigger: trigger) {
                    if Task.isCancelled { return }
                    mailbox.post(.batch(queryID: id, batch, isFinal: false))
                }
                if !Task.isCancelled { mailbox.post(.batch(queryID: id, [], isFinal: true)) }
            } catch {
                if !Task.isCancelled { mailbox.post(.failed(queryID: id, message: "\(error)")) }
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
