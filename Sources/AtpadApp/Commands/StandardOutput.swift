import Glibc

import AtpadCore

/// Writing to stdout: bytes as they are for a pipe or a file, no newline added, no copy
/// into `Data` first; for a terminal, control characters made visible (docs/editor.md: a file,
/// a directory or a server never gets to send the terminal an escape sequence).
enum StandardOutput {
    /// Whether stdout (and stderr) are terminals, asked once.
    static let isTerminal = isatty(1) == 1
    static let errorIsTerminal = isatty(2) == 1

    /// `text` with every control character but newline and tab shown as a visible escape
    /// (`^[`, `^?`, `<U+009B>`), the way the editor draws them.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { DisplayWidth.escape(for: $0) != nil && $0 != "\n" && $0 != "\t" })
        else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if u != "\n", u != "\t", let escape = DisplayWidth.escape(for: u) {
                out.append(contentsOf: escape.unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Prints a line: as it is to a pipe or file, made visible on a terminal.
    static func printLine(_ line: String) {
        print(isTerminal ? visible(line) : line)
    }

    /// One line on stderr (an error naming a path or an argument), made visible on a terminal.
    static func error(_ line: String) {
        let text = errorIsTerminal ? visible(line) : line
        _ = (text + "\n").utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// Writes all of `bytes` to stdout (made visible on a terminal unless `asIs`); a failed
    /// write (a closed pipe, say) is an error.
    static func writeAll(_ bytes: [UInt8], asIs: Bool = false) throws {
        let bytes = isTerminal && !asIs ? Array(visible(String(decoding: bytes, as: UTF8.self)).utf8) : bytes
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
