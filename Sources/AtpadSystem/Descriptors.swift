import Glibc

// Small wrappers over file descriptor calls shared by the process and HTTP code.

/// A new pipe whose two ends have `flags` (`O_CLOEXEC`, `O_NONBLOCK`) from the start.
///
/// Atomically close-on-exec matters: queries spawn commands from several threads, and a
/// child that inherited another query's write end would keep that query's output open.
package func makePipe(flags: Int32) throws(SourceError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard let pipe2 = linuxPipe2, pipe2(&ends, flags) == 0 else {
        throw SourceError("cannot create a pipe: \(errorText(errno))")
    }
    return (ends[0], ends[1])
}

private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

/// glibc's `pipe2`, looked up at run time: Swift's Glibc module does not declare it (it
/// is a GNU extension), and a C target for one declaration would be heavier.
private let linuxPipe2: Pipe2? = {
    guard let symbol = dlsym(nil, "pipe2") else { return nil }
    return unsafeBitCast(symbol, to: Pipe2.self)
}()

/// Closes a descriptor, ignoring errors (there is nothing useful to do about them here).
/// A free function because `close` methods shadow the C library's.
package func closeDescriptor(_ fd: Int32) {
    if fd >= 0 { _ = close(fd) }
}

/// The C library's text for an error number, starting lower case so it reads as part of
/// a sentence (`connection refused`).
package func errorText(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    guard let first = text.first else { return "error \(code)" }
    return first.lowercased() + text.dropFirst()
}
