@testable import AtpadSystem
import AtpadTestSupport
import Foundation
import Testing

/// The loop's one wake-up path: a byte from any thread ends its wait, and a drained pipe
/// lets it sleep again.
@Suite struct WakePipeTests {
    func isReadable(_ pipe: WakePipe, within milliseconds: Int32 = 0) -> Bool {
        var ready = pollfd(fd: pipe.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, milliseconds) > 0
    }

    @Test func aWakeEndsTheWaitAndDrainingEndsTheWake() {
        let pipe = WakePipe()
        #expect(pipe.descriptor >= 0)
        #expect(!isReadable(pipe))
        pipe.wake()
        pipe.wake()
        #expect(isReadable(pipe))
        pipe.drain()
        #expect(!isReadable(pipe))
    }

    @Test func aWakeFromAnotherThreadEndsAWait() {
        let pipe = WakePipe()
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            pipe.wake()
        }.start()
        let started = ContinuousClock.now
        pipe.wait(milliseconds: 10_000)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(!isReadable(pipe), "the wait drained it")
    }

    @Test func manyWakesNeverBlockTheirWriter() {
        // A full pipe already wakes the loop: the writes past it are dropped, not waited on.
        let pipe = WakePipe()
        for _ in 0..<200_000 { pipe.wake() }
        #expect(isReadable(pipe))
        pipe.drain()
        #expect(!isReadable(pipe))
    }
}
