import FoundationEssentials
import Glibc

/// How a draft file is named: one stable name per document path, one fresh name per
/// session for an unnamed comment.
///
/// A named draft is `<slug>.<hash>.draft`: the slug is the document's file name made safe
/// and short, so a person listing the folder sees which comment a draft belongs to; the
/// hash (FNV-1a 64 of the absolute path, 16 hex digits) keeps `a/notes.md` and
/// `b/notes.md` apart and needs no index file that could itself be lost.
/// An unnamed draft is `unnamed-<UTC time>-<pid>.draft`, unique per session.
enum DraftName {
    static let suffix = ".draft"
    static let unnamedPrefix = "unnamed-"
    /// Marks a draft moved aside by "keep both", which no session writes to again.
    static let keptMarker = ".kept-"
    /// The longest slug, in bytes; the hash carries the identity, the slug is a hint.
    static let longestSlug = 48

    /// The draft file name for the document at `absolutePath` (already standardized).
    static func named(_ absolutePath: String) -> String {
        let fileName = absolutePath.split(separator: "/").last.map(String.init) ?? ""
        return "\(slug(fileName)).\(hex(fnv1a64(absolutePath))).draft"
    }

    /// The draft file name for an unnamed comment started at `started` by process `pid`.
    static func unnamed(started: Date, pid: Int32) -> String {
        "\(unnamedPrefix)\(UTCTimestamp.compact(started))-\(pid)\(suffix)"
    }

    /// Whether `fileName` is an unnamed draft a session may still write to (not one kept
    /// aside, not a temporary file).
    static func isUnnamed(_ fileName: String) -> Bool {
        fileName.hasPrefix(unnamedPrefix) && fileName.hasSuffix(suffix) && !fileName.contains(keptMarker)
    }

    /// The name a draft is moved to by "keep both": its own name with the time it was kept,
    /// still ending in `.draft` so a person finds it next to the others.
    static func kept(_ fileName: String, at date: Date) -> String {
        let stem = fileName.hasSuffix(suffix) ? String(fileName.dropLast(suffix.count)) : fileName
        return "\(stem)\(keptMarker)\(UTCTimestamp.compact(date))\(suffix)"
    }

    /// The file name reduced to letters, digits, `.`, `-` and `_` (anything else becomes
    /// `_`), at most `longestSlug` bytes, never empty nor starting with a dot (which would
    /// hide the draft from a plain `ls`).
    static func slug(_ fileName: String) -> String {
        var out = ""
        for scalar in fileName.unicodeScalars {
            guard out.utf8.count < longestSlug else { break }
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_":
                out.unicodeScalars.append(scalar)
            case ".":
                out.unicodeScalars.append(out.isEmpty ? "_" : ".")
            default:
                out.unicodeScalars.append("_")
            }
        }
        return out.isEmpty ? "comment" : out
    }

    /// FNV-1a, 64 bits, over the path's UTF-8: tiny, stable across runs and platforms
    /// (unlike `Hasher`, which is seeded per process).
    static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func fnv1a64(_ text: String) -> UInt64 { fnv1a64(text.utf8) }

    /// Sixteen lower-case hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `path` made absolute (against `currentDirectory`) and standardized lexically: no
    /// empty, `.` or `..` components. Symbolic links are left alone, so the name does not
    /// depend on what the disk looks like when the draft is looked for.
    static func absolute(_ path: String, currentDirectory: String) -> String {
        let full = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
