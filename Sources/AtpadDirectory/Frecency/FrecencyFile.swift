import AtpadCore
import FoundationEssentials
import Glibc

/// The frecency file's format, version 1: for each trigger, for each id, the score as of
/// its last pick and the time of that pick in seconds since 1970 (UTC).
///
/// ```json
/// {
///   "version": 1,
///   "triggers": {
///     "@": {
///       "u42": [2.5, 1731000000.0]
///     }
///   }
/// }
/// ```
enum FrecencyFile {
    /// What reading the file found.
    enum Contents {
        /// No file yet: an empty store, nothing to say.
        case missing
        /// A file that cannot be used, with the reason in one line (path, line, problem).
        case failed(String)
        case entries([String: [String: FrecencyStore.Entry]])
    }

    static func read(_ url: URL) -> Contents {
        let path = url.path
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT { return .missing }
        do {
            return .entries(try decode(try DirectoryFile.contents(of: path), path: path))
        } catch let error as DirectoryError {
            return .failed(error.description)
        } catch {
            return .failed("\(path): \(error)")
        }
    }

    /// The entries of a frecency file's bytes; errors are ``DirectoryError``s naming the line.
    static func decode(_ bytes: [UInt8], path: String) throws -> [String: [String: FrecencyStore.Entry]] {
        let fail = { (offset: Int, message: String) in
            DirectoryError(path: path, line: ByteLines.lineNumber(in: bytes, at: offset), message: message)
        }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw fail(bad, "not valid UTF-8")
        }
        let top: JSONValue
        do {
            top = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(bytes: buffer, offset: 0)
                reader.skipWhitespace()
                let value = try reader.readValue()
                reader.skipWhitespace()
                if reader.peek() != nil {
                    throw JSONSyntaxError(offset: reader.offset, message: "unexpected text after the object")
                }
                return value
            }
        } catch let error as JSONSyntaxError {
            throw fail(error.offset, "not valid JSON: \(error.message)")
        }

        guard case .object(let members) = top.kind else {
            throw fail(top.offset, "not an atpad frecency file (expected an object with \"version\": 1)")
        }
        guard let version = members.first(where: { $0.key == "version" })?.value else {
            throw fail(top.offset, "not an atpad frecency file (no \"version\")")
        }
        guard case .number("1") = version.kind else {
            throw fail(version.offset, "frecency file version \(version.kind.noun) is not supported (expected 1)")
        }
        guard let triggers = members.first(where: { $0.key == "triggers" })?.value else { return [:] }
        guard case .object(let byTrigger) = triggers.kind else {
            throw fail(triggers.offset, "\"triggers\" must be an object, not \(triggers.kind.noun)")
        }
        var entries: [String: [String: FrecencyStore.Entry]] = [:]
        for (trigger, value) in byTrigger {
            guard case .object(let ids) = value.kind else {
                throw fail(value.offset, "trigger \(JSONText.quote(trigger)) must be an object, not \(value.kind.noun)")
            }
            var forTrigger: [String: FrecencyStore.Entry] = [:]
            for (id, pair) in ids {
                guard case .array(let numbers) = pair.kind, numbers.count == 2,
                      case .number(let scoreText) = numbers[0].kind, let score = Double(scoreText),
                      case .number(let timeText) = numbers[1].kind, let time = Double(timeText),
                      score.isFinite, score >= 0, time.isFinite else {
                    throw fail(pair.offset, "the entry of \(JSONText.quote(id)) must be [score, seconds since 1970]")
                }
                forTrigger[id] = FrecencyStore.Entry(score: score, updated: Date(timeIntervalSince1970: time))
            }
            entries[trigger] = forTrigger
        }
        return entries
    }

    /// The file's text, triggers and ids sorted so that saves of the same store are equal,
    /// one id a line.
    static func encode(_ entries: [String: [String: FrecencyStore.Entry]]) -> String {
        let triggers = entries.sorted { $0.key < $1.key }.map { trigger, ids -> (key: String, value: JSONValue) in
            (trigger, .object(ids.sorted { $0.key < $1.key }.map { id, entry in
                (id, [.number(entry.score), .number(entry.updated.timeIntervalSince1970)])
            }))
        }
        return JSONWriter.text(["version": 1, "triggers": .object(triggers)], layout: .lines(depth: 3, indent: 2)) + "\n"
    }
}
