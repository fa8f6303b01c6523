/// The formats a directory file may have (docs/directories.md, "Directory files"): a JSON
/// array of entities, NDJSON (one entity object per line) or CSV with a header.
public enum DirectoryFormat: String, Sendable, CaseIterable {
    /// A JSON array of entity objects (`.json`).
    case json
    /// One JSON entity object per line (`.ndjson`, `.jsonl`).
    case ndjson
    /// Comma-separated values with a header naming the columns (`.csv`).
    case csv

    /// The format a file name's extension says, compared without case: `.json`,
    /// `.ndjson` or `.jsonl`, `.csv`; nil for any other name.
    public static func forExtension(of path: String) -> DirectoryFormat? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        case "csv": return .csv
        default: return nil
        }
    }

    /// The format of a file whose name does not say: by its first byte that is not
    /// whitespace (after a byte order mark), `[` is a JSON array, `{` is NDJSON, anything
    /// else is CSV.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> DirectoryFormat {
        let body = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes[...]
        for byte in body {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "["): return .json
            case UInt8(ascii: "{"): return .ndjson
            default: return .csv
            }
        }
        return .csv
    }

    /// The format of the file at `path` with contents `bytes`: its extension's, else sniffed.
    public static func of<Bytes: Collection<UInt8>>(path: String, bytes: Bytes) -> DirectoryFormat {
        forExtension(of: path) ?? sniff(bytes)
    }

    /// The UTF-8 byte order mark, skipped at the start of every format.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
