import Glibc
import Synchronization
import Testing
@testable import AtpadSystem

/// The one wait for a value another thread makes, and the queue's `sync` built on it.
@Suite struct HandoffTests {
    @Test func theValueIsMadeOnAnotherThreadAndWaitedFor() {
        let caller = pthread_self()
        // Made on a thread of its own: the caller's thread is not it.
        let handoff = Handoff.start(name: "handoff test") { pthread_equal(pthread_self(), caller) == 0 }
        #expect(handoff.wait() == true)
        // Taken again: still the same value.
        #expect(handoff.wait() == true)
    }

    @Test func givenBeforeItIsWaitedFor() {
        let handoff = Handoff<[Int]>()
        handoff.give([1, 2, 3])
        #expect(handoff.wait() == [1, 2, 3])
    }

    @Test func syncRunsAfterEveryJobBeforeIt() {
        let queue = BackgroundQueue(name: "handoff queue")
        let order = Mutex<[Int]>([])
        for n in 0 ..< 5 {
            queue.async { order.withLock { $0.append(n) } }
        }
        let seen = queue.sync { order.withLock { $0 } }
        #expect(seen == [0, 1, 2, 3, 4])
    }
}
