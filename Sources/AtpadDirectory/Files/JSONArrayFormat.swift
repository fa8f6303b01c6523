import AtpadCore

/// Reads a directory file that is a JSON array of entity objects. An empty file (or only
/// whitespace) and `[]` are empty directories.
enum JSONArrayFormat {
    /// Appends the entities of `bytes` (valid UTF-8 from `start`, past any byte order
    /// mark) to `parsed`;
    /// `path` only names the file in errors.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        path: String,
        into parsed: inout ParsedEntities
    ) throws {
        let fail = { (offset: Int, message: String) in
            DirectoryError(path: path, line: ByteLines.lineNumber(in: bytes, at: offset), message: message)
        }
        var reader = JSONReader(bytes: bytes, offset: start)
        do {
            parsed.reserve(expectingLinesOf: bytes, minimumBytesEach: 20)
            try readArray(&reader, into: &parsed)
        } catch let error as JSONSyntaxError {
            throw fail(error.offset, "not valid JSON: \(error.message)")
        } catch let error as EntityError {
            throw fail(error.offset, error.message)
        }
    }

    private static func readArray(_ reader: inout JSONReader, into parsed: inout ParsedEntities) throws {
        reader.skipWhitespace()
        guard let first = reader.peek() else { return }
        guard first == UInt8(ascii: "[") else {
            let found = first == UInt8(ascii: "{")
                ? "an object (a file of one object per line is NDJSON: name it .ndjson)"
                : "something else"
            throw EntityError(offset: reader.offset, message: "expected a JSON array of entities, found \(found)")
        }
        reader.offset += 1
        reader.skipWhitespace()
        var closed = reader.peek() == UInt8(ascii: "]")
        if closed { reader.offset += 1 }
        while !closed {
            reader.skipWhitespace()
            let number = parsed.entities.count + 1
            let entryStart = reader.offset
            if reader.peek() == UInt8(ascii: "{") {
                parsed.append(try reader.readEntity(.entry(number)), at: entryStart)
            } else {
                // Read it first, so a syntax error is reported as one.
                let value = try reader.readValue(depth: 1)
                throw EntityError(offset: value.offset, message: "entry \(number) is not an object but \(value.kind.noun)")
            }
            closed = try reader.endOfItem(closing: UInt8(ascii: "]"), "after entry \(number)",
                                          unclosed: "the array is not closed (missing ']')")
        }
        reader.skipWhitespace()
        if reader.peek() != nil {
            throw JSONSyntaxError(offset: reader.offset, message: "unexpected text after the array")
        }
    }
}
