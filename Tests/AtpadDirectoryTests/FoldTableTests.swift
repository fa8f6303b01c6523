@testable import AtpadCore
@testable import AtpadDirectory
import AtpadFoldTable
import Testing

/// The generated fold table must equal what the slow (Foundation) fold computes.
@Suite struct FoldTableTests {
    @Test func generatedTableIsCurrent() {
        var stale: [String] = []
        for value in UInt32(0x80) ..< Folding.tableLimit where Folding.table[Int(value) - 0x80] != Folding.slowPacked(value) {
            stale.append("U+" + String(value, radix: 16))
        }
        #expect(stale.isEmpty, "regenerate FoldTable.swift with `swift run -c release AtpadBench fold-table`: \(stale.prefix(5))")
    }
}
