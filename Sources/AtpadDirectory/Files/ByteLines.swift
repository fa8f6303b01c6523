/// Line numbers of byte offsets, worked out only when a message needs one.
enum ByteLines {
    /// The 1-based line of byte `offset`: one more than the line breaks before it. A line
    /// feed ends a line (CRLF counts once); a lone carriage return ends one too when
    /// `loneCarriageReturn` is true (JSON arrays and CSV), but not in NDJSON, whose lines
    /// end at line feeds only.
    static func lineNumber(in bytes: [UInt8], at offset: Int, loneCarriageReturn: Bool = true) -> Int {
        bytes.withUnsafeBufferPointer { lineNumber(in: $0, at: offset, loneCarriageReturn: loneCarriageReturn) }
    }

    /// The 1-based line of byte `offset` of `buffer` (as above).
    static func lineNumber(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int, loneCarriageReturn: Bool = true) -> Int {
        var line = 1
        let end = min(max(offset, 0), buffer.count)
        var index = 0
        while index < end {
            let byte = buffer[index]
            if byte == 0x0A {
                line += 1
            } else if byte == 0x0D, loneCarriageReturn, index + 1 >= buffer.count || buffer[index + 1] != 0x0A {
                line += 1
            }
            index += 1
        }
        return line
    }
}
