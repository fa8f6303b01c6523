import AtpadCore
import Glibc

/// Reads a directory file of NDJSON (JSON Lines): one entity object per line. Lines end
/// at a line feed (a carriage return before it is whitespace); blank lines are skipped;
/// an empty file is an empty directory.
enum NDJSONFormat {
    /// Appends the entities of `buffer` (valid UTF-8 from `start`, past any byte order
    /// mark) to `parsed`;
    /// `path` only names the file in errors.
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>,
        from start: Int,
        path: String,
        into parsed: inout ParsedEntities
    ) throws {
        parsed.reserve(expectingLinesOf: buffer)
        var line = 1
        var lineStart = start
        while lineStart < buffer.count {
            let lineEnd = endOfLine(buffer, from: lineStart)
            let lineBytes = UnsafeBufferPointer(rebasing: buffer[lineStart ..< lineEnd])
            do {
                if let (entity, offset) = try readLine(lineBytes) {
                    parsed.append(entity, at: lineStart + offset)
                }
            } catch let error as JSONSyntaxError {
                throw DirectoryError(path: path, line: line, message: "not valid JSON: \(error.message)")
            } catch let error as EntityError {
                throw DirectoryError(path: path, line: line, message: error.message)
            }
            line += 1
            lineStart = lineEnd + 1
        }
    }

    /// The offset of the next line feed at or after `start`, or the end of the buffer.
    private static func endOfLine(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        // memchr scans a word at a time; lines are long and a million of them add up.
        guard let base = buffer.baseAddress, start < buffer.count,
              let found = memchr(base + start, 0x0A, buffer.count - start) else { return buffer.count }
        return UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
    }

    /// The entity on one line and its offset in the line, or nil for a blank line.
    static func readLine(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (Entity, Int)? {
        var reader = JSONReader(bytes: bytes, offset: 0, endName: "end of line")
        reader.skipWhitespace()
        guard let first = reader.peek() else { return nil }
        let objectStart = reader.offset
        guard first == UInt8(ascii: "{") else {
            let expected = "expected one entity object per line, found"
            if first == UInt8(ascii: "[") {
                // Most likely a JSON array file with another name: say so before its syntax.
                throw EntityError(offset: objectStart, message: "\(expected) an array (is this a JSON array file? name it .json)")
            }
            let value = try reader.readValue()
            throw EntityError(offset: value.offset, message: "\(expected) \(value.kind.noun)")
        }
        let entity = try reader.readEntity(.lineObject)
        reader.skipWhitespace()
        if reader.peek() != nil {
            throw JSONSyntaxError(
                offset: reader.offset,
                message: "unexpected \(reader.describe(at: reader.offset)) after the object (one object per line)"
            )
        }
        return (entity, objectStart)
    }
}
