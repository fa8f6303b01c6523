import FoundationEssentials
import Glibc

/// Cuts a stream of bytes that arrives in pieces into lines, refusing a line longer than
/// a limit (so a program printing one endless line cannot fill the memory).
///
/// A line ends at a line feed; a carriage return before it is dropped (CRLF output).
struct LineBuffer {
    /// A line, without its terminator, was longer than the limit.
    struct TooLong: Error, Equatable {
        /// The 1-based number of the offending line.
        let line: Int
    }

    /// The longest line accepted, in bytes.
    let maximumLength: Int
    /// Bytes received and not handed out yet; those before `start` are consumed.
    private var bytes: [UInt8] = []
    private var start = 0
    /// How far `bytes` was searched for a line feed, so each byte is scanned once.
    private var scanned = 0
    /// The number of lines handed out so far.
    private(set) var linesRead = 0

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Adds the next piece of the stream.
    mutating func append(_ piece: UnsafeRawBufferPointer) {
        // Drop consumed bytes once they are the larger part, so appending stays amortised O(1).
        if start > 0, start >= bytes.count - start {
            bytes.removeSubrange(0 ..< start)
            scanned -= start
            start = 0
        }
        bytes.append(contentsOf: piece)
    }

    /// The next complete line, or nil when none has ended yet. The slice is only valid
    /// until the next call that changes the buffer.
    mutating func nextLine() throws(TooLong) -> ArraySlice<UInt8>? {
        // memchr: a byte loop over megabytes of output is slow in debug builds.
        let feed: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard scanned < buffer.count, let base = buffer.baseAddress,
                  let found = memchr(base + scanned, 0x0A, buffer.count - scanned)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        guard let feed else {
            scanned = bytes.count
            // No line feed yet: a partial line already too long will never be accepted.
            if bytes.count - start > maximumLength { throw TooLong(line: linesRead + 1) }
            return nil
        }
        var end = feed
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        let line = bytes[start ..< end]
        start = feed + 1
        scanned = start
        linesRead += 1
        if line.count > maximumLength { throw TooLong(line: linesRead) }
        return line
    }

    /// At the end of the stream: the last line when it has no line feed, else nil.
    mutating func finish() throws(TooLong) -> ArraySlice<UInt8>? {
        guard start < bytes.count else { return nil }
        var end = bytes.count
        if bytes[end - 1] == 0x0D { end -= 1 }
        let line = bytes[start ..< end]
        start = bytes.count
        scanned = start
        linesRead += 1
        if line.count > maximumLength { throw TooLong(line: linesRead) }
        return line
    }
}
