import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Reads directory files in every format (docs/directories.md, "Directory files").
///
/// An entity is `{"id": "u42", "name": "John Doe", "handle": "jdoe", "detail": "iOS
/// engineer", "url": "…"}`: `id` and `name` are required and non-empty (in JSON an integer
/// id is taken as its digits); `handle`, `detail` and `url` are optional (null or an empty
/// value counts as absent); other keys or columns are ignored. The file is strict UTF-8,
/// a byte order mark is skipped, and an empty file is an empty directory. The format comes
/// from the extension, or from the first byte when the extension says nothing
/// (``DirectoryFormat``). Errors are ``DirectoryError``s naming the file, line and field.
public enum DirectoryFile {
    /// Loads the entities of the directory file at `path`, in file order.
    public static func load(path: String) throws -> [Entity] {
        let bytes = try contents(of: path)
        return try entities(from: bytes, format: .of(path: path, bytes: bytes), path: path)
    }

    /// Loads the entities of the directory file at a file URL.
    public static func load(contentsOf url: URL) throws -> [Entity] {
        try load(path: url.path)
    }

    /// Parses `bytes` as a directory file in `format`; `path` only names the file in errors.
    public static func entities(from bytes: [UInt8], format: DirectoryFormat, path: String) throws -> [Entity] {
        try parse(bytes, format: format, path: path).entities
    }

    /// Parses a JSON array of entities; `path` only names the file in errors.
    public static func entities(fromJSON bytes: [UInt8], path: String) throws -> [Entity] {
        try entities(from: bytes, format: .json, path: path)
    }

    /// Parses NDJSON, one entity object per line; `path` only names the file in errors.
    public static func entities(fromNDJSON bytes: [UInt8], path: String) throws -> [Entity] {
        try entities(from: bytes, format: .ndjson, path: path)
    }

    /// Parses CSV with a header row; `path` only names the file in errors.
    public static func entities(fromCSV bytes: [UInt8], path: String) throws -> [Entity] {
        try entities(from: bytes, format: .csv, path: path)
    }

    /// The entities of `bytes` with the offsets where they start.
    static func parse(_ bytes: [UInt8], format: DirectoryFormat, path: String) throws -> ParsedEntities {
        try bytes.withUnsafeBufferPointer { bytes in
            let start = bytes.starts(with: DirectoryFormat.byteOrderMark) ? DirectoryFormat.byteOrderMark.count : 0
            if let bad = UTF8Validation.firstInvalidByte(in: bytes, from: start) {
                let line = ByteLines.lineNumber(in: bytes, at: bad, loneCarriageReturn: format != .ndjson)
                let byte = String(bytes[bad], radix: 16, uppercase: true)
                throw DirectoryError(path: path, line: line, message: "not valid UTF-8 (byte 0x\(byte) at offset \(bad))")
            }
            var parsed = ParsedEntities()
            switch format {
            case .json: try JSONArrayFormat.parse(bytes, from: start, path: path, into: &parsed)
            case .ndjson: try NDJSONFormat.parse(bytes, from: start, path: path, into: &parsed)
            case .csv: try CSVFormat.parse(bytes, from: start, path: path, into: &parsed)
            }
            return parsed
        }
    }

    // MARK: - Bytes

    /// The whole file at `path` (``FileContents``), or a ``DirectoryError`` saying why not.
    static func contents(of path: String) throws -> [UInt8] {
        do {
            return try FileContents.read(path)
        } catch .folder {
            throw DirectoryError(path: path, line: nil, message: "is a folder, not a directory file")
        } catch {
            throw DirectoryError(path: path, line: nil, message: error.reason)
        }
    }
}

// MARK: - One entity on its own (a line printed by a directory command)

extension DirectoryFile {
    /// Parses `bytes` as one JSON object entity, read like a line of NDJSON; `path` and
    /// `line` locate it in errors. Errors are ``DirectoryError``s.
    static func entity(fromJSONLine bytes: [UInt8], path: String, line: Int, number: Int) throws -> Entity {
        let fail = { (message: String) in DirectoryError(path: path, line: line, message: message) }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw fail("not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at column \(bad + 1))")
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            do {
                guard let (entity, _) = try NDJSONFormat.readLine(buffer) else { throw fail("an empty line") }
                return entity
            } catch let error as JSONSyntaxError {
                throw fail("not valid JSON: \(error.message)")
            } catch let error as EntityError {
                throw fail(error.message)
            }
        }
    }
}
