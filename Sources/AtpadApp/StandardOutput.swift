#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing bytes to stdout as they are: no newline added, no copy into `Data` first.
enum StandardOutput {
    /// Writes all of `bytes` to stdout; a failed write (a closed pipe, say) is an error.
    static func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(1, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw UsageError("cannot write to stdout: \(String(cString: strerror(errno)))")
                }
                written += n
            }
        }
    }
}
