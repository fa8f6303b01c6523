import AtpadCore
@testable import AtpadTerminal
import AtpadTestSupport
import Testing

/// The scan every frame makes of its visible lines (`RowWrapper`): printable ASCII eight
/// bytes at a time, and which lines are drawn as plain ASCII rows.
@Suite struct RowScanTests {
    /// The word-at-a-time scan ends where a byte-at-a-time one does, for every byte value
    /// in every place of a word and across the tail.
    @Test func thePrintablePrefixEndsWhereAByteAtATimeScanEnds() {
        for value in 0 ... 255 {
            for place in 0 ..< 20 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
                bytes[place] = UInt8(value)
                for start in [0, 1, 3, 9] {
                    var naive = start
                    while naive < bytes.count, bytes[naive] >= 0x20, bytes[naive] < 0x7F { naive += 1 }
                    let found = bytes.withUnsafeBufferPointer { RowWrapper.printableASCIIPrefix($0, from: start) }
                    #expect(found == naive, "byte \(value) at \(place), from \(start)")
                }
            }
        }
        #expect([UInt8]().withUnsafeBufferPointer { RowWrapper.printableASCIIPrefix($0, from: 0) } == 0)
    }

    /// Lines of printable ASCII and lines with a tab, DEL, a control character, a CR or a
    /// letter of two bytes anywhere: each line's row covers its scalars, and only the
    /// lines of printable ASCII narrower than the screen are plain ASCII rows.
    @Test func plainRowsAreExactlyTheLinesOfPrintableASCII() {
        var random = SeededRandom(seed: 11)
        let odd: [String] = ["\t", "\u{7F}", "\u{1F}", "\r", "é"]
        for _ in 0 ..< 200 {
            var lines: [String] = []
            for _ in 0 ..< 12 {
                var line = String(repeating: "x", count: Int(random.next() % 30))
                if random.next() % 2 == 0 {
                    let at = line.index(line.startIndex, offsetBy: Int(random.next() % UInt64(line.count + 1)))
                    line.insert(contentsOf: odd[Int(random.next() % UInt64(odd.count))], at: at)
                }
                lines.append(line)
            }
            let text = lines.joined(separator: "\n")
            let storage = TextStorage(MarkedText(text: text))
            let rows = RowWrapper(storage: storage, width: 40, tabWidth: 4).rows(from: 0, limit: 100)
            var start = 0
            for (i, line) in lines.enumerated() {
                let row = rows.first { $0.start == start }
                // A CR before a LF belongs to the break; one elsewhere (at the text's end) is text.
                let shown = line.hasSuffix("\r") && i + 1 < lines.count ? String(line.dropLast()) : line
                let plain = shown.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                #expect(row?.isPlainASCII == plain, "\(line.debugDescription) in \(text.debugDescription)")
                start += line.unicodeScalars.count + 1
            }
        }
    }
}
