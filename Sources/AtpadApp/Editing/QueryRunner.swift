import AtpadCore
import AtpadDirectory
import Foundation

/// Where answers from sources wait for the editor loop: sources post from their tasks,
/// the loop takes everything at once between input batches.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [CompletionEvent] = []
    /// A pipe whose read end the loop polls beside the terminal: posting writes a byte,
    /// so an answer is drawn at once instead of at the loop's next timeout.
    private var pipeEnds: [Int32] = [-1, -1]

    /// The descriptor the loop waits on for posts (-1 if no pipe could be made).
    var wakeDescriptor: Int32 { pipeEnds[0] }

    init() {
        if pipe(&pipeEnds) == 0 {
            for fd in pipeEnds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            pipeEnds = [-1, -1]
        }
    }

    deinit {
        for fd in pipeEnds where fd >= 0 { close(fd) }
    }

    func post(_ event: CompletionEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
        if pipeEnds[1] >= 0 {
            var byte: UInt8 = 1
            _ = write(pipeEnds[1], &byte, 1)  // a full pipe already wakes the loop
        }
    }

    /// Waits up to `milliseconds` for a post (for loops with no terminal to poll), and
    /// empties the pipe.
    func wait(milliseconds: Int32) {
        guard pipeEnds[0] >= 0 else { return }
        var descriptor = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, milliseconds) > 0 {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(pipeEnds[0], &bytes, bytes.count) > 0 {}
        }
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
