import AtpadTestSupport
import Foundation
import Testing
@testable import AtpadCore

/// Issue 22, bullets 1 and 2: atpad as `$EDITOR` opens files it has never seen. For every
/// readable format and any file — random bytes full of backslashes, brackets, triggers,
/// every format's constructs and bytes that are not UTF-8 (not for json, which must be
/// UTF-8), this repository's own sources and git's hook templates — opening
/// it, inserting plain text at one cursor place and saving changes exactly the bytes of
/// that insertion: every byte of the file is still there, in order, around one run of new
/// bytes, and that run reads back as the text inserted.
@Suite("one edit changes only its bytes")
struct OneEditPropertyTests {
    static let randomFiles = 600

    /// Every format a file can be opened in. json opens only json documents, so its files
    /// are documents (the others are any text).
    static let formats: [DocumentFormat] = DocumentFormat.allCases.filter { !$0.isOutputOnly }

    static let directory = LosslessFormatPropertyTests.directory

    /// Pieces of random files: plain text of every kind and every format's constructs.
    static let pieces: [String] = LosslessFormatPropertyTests.shared
        // Sorted: a dictionary's order changes from run to run, and a seed must replay.
        + LosslessFormatPropertyTests.pieces.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap(\.value)
        + ["\\\\", "\\n", "C:\\\\Users\\\\me", "/\\\\d+/", "\"a\\\\n\"", "foo@[bar](baz)", "\\\\@[", "@[x](y)",
           "**", "_", "~~", "- [ ] ", "> ", "# ", "    code\n", "<!-- c -->", "[link](http://x.example)", "\\`"]

    /// What is inserted: plain text that starts and ends with a character of its own (not
    /// a mark or a joiner, which would join the cluster next to it).
    static let inserted: [String] = ["x", "hello", " ", "\n", "\\", "\\\\", "@", "@[x](y)", "<@u1>", "&amp;", "<", ">",
                                     "&", "[", "](", "`", "```\n", "*", "@jdoe", "#", ":", "王", "👩‍💻", "|", "\r\n",
                                     "<!here>", "[~accountid:u1]", "@**John Doe|u1**", "[@x](mention:u1)"]

    /// Files of this repository and git's templates, as bytes.
    static let realFiles: [(name: String, bytes: [UInt8])] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var names: [String] = []
        for folder in ["Sources/AtpadCore/Formats", "Sources/AtpadCore/Markup", "Sources/AtpadApp/Config",
                       "Tests/AtpadCoreTests/Formats", "Tests/e2e"] {
            let path = root.appendingPathComponent(folder).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                names.append(path + "/" + name)
            }
        }
        names += ["README.md", "ARCHITECTURE.md", "Resources/config.example.toml"].map { root.appendingPathComponent($0).path }
        let hooks = "/usr/share/git-core/templates/hooks"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: hooks)) ?? [] { names.append(hooks + "/" + name) }
        names += ["/usr/share/git-core/templates/description", "/usr/share/git-core/templates/info/exclude"]
        return names.sorted().compactMap { name in
            FileManager.default.contents(atPath: name).map { (name, [UInt8]($0)) }
        }
    }()

    /// Bytes that are not UTF-8 (docs/editor.md): Latin-1 letters, a stray
    /// continuation byte, cut sequences, a surrogate, an overlong form, and a scalar of the
    /// range `RawBytes` uses for its stand-ins.
    static let notUTF8: [[UInt8]] = [[0xE9], [0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
                                     [0xF4, 0x8F, 0xBF, 0xBF], [0xFE, 0xFE], [0xE9, 0xCC, 0x81]]

    static func randomFile(_ format: DocumentFormat, rng: inout SeededRandom) -> [UInt8] {
        if format == .json {
            var s = ""
            for _ in 0 ..< rng.int(0 ..< 24) { s += rng.pick(pieces) }
            return Array(MentionJSON.document(AtpadMarkup.decode(s).validMentionsOnly).utf8)
        }
        var bytes: [UInt8] = []
        for _ in 0 ..< rng.int(0 ..< 24) {
            bytes += rng.chance(0.12) ? rng.pick(notUTF8) : Array(rng.pick(pieces).utf8)
        }
        return bytes
    }

    /// Found by the fuzz target: typing `](u1)` after a literal `@[aa …` completes markup's
    /// mention syntax, so the writer escapes that `@[` — however far before the edit it is —
    /// and the text stays text. That escape is the edit's, not a change elsewhere.
    @Test func anEscapeTheEditMadeNecessaryFarBeforeItIsTheEdits() throws {
        let file = Array("x @[aa \u{1C} bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr ss tt uu vv".utf8)
        var doc = try DocumentFormat.atpad.decode(bytes: file).document
        #expect(doc.mentions.isEmpty)
        doc.text += "](u1) done"
        let saved = try DocumentFormat.atpad.encodeBytes(doc)
        #expect(String(decoding: saved, as: UTF8.self).hasPrefix("x \\@[aa"))
        #expect(try DocumentFormat.atpad.decode(bytes: saved).document.text == doc.text)
        #expect(EditedBytes.isInsertion(of: Array("](u1) done".utf8), from: file, to: saved))
        // Any other byte that changed is still a change.
        var other = saved
        other[0] = UInt8(ascii: "y")
        #expect(!EditedBytes.isInsertion(of: Array("](u1) done".utf8), from: file, to: other))
    }

    @Test(arguments: formats)
    func randomFiles(format: DocumentFormat) throws {
        for n in 0 ..< Self.randomFiles {
            let seed = 0x22_0001 &+ UInt64(n)
            var rng = SeededRandom(seed: seed)
            let file = Self.randomFile(format, rng: &rng)
            if let problem = try Self.check(file, format: format, rng: &rng) {
                Issue.record("\(format), seed \(seed): \(problem)")
                return
            }
        }
    }

    @Test(arguments: formats.filter { $0 != .json })
    func realFiles(format: DocumentFormat) throws {
        #expect(Self.realFiles.count > 20)
        for (k, file) in Self.realFiles.enumerated() {
            var rng = SeededRandom(seed: 0x22_0002 &+ UInt64(k))
            for _ in 0 ..< 3 {
                if let problem = try Self.check(file.bytes, format: format, rng: &rng) {
                    Issue.record("\(format), \(file.name): \(problem)")
                    return
                }
            }
        }
    }

    /// Opens `file` in `format`, inserts random plain text at a random cursor place and
    /// saves; returns what went wrong, or nil.
    static func check(_ file: [UInt8], format: DocumentFormat, rng: inout SeededRandom) throws -> String? {
        let read = try format.decode(bytes: file, lookup: directory).document
        let unchanged = try format.encodeBytes(read, lookup: directory)
        guard unchanged == file else {
            return "saving without an edit changed the bytes\n  file:  \(show(file))\n  saved: \(show(unchanged))"
        }
        let places = LosslessFormatPropertyTests.cursorPlaces(in: read)
        let place = rng.pick(places)
        let text = (0 ..< rng.int(1 ..< 4)).map { _ in rng.pick(inserted) }.joined()
        var editor = Editor(read)
        editor.selection = .cursor(place)
        editor.insert(MarkedText(text: text))
        let edited = editor.marked
        // A mention that the new text made end inside a cluster is text now
        // (ARCHITECTURE.md, "The change value (`Sources/AtpadCore/Changes`)"): that is the
        // edit's doing, not the format's.
        guard edited.mentions.count == read.mentions.count else { return nil }
        let saved = try format.encodeBytes(edited, lookup: directory)
        // json counts every mention's offsets in the file: an edit moves the numbers of the
        // mentions after it, so only the round trip above holds there.
        if format == .json { return nil }
        let written = format.encodeUTF8(MarkedText(text: text), lookup: directory)
        guard EditedBytes.isInsertion(of: written, from: file, to: saved) else {
            return """
                inserting \(String(reflecting: text)) (written \(show(written))) at \(place) changed other bytes
                  file:  \(show(file))
                  saved: \(show(saved))
                """
        }
        return nil
    }

    static func show(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let short = text.count > 300 ? String(text.prefix(300)) + "…" : text
        return String(reflecting: short)
    }
}
