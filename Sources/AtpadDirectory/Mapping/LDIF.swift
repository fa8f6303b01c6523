import AtpadCore
import AtpadSystem
import FoundationEssentials
import Glibc

/// Reads LDIF, as `ldapsearch -LLL` prints it (RFC 2849), into JSON items for an
/// ``EntityMapping``: each entry becomes an object whose keys are its attribute names
/// (and `dn`), each with the entry's first value of that attribute.
///
/// Read properly: a line starting with one space continues the line before it (long values
/// are folded at 76 columns), `name:: value` is base64 (how non-ASCII names arrive),
/// `#` lines are comments, blank lines end an entry, and a leading `version:` line is not
/// an entry. `name:< URL` values (a file to fetch) are ignored.
enum LDIF {
    /// The entries of `bytes` as a JSON array text.
    static func jsonText(of bytes: [UInt8]) throws(SourceError) -> String {
        let entries = try self.entries(of: bytes).map { entry in
            JSONValue.object(entry.map { ($0.name, .string($0.value)) })
        }
        return JSONWriter.text(.array(entries), layout: .compact)
    }

    /// The entries, each its attributes in order (first value of each).
    static func entries(of bytes: [UInt8]) throws(SourceError) -> [[(name: String, value: String)]] {
        guard UTF8Validation.firstInvalidByte(in: bytes) == nil else { throw SourceError("LDIF: not valid UTF-8") }
        // Unfold: a line that starts with a space continues the previous one. Split as
        // bytes: in a String, "\r\n" is one Character and would not split at "\n".
        var lines: [String] = []
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = raw[...]
            if line.last == 0x0D { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix(" "), !lines.isEmpty, !lines[lines.count - 1].isEmpty {
                lines[lines.count - 1] += text.dropFirst()
            } else {
                lines.append(text)
            }
        }
        var entries: [[(name: String, value: String)]] = []
        var current: [(name: String, value: String)] = []
        func finish() {
            if !current.isEmpty, !(current.count == 1 && current[0].name == "version") { entries.append(current) }
            current = []
        }
        for (number, line) in lines.enumerated() {
            if line.isEmpty { finish(); continue }
            if line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw SourceError("LDIF line \(number + 1): no \":\" after the attribute name")
            }
            let name = String(line[..<colon])
            var rest = line[line.index(after: colon)...]
            let value: String
            if rest.hasPrefix(":") {
                rest = rest.dropFirst().drop { $0 == " " }
                guard let data = Data(base64Encoded: String(rest)) else {
                    throw SourceError("LDIF line \(number + 1): the base64 value of \(name) is not valid base64")
                }
                guard UTF8Validation.firstInvalidByte(in: Array(data)) == nil else { continue }  // binary (a photo): not text
                value = String(decoding: data, as: UTF8.self)
            } else if rest.hasPrefix("<") {
                continue
            } else {
                value = String(rest.drop { $0 == " " })
            }
            if !current.contains(where: { $0.name == name }) { current.append((name, value)) }
        }
        finish()
        return entries
    }
}
