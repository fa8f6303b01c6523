@testable import AtpadApp
import AtpadCore
import AtpadTerminal
import Foundation
import Testing

/// `ATPAD_TRACE_FILE`: the decorator around the terminal writes one line per input batch,
/// after the frame drawn for it, and the session draws through it as through any terminal.
@Suite struct TracingTerminalTests {
    func options() -> EditOptions {
        EditOptions(path: nil, document: MarkedText(text: ""), sources: [:], config: EditorConfig(),
                    theme: Theme(name: "test"), noColor: true, print: false)
    }

    func tracePath() -> String {
        NSTemporaryDirectory() + "atpad-trace-\(UUID().uuidString).tsv"
    }

    @Test func writesALinePerBatchAfterItsFrame() throws {
        let path = tracePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Two batches, then the end of input, which ends the session before any frame.
        let fake = FakeTerminal(batches: [[.key(.char("a")), .key(.char("b"))], [.key(.char("c"))]])
        let traced = TracingTerminal(fake, path: path)
        _ = EditSession(options(), terminal: traced).run()
        #expect(fake.started && fake.stopped)
        // The first frame (before any input), then one per batch, laid out and drawn
        // through the decorator.
        #expect(fake.screens.count >= 3)
        #expect(fake.lastScreen[1].hasPrefix("abc"))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.map { String($0.prefix { $0 != "\t" }) } == ["2", "1"])
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { Int($0) }
            // events, total µs, layout µs, drawing µs, reading µs, woke at, drawn at.
            #expect(fields.count == 7 && fields.allSatisfy { $0 != nil && $0! >= 0 }, "\(line)")
            let f = fields.map { $0 ?? 0 }
            #expect(f[2] > 0 && f[2] + f[3] <= f[1], "\(line)")
            #expect(f[6] - f[5] == f[1] + f[4], "\(line)")
        }
    }

    @Test func isChosenOnlyWhenTheVariableIsSet() throws {
        let fake = FakeTerminal(batches: [])
        #expect(TracingTerminal.chosen(fake, environment: [:]) === fake)
        let path = tracePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(TracingTerminal.chosen(fake, environment: ["ATPAD_TRACE_FILE": path]) is TracingTerminal)
        // Opened (and emptied) at once.
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
