import Foundation
import Testing
@testable import AtpadCore

/// Golden files for every format (`Golden/formats/`): one hard document (`input.atpad`)
/// and a directory (`people.json` for `@`, `channels.json` for `#`); for each format F,
/// `render.F` is the document written in F and `reread.F.txt` what reading `render.F`
/// back gives (the document in the json format, then one line per note; not for the
/// output-only `matrix`). Compared byte
/// for byte; re-record with `ATPAD_RECORD_GOLDEN=1 swift test --filter FormatGoldenTests`
/// and review the diff. The e2e test `test_render.py` checks `atpad render` against the
/// same files.
@Suite("format goldens")
struct FormatGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/formats")
    static let recording = ProcessInfo.processInfo.environment["ATPAD_RECORD_GOLDEN"] == "1"

    static func bytes(_ name: String) throws -> [UInt8] {
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path), "\(name) is missing")
        return [UInt8](data)
    }

    /// The entities of a directory file (a JSON array of objects), read with the core's
    /// JSON reader.
    static func entities(_ name: String) throws -> [Entity] {
        let bytes = try Self.bytes(name)
        let root = try bytes.withUnsafeBufferPointer { try JSONReader.value(of: $0) }
        guard case .array(let items) = root.kind else { throw FormatError("\(name): not an array") }
        return try items.map { item in
            guard case .object(let members) = item.kind else { throw FormatError("\(name): not an object") }
            func field(_ key: String) -> String? {
                if case .string(let s)? = members.first(where: { $0.key == key })?.value.kind { return s }
                return nil
            }
            guard let id = field("id"), let name = field("name") else { throw FormatError("\(name): no id or name") }
            return Entity(id: id, name: name, handle: field("handle"), detail: field("detail"), url: field("url"))
        }
    }

    static func directory() throws -> EntityLookup {
        EntityLookup(["@": try entities("people.json"), "#": try entities("channels.json")])
    }

    static func input() throws -> MarkedText {
        AtpadMarkup.decode(String(decoding: try bytes("input.atpad"), as: UTF8.self))
    }

    /// Compares `actual` with the golden file `name`, or writes it when recording.
    static func expect(_ actual: [UInt8], golden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if recording {
            try Data(actual).write(to: url)
            return
        }
        let expected = try bytes(name)
        #expect(actual == expected, """
            golden \(name) differs; record with ATPAD_RECORD_GOLDEN=1
              got:      \(String(reflecting: String(decoding: actual, as: UTF8.self)))
              expected: \(String(reflecting: String(decoding: expected, as: UTF8.self)))
            """, sourceLocation: sourceLocation)
    }

    @Test(arguments: DocumentFormat.allCases)
    func render(format: DocumentFormat) throws {
        // As `atpad render input.atpad --format F` writes it: from atpad markup, Markdown.
        let written = format.encodeUTF8(try Self.input(), lookup: try Self.directory(), from: .atpad)
        try Self.expect(written, golden: "render.\(format)")
        let unconverted = format.encodeUTF8(try Self.input(), lookup: try Self.directory())
        #expect(Array(format.encode(try Self.input(), lookup: try Self.directory()).utf8) == unconverted)
    }

    @Test(arguments: DocumentFormat.allCases.filter { !$0.isOutputOnly })
    func reread(format: DocumentFormat) throws {
        let read = try format.decode(utf8: try Self.bytes("render.\(format)"), lookup: try Self.directory())
        var report = MentionJSON.document(read.document) + "\n"
        for note in read.notes { report += note + "\n" }
        try Self.expect(Array(report.utf8), golden: "reread.\(format).txt")
        if format == .atpad || format == .json {
            #expect(read.document == (try Self.input()))
            #expect(read.notes.isEmpty)
        }
    }
}
