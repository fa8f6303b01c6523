import AtpadCore
import FoundationEssentials
import Glibc

/// The bytes of a draft file: a short text header, an empty line, then the document in
/// atpad markup.
///
/// ```
/// atpad-draft 1
/// path /home/ana/pr-42.md
/// written 2025-06-01T12:00:05.123Z
/// pid 4242
/// bytes 27
/// fnv1a64 6a1f0c2d9e8b7a65
///
/// Thanks @[Ana Lima](u7)!
/// ```
///
/// A `cursor N` line (a scalar offset into the document) says where the person was typing.
/// `path` is absent for an unnamed comment; in it `\` and line breaks are written `\\`,
/// `\n`, `\r`. A `tokens` line (`TokenSources`) follows when the document has tokens read
/// from a file in another format, which markup alone would turn into text or rewrite. `bytes` and `fnv1a64` describe the markup, so a draft cut short or
/// overwritten in the middle is told from a whole one. Unknown header lines are skipped,
/// so a later version can add some.
enum DraftFile {
    static let magic = "atpad-draft"
    static let version = 1
    /// A header longer than this is not a header (paths are at most a few KB).
    static let longestHeader = 64 * 1024

    /// What the header says.
    struct Header: Equatable, Sendable {
        var originalPath: String?
        var written: Date?
        var pid: Int32?
        var bytes: Int?
        var checksum: UInt64?
        /// The `TokenSources` line, when there is one.
        var tokens: String?
        /// Where the cursor was, when the draft says.
        var cursor: Int?
    }

    /// A draft file's contents as read: the header (nil when there is none worth the name),
    /// the document, and what was wrong with the file, if anything.
    struct Contents: Sendable {
        var header: Header?
        var document: MarkedText
        var damage: DraftDamage?
        /// The markup as stored (whole drafts only), to compare with the document's file.
        var markup: [UInt8]?
    }

    /// The whole file for `markup`.
    static func encode(_ draft: DraftBody, originalPath: String?, written: Date, pid: Int32) -> [UInt8] {
        let body = Array(draft.markup.utf8)
        var header = "\(magic) \(version)\n"
        if let originalPath { header += "path \(escape(originalPath))\n" }
        header += "written \(UTCTimestamp.extended(written))\n"
        header += "pid \(pid)\n"
        header += "bytes \(body.count)\n"
        header += "fnv1a64 \(DraftName.hex(DraftName.fnv1a64(body)))\n"
        // JSON escapes line breaks, so the line stays one line.
        if let tokens = draft.tokens { header += "tokens \(tokens)\n" }
        if let cursor = draft.cursor { header += "cursor \(cursor)\n" }
        header += "\n"
        return Array(header.utf8) + body
    }

    /// Reads a draft file. Never fails: a file that is not a whole draft comes back as plain
    /// text (no mentions, since markup cut or corrupted at an unknown place could read as a
    /// mention that never was) with the damage named.
    static func decode(_ bytes: [UInt8]) -> Contents {
        guard let (header, bodyStart) = readHeader(bytes) else {
            // No header at all: the whole file is the best guess at the text.
            let isCut = startsWithMagicPrefix(bytes)
            return Contents(header: nil, document: plain(bytes[...]),
                            damage: isCut ? .truncated : .badHeader, markup: nil)
        }
        let body = bytes[bodyStart...]
        // Length first: a cut inside a multi-byte character is a truncation, not bad UTF-8.
        if let expected = header.bytes, body.count < expected {
            return Contents(header: header, document: plain(body), damage: .truncated, markup: nil)
        }
        if let expected = header.bytes, body.count > expected {
            return Contents(header: header, document: plain(body), damage: .corrupted, markup: nil)
        }
        if UTF8Validation.firstInvalidByte(in: Array(body)) != nil {
            return Contents(header: header, document: plain(body), damage: .invalidUTF8, markup: nil)
        }
        if header.bytes == nil || header.checksum == nil {
            return Contents(header: header, document: plain(body), damage: .badHeader, markup: nil)
        }
        if let checksum = header.checksum, DraftName.fnv1a64(body) != checksum {
            return Contents(header: header, document: plain(body), damage: .corrupted, markup: nil)
        }
        let markup = Array(body)
        let document = DraftBody(markup: String(decoding: markup, as: UTF8.self), tokens: header.tokens).document
        return Contents(header: header, document: document, damage: nil, markup: markup)
    }

    /// The header and the offset of the body, or nil when the file does not start with a
    /// complete header of a version this build reads.
    private static func readHeader(_ bytes: [UInt8]) -> (Header, Int)? {
        let newline = UInt8(ascii: "\n")
        var lines: [String] = []
        var lineStart = 0
        var i = 0
        let limit = min(bytes.count, longestHeader)
        var bodyStart: Int?
        while i < limit {
            if bytes[i] == newline {
                if i == lineStart {
                    bodyStart = i + 1
                    break
                }
                lines.append(String(decoding: bytes[lineStart..<i], as: UTF8.self))
                lineStart = i + 1
            }
            i += 1
        }
        guard let bodyStart, let first = lines.first, first == "\(magic) \(version)" else { return nil }
        var header = Header()
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let value = String(parts[1])
            switch parts[0] {
            case "path": header.originalPath = unescape(value)
            case "written": header.written = UTCTimestamp.parse(value)
            case "pid": header.pid = Int32(value)
            case "bytes": header.bytes = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            case "fnv1a64": header.checksum = UInt64(value, radix: 16)
            case "tokens": header.tokens = value
            case "cursor": header.cursor = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            default: continue
            }
        }
        return (header, bodyStart)
    }

    /// Whether the file is the start of a draft header cut before its end (so the damage is
    /// a truncation, not a foreign file).
    private static func startsWithMagicPrefix(_ bytes: [UInt8]) -> Bool {
        let magicBytes = Array(magic.utf8)
        let n = min(bytes.count, magicBytes.count)
        return n > 0 && bytes.prefix(n).elementsEqual(magicBytes.prefix(n)) && bytes.count < longestHeader
    }

    /// Bytes as plain text: invalid UTF-8 becomes U+FFFD, and there are no mentions.
    private static func plain(_ bytes: ArraySlice<UInt8>) -> MarkedText {
        MarkedText(text: String(decoding: bytes, as: UTF8.self), mentions: [])
    }

    /// A path on one header line.
    static func escape(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }
}

/// What was wrong with a draft file that was read anyway (as plain text).
public enum DraftDamage: Hashable, Sendable, CustomStringConvertible {
    /// The file does not start with a draft header (or with one this build reads).
    case badHeader
    /// The file ends before the length its header gives.
    case truncated
    /// The text is not valid UTF-8 (the bad bytes read as U+FFFD).
    case invalidUTF8
    /// The text does not match its header's length or checksum.
    case corrupted

    public var description: String {
        switch self {
        case .badHeader: return "the draft's header is damaged"
        case .truncated: return "the draft was cut short"
        case .invalidUTF8: return "the draft is not valid UTF-8"
        case .corrupted: return "the draft is corrupted"
        }
    }
}
