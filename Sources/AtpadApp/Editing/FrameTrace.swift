import FoundationEssentials
import Glibc

/// Writes how long each input batch took to handle and draw (for profiling the echo path):
/// one line per batch, tab-separated: events, µs from the batch read to its frame drawn,
/// µs laying the frame out, µs drawing it, µs reading the batch (wake-up to events).
final class FrameTrace {
    /// The trace file, emptied at start; -1 when it cannot be opened.
    private let descriptor: Int32

    init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func record(events: Int, since start: ContinuousClock.Instant, layout: Duration, backend: Duration, wake: ContinuousClock.Instant) {
        guard events > 0, descriptor >= 0 else { return }
        func micros(_ d: Duration) -> Int {
            Int(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
        }
        // Absolute CLOCK_MONOTONIC microseconds of the wake-up and of the frame drawn, to
        // line the trace up with a harness's own timestamps (Python's perf_counter).
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let drawnAt = Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
        let elapsed = micros(ContinuousClock.now - start)
        let wokeAt = drawnAt - elapsed - micros(start - wake)
        let line = "\(events)\t\(elapsed)\t\(micros(layout))\t\(micros(backend))\t\(micros(start - wake))\t\(wokeAt)\t\(drawnAt)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}
